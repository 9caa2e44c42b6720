import { describe, expect, it } from 'vitest';
import { addToRanges, rangesContain, rangesOf } from './ranges';

describe('complete ranges', () => {
  it('starts a range, extends it at either end and keeps a gap as two ranges', () => {
    expect(addToRanges([], 10)).toEqual([{ first: 10, last: 10 }]);
    expect(addToRanges([{ first: 10, last: 10 }], 11)).toEqual([{ first: 10, last: 11 }]);
    expect(addToRanges([{ first: 10, last: 11 }], 9)).toEqual([{ first: 9, last: 11 }]);
    expect(addToRanges([{ first: 10, last: 11 }], 13)).toEqual([
      { first: 10, last: 11 },
      { first: 13, last: 13 },
    ]);
  });

  it('joins two ranges when the ledger between them arrives', () => {
    const ranges = [
      { first: 1, last: 3 },
      { first: 5, last: 9 },
      { first: 20, last: 20 },
    ];
    expect(addToRanges(ranges, 4)).toEqual([
      { first: 1, last: 9 },
      { first: 20, last: 20 },
    ]);
    expect(ranges).toHaveLength(3);
  });

  it('inserts a lone ledger between and before other ranges in order', () => {
    expect(addToRanges([{ first: 10, last: 12 }, { first: 30, last: 31 }], 20)).toEqual([
      { first: 10, last: 12 },
      { first: 20, last: 20 },
      { first: 30, last: 31 },
    ]);
    expect(addToRanges([{ first: 10, last: 12 }], 1)).toEqual([
      { first: 1, last: 1 },
      { first: 10, last: 12 },
    ]);
  });

  it('is unchanged by a ledger it already holds, and handles the u32 ends', () => {
    expect(addToRanges([{ first: 5, last: 9 }], 7)).toEqual([{ first: 5, last: 9 }]);
    expect(rangesOf([1, 0xfffffffe, 0xffffffff])).toEqual([
      { first: 1, last: 1 },
      { first: 0xfffffffe, last: 0xffffffff },
    ]);
  });

  it('gives the same ranges whatever order the ledgers arrive in', () => {
    const indexes = [3, 9, 4, 1, 7, 2, 8, 12, 11];
    const expected = [
      { first: 1, last: 4 },
      { first: 7, last: 9 },
      { first: 11, last: 12 },
    ];
    expect(rangesOf(indexes)).toEqual(expected);
    expect(rangesOf([...indexes].reverse())).toEqual(expected);
    expect(rangesContain(expected, 8)).toBe(true);
    expect(rangesContain(expected, 10)).toBe(false);
  });
});
