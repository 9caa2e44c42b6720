/**
 * Where sync's time goes during the bench's sync: the services' own histograms read from
 * their /metrics before and after, per stage its seconds, its share of sync's wall time and its mean
 * per ledger, with the event-loop busy time of sync and the ledger-store over the same window.
 */
import { SERVICE_LABEL } from '@ledger-node/telemetry';
import { SYNC_STAGES } from '../../apps/sync/src/stage-timing';
import { formatValue, renderMarkdownTable, renderTextTable } from './figures';

export interface HistogramTotal {
  sum: number;
  count: number;
}

/** One scrape of a service's /metrics, reduced to what the stage table reads. */
export interface MetricsSample {
  /** `<histogram>{<label>="<value>"}` → its _sum and _count. */
  histograms: Map<string, HistogramTotal>;
  /** `<gauge>` → value (labels ignored: one series each). */
  gauges: Map<string, number>;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The key under which a histogram series is kept: its name and its labels other than the service's (`ledger_node_service`). */
export const seriesKey = (name: string, labels: Record<string, string> = {}) => {
  const shown = Object.entries(labels)
    .filter(([label]) => label !== SERVICE_LABEL)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, value]) => `${label}="${value}"`);
  return shown.length === 0 ? name : `${name}{${shown.join(',')}}`;
};

/** Histogram sums and counts and plain gauge values of a Prometheus text exposition (comments and buckets skipped). */
export function parseMetrics(text: string): MetricsSample {
  const histograms = new Map<string, HistogramTotal>();
  const gauges = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = SAMPLE_LINE.exec(line);
    if (!match) continue;
    const [, name, labelText, valueText] = match;
    const value = Number(valueText);
    const labels = Object.fromEntries([...(labelText ?? '').matchAll(LABEL)].map(([, label, labelValue]) => [label!, labelValue!]));
    const part = name!.endsWith('_sum') ? 'sum' : name!.endsWith('_count') ? 'count' : undefined;
    if (part === undefined) {
      if (!name!.endsWith('_bucket')) gauges.set(seriesKey(name!, labels), value);
      continue;
    }
    const key = seriesKey(name!.slice(0, -part.length - 1), labels);
    const total = histograms.get(key) ?? { sum: 0, count: 0 };
    total[part] = value;
    histograms.set(key, total);
  }
  return { histograms, gauges };
}

/** What changed between two scrapes of one process (the later minus the earlier). */
function histogramDelta(before: MetricsSample | undefined, after: MetricsSample, key: string): HistogramTotal {
  const end = after.histograms.get(key) ?? { sum: 0, count: 0 };
  const start = before?.histograms.get(key) ?? { sum: 0, count: 0 };
  return { sum: end.sum - start.sum, count: end.count - start.count };
}

function gaugeDelta(before: MetricsSample | undefined, after: MetricsSample, key: string): number | undefined {
  const end = after.gauges.get(key);
  if (end === undefined) return undefined;
  return end - (before?.gauges.get(key) ?? 0);
}

export interface StageRow {
  stage: string;
  /** Seconds spent in the stage over the window (summed over ledgers, so overlapping work can exceed the wall). */
  seconds: number;
  /** seconds ÷ sync's wall time. */
  share: number;
  /** Mean seconds per observation (per ledger); undefined for the event-loop rows. */
  perLedgerSeconds?: number;
  observations?: number;
  note: string;
}

export interface StageScrapes {
  sync: { before?: MetricsSample; after: MetricsSample };
  store: { before?: MetricsSample; after: MetricsSample };
  /** Sync's wall time over the window: sync's first fetch answered until the store holds the whole history. */
  wallSeconds: number;
}

