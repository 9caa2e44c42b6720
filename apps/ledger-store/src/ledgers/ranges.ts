import type { LedgerRange } from '@ledger-node/contracts';

/** An inclusive run of stored ledger indexes with no gap (one type for the workspace: common.proto's). */
export type { LedgerRange };

/**
 * The ranges after `ledgerIndex` is stored: merged with a neighbour it touches, or inserted in
 * order. `ranges` must be ascending and disjoint with gaps between them; it is not modified.
 */
export function addToRanges(ranges: readonly LedgerRange[], ledgerIndex: number): LedgerRange[] {
  const result: LedgerRange[] = [];
  let position = 0;
  while (position < ranges.length && ranges[position].last + 1 < ledgerIndex) result.push(ranges[position++]);
  let merged: LedgerRange = { first: ledgerIndex, last: ledgerIndex };
  while (position < ranges.length && ranges[position].first <= ledgerIndex + 1) {
    merged = { first: Math.min(merged.first, ranges[position].first), last: Math.max(merged.last, ranges[position].last) };
    position++;
  }
  result.push(merged);
  while (position < ranges.length) result.push(ranges[position++]);
  return result;
}

/** The ranges after `ledgerIndex` is removed: the range holding it shrinks or splits in two. */
export function removeFromRanges(ranges: readonly LedgerRange[], ledgerIndex: number): LedgerRange[] {
  return ranges.flatMap((range) => {
    if (ledgerIndex < range.first || ledgerIndex > range.last) return [range];
    const parts: LedgerRange[] = [];
    if (range.first < ledgerIndex) parts.push({ first: range.first, last: ledgerIndex - 1 });
    if (ledgerIndex < range.last) parts.push({ first: ledgerIndex + 1, last: range.last });
    return parts;
  });
}

export function rangesContain(ranges: readonly LedgerRange[], ledgerIndex: number): boolean {
  return ranges.some((range) => range.first <= ledgerIndex && ledgerIndex <= range.last);
}

/** Ranges from an ascending list of distinct indexes. */
export function rangesOf(indexes: Iterable<number>): LedgerRange[] {
  let ranges: LedgerRange[] = [];
  for (const ledgerIndex of indexes) ranges = addToRanges(ranges, ledgerIndex);
  return ranges;
}
