/** Ledger index ranges: what is stored, and the gaps backfill still has to fill. */
import type { LedgerRange } from '@ledger-node/contracts';

export type { LedgerRange };

/** A set of ledger indexes kept as ascending, disjoint, non-adjacent inclusive ranges. */
export class LedgerRangeSet {
  private ranges: LedgerRange[] = [];

  constructor(ranges: readonly LedgerRange[] = []) {
    for (const range of ranges) this.addRange(range.first, range.last);
  }

  add(ledgerIndex: number): void {
    this.addRange(ledgerIndex, ledgerIndex);
  }

  addRange(first: number, last: number): void {
    if (last < first) return;
    const kept: LedgerRange[] = [];
    let merged = { first, last };
    for (const range of this.ranges) {
      if (range.last + 1 < merged.first || merged.last + 1 < range.first) kept.push(range);
      else merged = { first: Math.min(range.first, merged.first), last: Math.max(range.last, merged.last) };
    }
    kept.push(merged);
    this.ranges = kept.sort((a, b) => a.first - b.first);
  }

  remove(ledgerIndex: number): void {
    this.ranges = this.ranges.flatMap((range) => {
      if (ledgerIndex < range.first || ledgerIndex > range.last) return [range];
      return [
        { first: range.first, last: ledgerIndex - 1 },
        { first: ledgerIndex + 1, last: range.last },
      ].filter((part) => part.first <= part.last);
    });
  }

  /** Removes every ledger of `first`..`last`. */
  removeRange(first: number, last: number): void {
    if (last < first) return;
    this.ranges = this.ranges.flatMap((range) => {
      if (last < range.first || first > range.last) return [range];
      return [
        { first: range.first, last: first - 1 },
        { first: last + 1, last: range.last },
      ].filter((part) => part.first <= part.last);
    });
  }

  /** Removes every ledger below `ledgerIndex`. */
  removeBelow(ledgerIndex: number): void {
    this.ranges = this.ranges.filter((range) => range.last >= ledgerIndex).map((range) => ({ first: Math.max(range.first, ledgerIndex), last: range.last }));
  }

  /** The ledgers in this set and not in `other`, as ranges. */
  without(other: LedgerRangeSet): LedgerRange[] {
    const rest = new LedgerRangeSet(this.ranges);
    for (const range of other.ranges) rest.removeRange(range.first, range.last);
    return rest.toArray();
  }

  /** Holds exactly the ledgers of `other` from now on. */
  setTo(other: LedgerRangeSet): void {
    this.ranges = other.toArray();
  }

  has(ledgerIndex: number): boolean {
    return this.ranges.some((range) => range.first <= ledgerIndex && ledgerIndex <= range.last);
  }

  /** The range holding `ledgerIndex`, if any. */
  rangeOf(ledgerIndex: number): LedgerRange | undefined {
    const range = this.ranges.find((candidate) => candidate.first <= ledgerIndex && ledgerIndex <= candidate.last);
    return range && { ...range };
  }

  get highest(): number | undefined {
    return this.ranges.at(-1)?.last;
  }

  get lowest(): number | undefined {
    return this.ranges[0]?.first;
  }

  toArray(): LedgerRange[] {
    return this.ranges.map((range) => ({ ...range }));
  }
}

/** Ledgers backfill fetches, newest first: from `top` down to `bottom`, both inclusive. */
export interface BackfillGap {
  /** The ledger below a stored range; its stored child (top + 1) names its hash. */
  top: number;
  bottom: number;
  /** True when `bottom - 1` is stored, so the fill must also link to it. */
  linksBelow: boolean;
}

/**
 * What backfill still has to fetch: below each stored range, down to the next stored range or to
 * `startLedger`; newest gap first, so the ledgers nearest the tip are filled first. Ledgers below
 * `startLedger` that happen to be stored are left alone.
 */
export function planGaps(stored: readonly LedgerRange[], startLedger: number): BackfillGap[] {
  const gaps: BackfillGap[] = [];
  const ascending = [...stored].sort((a, b) => a.first - b.first);
  for (let position = ascending.length - 1; position >= 0; position--) {
    const range = ascending[position]!;
    const below = ascending[position - 1];
    const top = range.first - 1;
    const floor = below ? below.last + 1 : 1;
    const bottom = Math.max(floor, startLedger);
    if (top >= bottom) gaps.push({ top, bottom, linksBelow: below !== undefined && bottom === below.last + 1 });
    if (below && below.last < startLedger) break;
  }
  return gaps;
}

/** Number of ledgers the gaps hold. */
export function gapLedgerCount(gaps: readonly BackfillGap[]): number {
  return gaps.reduce((sum, gap) => sum + (gap.top - gap.bottom + 1), 0);
}

/** rippled `complete_ledgers` text ("32570-6595042", "1-5,7-9", "empty") as ranges. */
export function parseCompleteLedgers(text: string): LedgerRange[] {
  const ranges: LedgerRange[] = [];
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!match) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (Number.isSafeInteger(first) && Number.isSafeInteger(last) && first <= last) ranges.push({ first, last });
  }
  return ranges.sort((a, b) => a.first - b.first);
}

/**
 * The oldest ledger the upstream can serve without a hole up to `validatedLedgerIndex`: the first
 * ledger of the complete range that holds it (a range below a hole cannot be linked by backfill).
 */
export function earliestContiguousLedger(completeLedgers: readonly LedgerRange[], validatedLedgerIndex: number): number | undefined {
  const holding = completeLedgers.find((range) => range.first <= validatedLedgerIndex && validatedLedgerIndex <= range.last);
  return (holding ?? completeLedgers.at(-1))?.first;
}
