/**
 * Ledgers sync stores, by where they come from: `live`, the ledgers the follower stores at the tip
 * as the upstream validates them, and `backfill`, the history filled in below. Each is counted in
 * ledger_node_sync_ledgers_stored_total{source} (Prometheus computes rates from it) and kept here
 * as a total, which the summary line reads, and as a rate over the last 10 s, which the status
 * reports. The two never mix: a node level with its upstream follows at the upstream's pace
 * however fast backfill runs below it.
 */
import { counter } from '@ledger-node/telemetry';

export type IngestSource = 'live' | 'backfill';

export const INGEST_SOURCES: readonly IngestSource[] = ['live', 'backfill'];

const storedTotal = counter(
  'ledger_node_sync_ledgers_stored_total',
  'Ledgers sync verified and stored, by source: live (followed at the tip) or backfill (history below it); rate() of it is ledgers stored per second',
  ['source'],
);

/** Ledgers stored per second over a sliding window; 0 as soon as `reset` says the work ended. */
export class LedgerRate {
  private samples: { atMs: number; ledgers: number }[] = [];

  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `ledgers` were stored just now. */
  record(ledgers: number): void {
    const atMs = this.now();
    this.samples.push({ atMs, ledgers });
    this.samples = this.samples.filter((sample) => sample.atMs > atMs - this.windowMs);
  }

  /** The work ended (backfill has nothing left): the rate is 0 from now on, not a decaying average of what was. */
  reset(): void {
    this.samples = [];
  }

  ledgersPerSecond(): number {
    const nowMs = this.now();
    const recent = this.samples.filter((sample) => sample.atMs > nowMs - this.windowMs);
    if (recent.length === 0) return 0;
    const total = recent.reduce((sum, sample) => sum + sample.ledgers, 0);
    // Over the window, or over the time since the first sample when the work started recently.
    const spanMs = Math.max(1_000, Math.min(this.windowMs, nowMs - recent[0]!.atMs));
    return (total * 1000) / spanMs;
  }

  /** Whole seconds until `remaining` ledgers are stored at this rate; undefined with no rate yet or nothing left. */
  etaSeconds(remaining: number): number | undefined {
    const speed = this.ledgersPerSecond();
    if (remaining <= 0 || speed <= 0) return undefined;
    return Math.round(remaining / speed);
  }
}

/** What sync stored, by source. */
export class IngestCounts {
  private readonly totals: Record<IngestSource, number> = { live: 0, backfill: 0 };
  readonly rates: Readonly<Record<IngestSource, LedgerRate>>;

  constructor(now: () => number = Date.now) {
    this.rates = { live: new LedgerRate(10_000, now), backfill: new LedgerRate(10_000, now) };
    // Both series exist from the start, so that rate() sees the first ledgers of each.
    for (const source of INGEST_SOURCES) storedTotal.inc({ source }, 0);
  }

  /** `ledgers` from `source` were written to the store. */
  stored(source: IngestSource, ledgers: number): void {
    if (ledgers <= 0) return;
    this.totals[source] += ledgers;
    this.rates[source].record(ledgers);
    storedTotal.inc({ source }, ledgers);
  }

  /** Ledgers `source` stored since this process started. */
  total(source: IngestSource): number {
    return this.totals[source];
  }
}
