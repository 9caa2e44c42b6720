/**
 * What sync tells an operator at info level while ledgers arrive: one line every few seconds
 * instead of one per stored ledger (those are at debug), however fast they come:
 *
 *   at ledger 81234, 2 behind the upstream's 81236, following 1.0 ledgers/s; backfill: 51200 left, 850 ledgers/s, ETA 60 s
 *
 * The two rates are the period's, apart: "following" counts the ledgers stored at the tip as the
 * upstream validated them, "backfill" those filled in below it, so a node level with its upstream
 * says the upstream's pace however fast backfill runs, and backfill's rate is the period's own
 * (nothing of a finished backfill lingers in it). The ETA is in whole seconds at backfill's rate.
 * Nothing is logged for a period in which nothing changed.
 */
import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import type { IngestSource } from './ingest';

export const SYNC_SUMMARY_INTERVAL_MS = 5_000;

export type SummarisedStatus = Pick<GetSyncStatusResponse, 'currentLedgerIndex' | 'highestLedgerIndex' | 'lagLedgers' | 'completeRanges' | 'backfillRemainingLedgers'>;

/** Ledgers stored since start, by source (ingest.ts). */
export interface StoredTotals {
  total(source: IngestSource): number;
}

function storedLedgerCount(status: SummarisedStatus): number {
  return status.completeRanges.reduce((sum, range) => sum + range.last - range.first + 1, 0);
}

/** A rate as people read it: one decimal below 10, whole above. */
function rate(perSecond: number): string {
  return perSecond < 10 ? perSecond.toFixed(1) : Math.round(perSecond).toString();
}

interface Period {
  atMs: number;
  storedLedgers: number;
  tip: number;
  upstream: number;
  live: number;
  backfill: number;
}

export class SyncSummary {
  private last: Period;

  constructor(
    private readonly status: () => SummarisedStatus,
    private readonly stored: StoredTotals,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.last = this.read(status(), now());
  }

  private read(status: SummarisedStatus, atMs: number): Period {
    return {
      atMs,
      storedLedgers: storedLedgerCount(status),
      tip: status.currentLedgerIndex,
      upstream: status.highestLedgerIndex,
      live: this.stored.total('live'),
      backfill: this.stored.total('backfill'),
    };
  }

  /** Logs the line for the period since the previous one, unless nothing changed in it. */
  summarise(): void {
    const status = this.status();
    const period = this.read(status, this.now());
    const last = this.last;
    this.last = period;
    const changed =
      period.storedLedgers !== last.storedLedgers || period.tip !== last.tip || period.upstream !== last.upstream || period.live !== last.live || period.backfill !== last.backfill;
    if (!changed || period.tip === 0) return;
    const seconds = Math.max((period.atMs - last.atMs) / 1000, 0.001);
    const livePerSecond = Math.max(period.live - last.live, 0) / seconds;
    const backfillPerSecond = Math.max(period.backfill - last.backfill, 0) / seconds;

    const remaining = Number(status.backfillRemainingLedgers);
    const eta = remaining > 0 && backfillPerSecond > 0 ? Math.round(remaining / backfillPerSecond) : undefined;
    const position =
      status.lagLedgers === 0 ? `at ledger ${period.tip}, 0 behind the upstream` : `at ledger ${period.tip}, ${status.lagLedgers} behind the upstream's ${period.upstream}`;
    const backfill = remaining > 0 ? `; backfill: ${remaining} left, ${rate(backfillPerSecond)} ledgers/s, ETA ${eta === undefined ? 'unknown' : `${eta} s`}` : '';
    this.logger.info(
      {
        ledgerIndex: period.tip,
        upstreamLedgerIndex: period.upstream,
        lagLedgers: status.lagLedgers,
        liveLedgersPerSecond: Number(rate(livePerSecond)),
        // While backfill has work left.
        ...(remaining > 0 && {
          backfillRemainingLedgers: remaining,
          backfillLedgersPerSecond: Number(rate(backfillPerSecond)),
          backfillEtaSeconds: eta ?? null,
        }),
      },
      `${position}, following ${rate(livePerSecond)} ledgers/s${backfill}`,
    );
  }

  /** Summarises every `intervalMs` until the returned function is called. */
  start(intervalMs = SYNC_SUMMARY_INTERVAL_MS): () => void {
    const timer = setInterval(() => this.summarise(), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
