import { describe, expect, it } from 'vitest';
import { comparisonTextTable, comparisonVerdict, turnsRatio, type StoreComparison } from './figures';

const bytes = (postgres: number | undefined): StoreComparison => ({ name: 'bytes_per_tx', unit: 'B', rocksdb: 632, postgres, goal: { atMost: 1.5 } });

describe('store comparisons', () => {
  it('judge PostgreSQL ÷ RocksDB against the goal: at most for bytes, at least for rates, missing without a figure', () => {
    expect(comparisonVerdict(bytes(816))).toEqual({ goal: 'ratio ≤ 1.50', result: 'pass' });
    expect(comparisonVerdict(bytes(1_018))).toEqual({ goal: 'ratio ≤ 1.50', result: 'short' });
    expect(comparisonVerdict(bytes(undefined))).toEqual({ goal: 'ratio ≤ 1.50', result: 'missing' });
    const sync = { name: 'sync_tx_per_s', unit: 'tx/s', rocksdb: 11_078, goal: { atLeast: 0.5 } };
    expect(comparisonVerdict({ ...sync, postgres: 7_113 })).toEqual({ goal: 'ratio ≥ 0.50', result: 'pass' });
    expect(comparisonVerdict({ ...sync, postgres: 4_000 })).toEqual({ goal: 'ratio ≥ 0.50', result: 'short' });
    expect(comparisonVerdict({ name: 'rpc_get_tx_rps', unit: 'req/s', rocksdb: 4_985, postgres: 2_034 })).toEqual({ goal: 'reported', result: 'reported' });
  });

  it('print the goal and the verdict beside the ratio', () => {
    expect(comparisonTextTable([bytes(816)]).split('\n')).toEqual([
      'figure        rocksdb  postgres  postgres ÷ rocksdb  goal          result  note',
      '------------  -------  --------  ------------------  ------------  ------  ----',
      'bytes_per_tx  632 B    816 B     1.29                ratio ≤ 1.50  pass',
    ]);
  });
});

describe('turnsRatio', () => {
  it("is the median of the turns' ratios, beside each side's median rate", () => {
    const turns = [
      { baseline: 1000, value: 900 },
      { baseline: 500, value: 400 },
      { baseline: 1100, value: 1045 },
    ];
    const summary = turnsRatio(turns);
    expect(summary.baseline).toBe(1000);
    expect(summary.value).toBe(900);
    // Ratios 0.9, 0.8 and 0.95: the median is the first turn's.
    expect(summary.ratio).toBeCloseTo(0.9, 10);
    expect(turnsRatio([...turns, { baseline: 1000, value: 1000 }]).ratio).toBeCloseTo((0.9 + 0.95) / 2, 10);
  });

  it('refuses no turns at all', () => {
    expect(() => turnsRatio([])).toThrow('no turn');
  });
});
