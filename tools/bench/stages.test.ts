import { describe, expect, it } from 'vitest';
import { parseMetrics, stageMarkdownTable, stageRows } from './stages';

/** A /metrics answer shaped as prom-client writes it (default `ledger_node_service` label, buckets, HELP/TYPE lines). */
function syncExposition(stageSums: Record<string, [sum: number, count: number]>, busySeconds: number, idleSeconds: number): string {
  const lines = ['# HELP ledger_node_sync_stage_seconds Seconds per ledger in each stage', '# TYPE ledger_node_sync_stage_seconds histogram'];
  for (const [stage, [sum, count]] of Object.entries(stageSums)) {
    lines.push(
      `ledger_node_sync_stage_seconds_bucket{le="0.001",stage="${stage}",ledger_node_service="sync"} ${count}`,
      `ledger_node_sync_stage_seconds_bucket{le="+Inf",stage="${stage}",ledger_node_service="sync"} ${count}`,
      `ledger_node_sync_stage_seconds_sum{stage="${stage}",ledger_node_service="sync"} ${sum}`,
      `ledger_node_sync_stage_seconds_count{stage="${stage}",ledger_node_service="sync"} ${count}`,
    );
  }
  lines.push(`ledger_node_event_loop_busy_seconds{ledger_node_service="sync"} ${busySeconds}`, `ledger_node_event_loop_idle_seconds{ledger_node_service="sync"} ${idleSeconds}`, '');
  return lines.join('\n');
}

const storeExposition = (ledgerSum: number, ledgerCount: number, busySeconds: number) =>
  [
    `ledger_node_store_write_seconds_sum{write="ledger",ledger_node_service="ledger-store"} ${ledgerSum}`,
    `ledger_node_store_write_seconds_count{write="ledger",ledger_node_service="ledger-store"} ${ledgerCount}`,
    `ledger_node_event_loop_busy_seconds{ledger_node_service="ledger-store"} ${busySeconds}`,
    `ledger_node_event_loop_idle_seconds{ledger_node_service="ledger-store"} 0.5`,
  ].join('\n');

describe('parseMetrics', () => {
  it('reads histogram sums and counts by their labels other than service, and gauges, skipping buckets and comments', () => {
    const sample = parseMetrics(syncExposition({ verify: [0.25, 100] }, 3.5, 1.5));
    expect([...sample.histograms]).toEqual([['ledger_node_sync_stage_seconds{stage="verify"}', { sum: 0.25, count: 100 }]]);
    expect(sample.gauges.get('ledger_node_event_loop_busy_seconds')).toBe(3.5);
    expect([...sample.gauges.keys()].some((key) => key.includes('bucket'))).toBe(false);
  });
});

describe('stageRows', () => {
  it('gives each stage its seconds, share of the wall and mean per ledger over the window between two scrapes', () => {
    const before = { sync: parseMetrics(syncExposition({ fetch: [0.5, 2], grpc: [0.01, 1] }, 1, 1)), store: parseMetrics(storeExposition(0.005, 1, 0.2)) };
    const after = {
      sync: parseMetrics(syncExposition({ fetch: [8.5, 402], verify: [0.4, 400], grpc: [1.01, 401] }, 3, 1.5)),
      store: parseMetrics(storeExposition(0.405, 401, 0.7)),
    };
    const rows = stageRows({ sync: { before: before.sync, after: after.sync }, store: { before: before.store, after: after.store }, wallSeconds: 4 });
    const byStage = new Map(rows.map((row) => [row.stage, row]));

    expect(byStage.get('fetch')).toMatchObject({ seconds: 8, share: 2, perLedgerSeconds: 0.02, observations: 400 });
    expect(byStage.get('verify')).toMatchObject({ seconds: 0.4, share: 0.1, perLedgerSeconds: 0.001, observations: 400 });
    expect(byStage.get('state')).toMatchObject({ seconds: 0, observations: 0, perLedgerSeconds: undefined });
    expect(byStage.get('store_write')).toMatchObject({ seconds: 0.4, observations: 400 });
    expect(byStage.get('grpc_overhead')!.seconds).toBeCloseTo(0.6);
    expect(byStage.get('event_loop_busy.sync')).toMatchObject({ seconds: 2, share: 0.5 });
    expect(byStage.get('event_loop_busy.ledger-store')!.share).toBeCloseTo(0.125);
  });

  it('renders one Markdown row per stage', () => {
    const after = parseMetrics(syncExposition({ parse: [0.2, 400] }, 2, 2));
    const table = stageMarkdownTable(stageRows({ sync: { after }, store: { after: parseMetrics('') }, wallSeconds: 4 }));
    expect(table.split('\n')[0]).toBe('| stage | seconds | share of sync wall | per ledger | ledgers | what |');
    expect(table).toContain('| `parse` | 0.20 s | 5.0 % | 0.50 ms | 400 | UTF-8 + JSON.parse of the answer, schema checks, every blob hex-decoded once |');
    expect(table).toContain('| `event_loop_busy.sync` | 2.00 s | 50.0 % | — | — |');
  });
});
