import type { LedgerStoreServiceService, WatchLedgersResponse } from '@ledger-node/contracts';
import { followStream, type Client } from '@ledger-node/grpc';
import { DependencyLog, type Logger } from '@ledger-node/telemetry';
import type { SubmissionBook } from './book';

/** Ledgers a submission without LastLedgerSequence is watched for before it counts as expired. */
export const UNBOUNDED_WATCH_LEDGERS = 256;

/**
 * Learns the fate of open submissions (pending or held) from the synced ledgers (ledger-store's
 * WatchLedgers stream), not by polling the upstream: VALIDATED when a stored ledger holds the
 * transaction, EXPIRED when a stored ledger is past its LastLedgerSequence without it (or, with
 * none, UNBOUNDED_WATCH_LEDGERS past the ledger it was submitted in). Only an open record moves:
 * a validated one stays validated.
 */
export class Tracker {
  private follower: { stop(): void } | undefined;
  private readonly ledgerStoreLog: DependencyLog;

  constructor(
    private readonly book: SubmissionBook,
    private readonly ledgerStore: Client<typeof LedgerStoreServiceService>,
    private readonly logger: Logger,
  ) {
    this.ledgerStoreLog = new DependencyLog(logger, 'ledger-store');
  }

  start(): void {
    const { book, ledgerStore } = this;
    this.follower = followStream({
      open(signal) {
        const open = book.open();
        // After a restart, replay the stored ledgers since the oldest open submission first.
        const fromLedgerIndex = open.length > 0 ? Math.min(...open.map((record) => record.openLedgerIndex)) : undefined;
        return ledgerStore.watchLedgers({ fromLedgerIndex, includeBackfill: false }, { signal });
      },
      onMessage: (ledger) => {
        this.ledgerStoreLog.answered();
        this.apply(ledger);
      },
      onInterrupted: (error, retryInMs) => {
        const reason = error instanceof Error ? error.message : 'the stream ended';
        this.ledgerStoreLog.failed(`ledger stream from ledger-store interrupted: ${reason}; retrying in ${retryInMs} ms`, { reason, retryInMs });
      },
    });
  }

  stop(): void {
    this.follower?.stop();
  }

  /** Applies one stored ledger to the open submissions. */
  apply(ledger: WatchLedgersResponse): void {
    const outcomes = new Map(ledger.transactions.map((tx) => [tx.hash.toString('hex').toUpperCase(), tx.engineResult]));
    for (const record of this.book.open()) {
      const engineResult = outcomes.get(record.hash);
      if (engineResult !== undefined) {
        Object.assign(record, { state: 'validated', engineResult, ledgerIndex: ledger.ledgerIndex });
        this.book.save(record);
        this.logger.info({ hash: record.hash, ledgerIndex: ledger.ledgerIndex, engineResult }, 'transaction validated');
      } else if (ledger.ledgerIndex > (record.lastLedgerSequence > 0 ? record.lastLedgerSequence : record.openLedgerIndex + UNBOUNDED_WATCH_LEDGERS)) {
        record.state = 'expired';
        this.book.save(record);
        this.logger.info({ hash: record.hash, lastLedgerSequence: record.lastLedgerSequence }, 'transaction expired');
      }
    }
  }
}
