/**
 * The range arithmetic of a store that follows a database another process writes (a standby, a
 * reader): what it reports stays inside what that database holds, and it takes on new ledgers in
 * ascending order, a bounded number at a time.
 */
import type { LedgerRange } from './ranges';

/** The ledgers in both `a` and `b` (each ascending and disjoint), as ranges. */
export function rangesIntersection(a: readonly LedgerRange[], b: readonly LedgerRange[]): LedgerRange[] {
  const result: LedgerRange[] = [];
  let left = 0;
  let right = 0;
  while (left < a.length && right < b.length) {
    const first = Math.max(a[left].first, b[right].first);
    const last = Math.min(a[left].last, b[right].last);
    if (first <= last) result.push({ first, last });
    if (a[left].last < b[right].last) left++;
    else right++;
  }
  return result;
}

/** The lowest `limit` ledger indexes in `theirs` and not in `ours` (both ascending and disjoint), ascending. */
export function missingFrom(ours: readonly LedgerRange[], theirs: readonly LedgerRange[], limit: number): number[] {
  const missing: number[] = [];
  const take = (first: number, last: number) => {
    for (let ledgerIndex = first; ledgerIndex <= last && missing.length < limit; ledgerIndex++) missing.push(ledgerIndex);
  };
  for (const range of theirs) {
    let next = range.first;
    for (const covered of ours) {
      if (covered.last < next) continue;
      if (covered.first > range.last) break;
      take(next, Math.min(covered.first - 1, range.last));
      next = Math.max(next, covered.last + 1);
    }
    take(next, range.last);
    if (missing.length >= limit) break;
  }
  return missing;
}

/** The ledgers in `a` and not in `b` (each ascending and disjoint), as ranges. */
export function rangesWithout(a: readonly LedgerRange[], b: readonly LedgerRange[]): LedgerRange[] {
  const result: LedgerRange[] = [];
  for (const range of a) {
    let next = range.first;
    for (const covered of b) {
      if (covered.last < next) continue;
      if (covered.first > range.last) break;
      if (covered.first > next) result.push({ first: next, last: covered.first - 1 });
      next = covered.last + 1;
      if (next > range.last) break;
    }
    if (next <= range.last) result.push({ first: next, last: range.last });
  }
  return result;
}