const STAGE_NOTES: Record<(typeof SYNC_STAGES)[number], string> = {
  fetch: 'sending a `ledger` request until its answer arrives; requests overlap (-thread_count in flight)',
  parse: 'UTF-8 + JSON.parse of the answer, schema checks, every blob hex-decoded once',
  verify: 'header hash, transaction hashes, tree root, over the bytes',
  link: 'parent link to the verified neighbour',
  index: 'LedgerWrite: each transaction indexed (accounts, sender)',
  state: 'state prover: state changes derived and proven against account_hash',
  state_grpc: "state prover's reads (GetLedger, GetLedgerRange) and PutStateChanges",
  grpc: 'a batch sent to the store until its answer (PutLedgersStream: two at once, overlapping)',
};

const SYNC_STAGE_HISTOGRAM = 'ledger_node_sync_stage_seconds';

/** Ledgers sync has fetched, by its own `fetch` stage histogram: 0 until its first request to the upstream is answered. */
export function ledgersFetched(sync: MetricsSample): number {
  return sync.histograms.get(seriesKey(SYNC_STAGE_HISTOGRAM, { stage: 'fetch' }))?.count ?? 0;
}
const STORE_WRITE_HISTOGRAM = 'ledger_node_store_write_seconds';

/** The per-stage table of one sync window. */
export function stageRows({ sync, store, wallSeconds }: StageScrapes): StageRow[] {
  const row = (stage: string, total: HistogramTotal, note: string): StageRow => ({
    stage,
    seconds: total.sum,
    share: total.sum / wallSeconds,
    perLedgerSeconds: total.count > 0 ? total.sum / total.count : undefined,
    observations: total.count,
    note,
  });
  const rows = SYNC_STAGES.map((stage) => row(stage, histogramDelta(sync.before, sync.after, seriesKey(SYNC_STAGE_HISTOGRAM, { stage })), STAGE_NOTES[stage]));
  const grpc = histogramDelta(sync.before, sync.after, seriesKey(SYNC_STAGE_HISTOGRAM, { stage: 'grpc' }));
  const ledgerWrite = histogramDelta(store.before, store.after, seriesKey(STORE_WRITE_HISTOGRAM, { write: 'ledger' }));
  rows.push(
    row('store_write', ledgerWrite, 'ledger-store: a batch written, per ledger (one RocksDB batch per batch)'),
    row('grpc_overhead', { sum: grpc.sum - ledgerWrite.sum, count: grpc.count }, 'grpc − store_write'),
    row('store_state_write', histogramDelta(store.before, store.after, seriesKey(STORE_WRITE_HISTOGRAM, { write: 'state_changes' })), 'ledger-store: each PutStateChanges'),
  );
  for (const [service, scrapes] of [['sync', sync], ['ledger-store', store]] as const) {
    const busy = gaugeDelta(scrapes.before, scrapes.after, 'ledger_node_event_loop_busy_seconds');
    const idle = gaugeDelta(scrapes.before, scrapes.after, 'ledger_node_event_loop_idle_seconds');
    if (busy === undefined) continue;
    rows.push({ stage: `event_loop_busy.${service}`, seconds: busy, share: busy / wallSeconds, note: `${service}'s event loop busy (idle ${idle === undefined ? '—' : `${idle.toFixed(2)} s`})` });
  }
  return rows;
}

const columns = ['stage', 'seconds', 'share of sync wall', 'per ledger', 'ledgers', 'what'] as const;

function cells(rows: readonly StageRow[]): string[][] {
  return rows.map((row) => [
    row.stage,
    formatValue(row.seconds, 's'),
    formatValue(row.share, '%'),
    row.perLedgerSeconds === undefined ? '—' : formatValue(row.perLedgerSeconds * 1000, 'ms'),
    row.observations === undefined ? '—' : String(row.observations),
    row.note,
  ]);
}

/** The stage table for the terminal. */
export function stageTextTable(rows: readonly StageRow[]): string {
  return renderTextTable(columns, cells(rows));
}

/** The same in Markdown, for docs/internals.md. */
export function stageMarkdownTable(rows: readonly StageRow[]): string {
  return renderMarkdownTable(columns, cells(rows));
}
