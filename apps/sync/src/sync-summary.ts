/**
 * What sync tells an operator at info level while ledgers arrive: one line every few seconds
 * instead of one per stored ledger (those are at debug), however fast they come:
 *
 *   at ledger 81234, 2 behind the upstream's 81236, 3.4 ledgers/s; backfill: 51200 left, 850 ledgers/s, ETA 60 s
 *
 * Nothing is logged for a period in which nothing changed.
 */
import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';

export const SYNC_SUMMARY_INTERVAL_MS = 5_000;

export type SummarisedStatus = Pick<
  GetSyncStatusResponse,
  'currentLedgerIndex' | 'highestLedgerIndex' | 'lagLedgers' | 'completeRanges' | 'backfillRemainingLedgers' | 'backfillLedgersPerSecond' | 'backfillEtaSeconds'
>;

function storedLedgerCount(status: SummarisedStatus): number {
  return status.completeRanges.reduce((sum, range) => sum + range.last - range.first + 1, 0);
}

/** A rate as people read it: one decimal below 10, whole above. */
function rate(perSecond: number): string {
  return perSecond < 10 ? perSecond.toFixed(1) : Math.round(perSecond).toString();
}

export class SyncSummary {
  private last: { atMs: number; storedLedgers: number; tip: number; upstream: number };

  constructor(
    private readonly status: () => SummarisedStatus,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const initial = status();
    this.last = { atMs: now(), storedLedgers: storedLedgerCount(initial), tip: initial.currentLedgerIndex, upstream: initial.highestLedgerIndex };
  }

  /** Logs the line for the period since the previous one, unless nothing changed in it. */
  summarise(): void {
    const status = this.status();
    const atMs = this.now();
    const storedLedgers = storedLedgerCount(status);
    const tip = status.currentLedgerIndex;
    const upstream = status.highestLedgerIndex;
    const changed = storedLedgers !== this.last.storedLedgers || tip !== this.last.tip || upstream !== this.last.upstream;
    const seconds = Math.max((atMs - this.last.atMs) / 1000, 0.001);
    const ledgersPerSecond = Math.max(storedLedgers - this.last.storedLedgers, 0) / seconds;
    this.last = { atMs, storedLedgers, tip, upstream };
    if (!changed || tip === 0) return;

    const remaining = Number(status.backfillRemainingLedgers);
    const eta = status.backfillEtaSeconds === undefined || !Number.isFinite(status.backfillEtaSeconds) ? undefined : Math.round(status.backfillEtaSeconds);
    const position =
      status.lagLedgers === 0 ? `at ledger ${tip}, 0 behind the upstream` : `at ledger ${tip}, ${status.lagLedgers} behind the upstream's ${upstream}`;
    const backfill = remaining > 0 ? `; backfill: ${remaining} left, ${rate(status.backfillLedgersPerSecond)} ledgers/s, ETA ${eta === undefined ? 'unknown' : `${eta} s`}` : '';
    this.logger.info(
      {
        ledgerIndex: tip,
        upstreamLedgerIndex: upstream,
        lagLedgers: status.lagLedgers,
        ledgersPerSecond: Number(rate(ledgersPerSecond)),
        // While backfill has work left.
        ...(remaining > 0 && {
          backfillRemainingLedgers: remaining,
          backfillLedgersPerSecond: Number(rate(status.backfillLedgersPerSecond)),
          backfillEtaSeconds: eta ?? null,
        }),
      },
      `${position}, ${rate(ledgersPerSecond)} ledgers/s${backfill}`,
    );
  }

  /** Summarises every `intervalMs` until the returned function is called. */
  start(intervalMs = SYNC_SUMMARY_INTERVAL_MS): () => void {
    const timer = setInterval(() => this.summarise(), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
