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

/** The ranges after every ledger of `span` is added. */
export function addSpan(ranges: readonly LedgerRange[], span: LedgerRange): LedgerRange[] {
  const merged: LedgerRange[] = [];
  for (const range of [...ranges, span].sort((a, b) => a.first - b.first)) {
    const previous = merged.at(-1);
    if (previous && range.first <= previous.last + 1) merged[merged.length - 1] = { first: previous.first, last: Math.max(previous.last, range.last) };
    else merged.push({ ...range });
  }
  return merged;
}

/** The ranges after every ledger of `span` is removed. */
export function removeSpan(ranges: readonly LedgerRange[], span: LedgerRange): LedgerRange[] {
  return ranges.flatMap((range) => {
    if (span.last < range.first || span.first > range.last) return [range];
    const parts: LedgerRange[] = [];
    if (range.first < span.first) parts.push({ first: range.first, last: span.first - 1 });
    if (span.last < range.last) parts.push({ first: span.last + 1, last: range.last });
    return parts;
  });
}

/** The range holding `ledgerIndex`, if any. */
export function rangeHolding(ranges: readonly LedgerRange[], ledgerIndex: number): LedgerRange | undefined {
  return ranges.find((range) => range.first <= ledgerIndex && ledgerIndex <= range.last);
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
