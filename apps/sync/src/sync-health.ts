/**
 * What went wrong after verification, told once and kept for the status: transactions whose index
 * data could not be derived (their ledger is stored whole all the same: its bytes are proven), and
 * a stop, when a verified ledger cannot be stored at all. A stop is logged once, shown in the
 * status, /readyz and a metric, retried quietly, and cleared by the next ledger stored.
 */
import type { Logger } from '@ledger-node/telemetry';
import { counter } from '@ledger-node/telemetry';
import { Refusals } from './refusals';

export interface IndexFailure {
  ledgerIndex: number;
  /** Hash of the transaction, uppercase hex; undefined when the ledger's state changes failed. */
  transactionHash?: string;
  reason: string;
}

export interface SyncStop {
  ledgerIndex: number;
  reason: string;
}

/** Distinct failures remembered so that each is logged once (a refetched ledger fails the same way). */
const REMEMBERED_FAILURES = 1024;

const indexFailuresTotal = counter('ledger_node_sync_index_failures_total', 'Transactions of stored ledgers whose index data (sender, affected accounts, type, result) or state changes could not be derived');

export class SyncHealth {
  indexFailureCount = 0n;
  lastIndexFailure: IndexFailure | undefined;
  stop: SyncStop | undefined;
  private readonly told = new Set<string>();

  constructor(
    private readonly logger: Logger,
    private readonly refusals = new Refusals(),
  ) {}

  /** One transaction (or one ledger's state changes) could not be indexed; its ledger is stored anyway. */
  indexFailed(failure: IndexFailure): void {
    const key = `${failure.ledgerIndex}:${failure.transactionHash ?? 'state'}`;
    if (this.told.has(key)) return;
    if (this.told.size >= REMEMBERED_FAILURES) this.told.delete(this.told.values().next().value!);
    this.told.add(key);
    this.indexFailureCount++;
    indexFailuresTotal.inc();
    this.lastIndexFailure = failure;
    const what = failure.transactionHash === undefined ? 'its state changes' : `transaction ${failure.transactionHash}`;
    this.logger.error(
      { ledgerIndex: failure.ledgerIndex, transactionHash: failure.transactionHash, reason: failure.reason },
      `ledger ${failure.ledgerIndex}: ${what} could not be indexed (${failure.reason}); the ledger is stored whole, without that index data`,
    );
  }

  /** A verified ledger could not be stored: said once per ledger and reason. */
  stopped(ledgerIndex: number, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    // Counted once per stop: the retries of the same ledger for the same reason are one refusal.
    if (this.stop?.ledgerIndex === ledgerIndex && this.stop.reason === reason) return;
    this.refusals.count('store_refused');
    this.stop = { ledgerIndex, reason };
    this.logger.error({ ledgerIndex, reason }, `sync stopped at ledger ${ledgerIndex}: ${reason}; retrying`);
  }

  /** A ledger was stored: a stop is over. */
  stored(): void {
    if (this.stop === undefined) return;
    this.logger.info({ ledgerIndex: this.stop.ledgerIndex }, `sync resumed: ledgers are stored again`);
    this.stop = undefined;
  }

  /** `stopped at ledger N: <reason>`, or undefined while ledgers are stored. */
  stopText(): string | undefined {
    return (
      this.contradiction ??
      (this.stop && `stopped at ledger ${this.stop.ledgerIndex}: ${this.stop.reason}`) ??
      (this.repairing !== undefined
        ? `stored ledger ${this.repairing} was not the network's: removing the stored ledgers below it that chain to it, and fetching the network's`
        : undefined)
    );
  }

  /** The lowest stored ledger removed because a proven ledger contradicts it, until the chain below it is linked again. */
  repairing: number | undefined;

  /** A stored ledger was removed: a proven ledger does not descend from it (those below it may be as false). */
  removedUnproven(ledgerIndex: number): void {
    this.repairing = Math.min(this.repairing ?? ledgerIndex, ledgerIndex);
  }

  /** Verified ledgers are stored from a proven one down to `ledgerIndex`, linked to the stored ledger below it (or with none below). */
  linkedDownTo(ledgerIndex: number): void {
    if (this.repairing === undefined || ledgerIndex > this.repairing) return;
    this.logger.info({ ledgerIndex: this.repairing }, `the stored chain below ledger ${this.repairing} is linked to the proven ledgers again`);
    this.repairing = undefined;
  }

  /** Why sync follows nothing from its upstream: the upstream's chain is not the stored one. */
  contradiction: string | undefined;

  /** The upstream names another ledger than the stored one at an index: said once, and sync stops following it. */
  contradicted(text: string): void {
    // The first contradiction is the one said: later ledgers of the same other chain add nothing.
    if (this.contradiction !== undefined) return;
    this.refusals.count('foreign_chain');
    this.contradiction = text;
    this.logger.error({}, `${text}; sync stores nothing from this upstream (point -endpoint at the chain this store holds, or give it a new -data_dir)`);
  }

  /** The upstream's validated ledgers agree with the store again. */
  agreed(): void {
    if (this.contradiction === undefined) return;
    this.logger.info({}, "the upstream's chain is the stored one again: sync resumes");
    this.contradiction = undefined;
  }
}
