import { describe, expect, it } from 'vitest';
import { comparisonTextTable, comparisonVerdict, tracingOverhead, type StoreComparison } from './figures';

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

describe('tracingOverhead', () => {
  it('is one minus the median turn ratio, beside each side\'s median rate', () => {
    const turns = [
      { untraced: 1000, traced: 900 },
      { untraced: 500, traced: 400 },
      { untraced: 1100, traced: 1045 },
    ];
    const summary = tracingOverhead(turns);
    expect(summary.untraced).toBe(1000);
    expect(summary.traced).toBe(900);
    // Ratios 0.9, 0.8 and 0.95: the median is the first turn's.
    expect(summary.overhead).toBeCloseTo(0.1, 10);
    expect(tracingOverhead([...turns, { untraced: 1000, traced: 1000 }]).overhead).toBeCloseTo(1 - (0.9 + 0.95) / 2, 10);
  });

  it('refuses no turns at all', () => {
    expect(() => tracingOverhead([])).toThrow('no turn');
  });
});
