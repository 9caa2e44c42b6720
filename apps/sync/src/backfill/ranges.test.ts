import { describe, expect, it } from 'vitest';
import { earliestContiguousLedger, gapLedgerCount, LedgerRangeSet, parseCompleteLedgers, planGaps } from './ranges';

describe('LedgerRangeSet', () => {
  it('merges adjacent and overlapping ledgers into ascending ranges', () => {
    const ranges = new LedgerRangeSet();
    for (const ledgerIndex of [10, 12, 11, 20, 5, 6, 19]) ranges.add(ledgerIndex);
    expect(ranges.toArray()).toEqual([
      { first: 5, last: 6 },
      { first: 10, last: 12 },
      { first: 19, last: 20 },
    ]);
    ranges.addRange(7, 18);
    expect(ranges.toArray()).toEqual([{ first: 5, last: 20 }]);
    expect(ranges.highest).toBe(20);
    expect(ranges.lowest).toBe(5);
    expect(ranges.rangeOf(9)).toEqual({ first: 5, last: 20 });
    expect(ranges.has(21)).toBe(false);
  });

  it('removes a run of ledgers, splitting the ranges it cuts, and names what one set holds beyond another', () => {
    const ranges = new LedgerRangeSet([{ first: 1, last: 10 }, { first: 20, last: 30 }]);
    ranges.removeRange(5, 22);
    expect(ranges.toArray()).toEqual([{ first: 1, last: 4 }, { first: 23, last: 30 }]);
    ranges.removeRange(2, 2);
    expect(ranges.toArray()).toEqual([{ first: 1, last: 1 }, { first: 3, last: 4 }, { first: 23, last: 30 }]);
    expect(ranges.without(new LedgerRangeSet([{ first: 4, last: 25 }]))).toEqual([{ first: 1, last: 1 }, { first: 3, last: 3 }, { first: 26, last: 30 }]);
    ranges.setTo(new LedgerRangeSet([{ first: 7, last: 8 }]));
    expect(ranges.toArray()).toEqual([{ first: 7, last: 8 }]);
  });
});

describe('planGaps', () => {
  it('plans nothing for an empty store: backfill needs an anchor first', () => {
    expect(planGaps([], 1)).toEqual([]);
  });

  it('fills below the only range down to the start ledger', () => {
    expect(planGaps([{ first: 100, last: 120 }], 90)).toEqual([{ top: 99, bottom: 90, linksBelow: false }]);
  });

  it('plans the newest gap first and links each gap to the range below it', () => {
    const gaps = planGaps(
      [
        { first: 10, last: 20 },
        { first: 31, last: 40 },
        { first: 50, last: 60 },
      ],
      5,
    );
    expect(gaps).toEqual([
      { top: 49, bottom: 41, linksBelow: true },
      { top: 30, bottom: 21, linksBelow: true },
      { top: 9, bottom: 5, linksBelow: false },
    ]);
    expect(gapLedgerCount(gaps)).toBe(9 + 10 + 5);
  });

  it('stops at the start ledger even when older ledgers are stored below it', () => {
    expect(
      planGaps(
        [
          { first: 1, last: 3 },
          { first: 50, last: 60 },
        ],
        40,
      ),
    ).toEqual([{ top: 49, bottom: 40, linksBelow: false }]);
  });

  it('has nothing to do when the stored range reaches the start ledger', () => {
    expect(planGaps([{ first: 7, last: 9 }], 7)).toEqual([]);
    expect(planGaps([{ first: 7, last: 9 }], 8)).toEqual([]);
  });
});

describe('complete_ledgers', () => {
  it('parses rippled complete_ledgers text', () => {
    expect(parseCompleteLedgers('32570-6595042')).toEqual([{ first: 32570, last: 6595042 }]);
    expect(parseCompleteLedgers('1-5,7,9-12')).toEqual([
      { first: 1, last: 5 },
      { first: 7, last: 7 },
      { first: 9, last: 12 },
    ]);
    expect(parseCompleteLedgers('empty')).toEqual([]);
  });

  it('takes the earliest ledger reachable without a hole from the validated ledger', () => {
    expect(earliestContiguousLedger(parseCompleteLedgers('1-5,9-100'), 100)).toBe(9);
    expect(earliestContiguousLedger(parseCompleteLedgers('11119599-11119604'), 11119604)).toBe(11119599);
    expect(earliestContiguousLedger([], 5)).toBeUndefined();
  });
});
