/**
 * Fetch-and-verify: a ledger is fetched from the upstream and checked on its own (verifyLedger);
 * one that fails is logged, counted and fetched again with backoff, from another endpoint when
 * there is one. Nothing unverified leaves this module.
 */
import { UpstreamUnavailable } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import { Refusals } from '../refusals';
import { timedStage } from '../stage-timing';
import { backoffDelayMs, sleep, UpstreamRequestError, type BinaryLedgerResult } from '@ledger-node/upstream';
import { verifyLedger, type FetchedLedger, type VerificationFailure, type VerifiedLedger } from '@ledger-node/chain';

let lastTurn: Promise<void> = Promise.resolve();

/**
 * Resolves in an event-loop turn of its own, one caller per turn in call order. Verifying a ledger
 * takes milliseconds of this thread; the answers of several fetches arrive together, and verified
 * one after the other in one turn they would keep this thread from the sockets for tens of
 * milliseconds, a PutLedgers batch in flight (megabytes) among them. One verification per turn
 * lets its sockets be served between verifications.
 */
function ownTurn(): Promise<void> {
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastTurn = turn;
  return turn;
}

export interface LedgerFetcher {
  fetchLedger(ledgerIndex: number, options?: { preferOtherEndpoint?: boolean }): Promise<BinaryLedgerResult>;
}

/** The binary `ledger` answer in the shape verifyLedger reads. */
export function fetchedLedgerOf(result: BinaryLedgerResult, requestedIndex: number): FetchedLedger {
  return {
    ledgerIndex: requestedIndex,
    headerBlob: result.ledger.ledger_data,
    ledgerHash: result.ledger_hash,
    transactions: result.ledger.transactions.map((tx) => ({
      txBlob: tx.tx_blob,
      metaBlob: (tx.meta ?? tx.meta_blob)!,
      ...(tx.hash !== undefined ? { hash: tx.hash } : {}),
    })),
  };
}

export class VerificationCounter {
  count = 0n;
  last: VerificationFailure | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly refusals = new Refusals(),
  ) {}

  /** Logs and counts a ledger that failed verification; it is never stored. */
  record(failure: VerificationFailure): void {
    this.count++;
    this.refusals.count(failure.reason);
    this.last = failure;
    this.logger.warn(
      { ledgerIndex: failure.ledgerIndex, reason: failure.reason, expected: failure.expected, actual: failure.actual, verificationFailureCount: this.count.toString() },
      `ledger ${failure.ledgerIndex} failed verification (${failure.reason}): ${failure.message}; not stored, fetching it again`,
    );
  }
}

export interface VerifiedFetchOptions {
  /** The hash the ledger must have, when known (an announced ledger, or the first of a backfill gap). */
  expectedHash?: string;
  /** Stops the retries; the promise then rejects. */
  signal: AbortSignal;
  /** Prefer another endpoint from the first attempt (a refetch after a failed link check). */
  preferOtherEndpoint?: boolean;
  /** Called when the upstream says it does not hold the ledger (rippled lgrNotFound). */
  onNotFound?(ledgerIndex: number): void;
  /** Gives up after this many failed attempts (default: never). */
  maxAttempts?: number;
}

export class LedgerAbandoned extends Error {
  constructor(ledgerIndex: number, reason: string) {
    super(`ledger ${ledgerIndex}: ${reason}`);
    this.name = 'LedgerAbandoned';
  }
}

/** Fetches `ledgerIndex` until a copy passes verifyLedger; rejects only when aborted or out of attempts. */
export async function fetchVerifiedLedger(
  fetcher: LedgerFetcher,
  ledgerIndex: number,
  counter: VerificationCounter,
  logger: Logger,
  options: VerifiedFetchOptions,
): Promise<VerifiedLedger> {
  let preferOtherEndpoint = options.preferOtherEndpoint ?? false;
  for (let attempt = 0; ; attempt++) {
    if (options.signal.aborted) throw new LedgerAbandoned(ledgerIndex, 'stopped');
    try {
      const answer = await fetcher.fetchLedger(ledgerIndex, { preferOtherEndpoint });
      await ownTurn();
      const verification = timedStage('verify', () => verifyLedger(fetchedLedgerOf(answer, ledgerIndex), options.expectedHash));
      if (verification.ok) return verification.ledger;
      counter.record(verification.failure);
      preferOtherEndpoint = true;
    } catch (error) {
      if (error instanceof UpstreamRequestError && error.errorCode === 'lgrNotFound') options.onNotFound?.(ledgerIndex);
      logger.debug({ err: error, ledgerIndex, attempt }, `fetching ledger ${ledgerIndex} failed: ${(error as Error).message}`);
      // No answer in time: the next attempt asks another endpoint at once (one that answers is not made to wait).
      if (error instanceof UpstreamUnavailable && !preferOtherEndpoint) {
        preferOtherEndpoint = true;
        continue;
      }
    }
    if (options.maxAttempts !== undefined && attempt + 1 >= options.maxAttempts) {
      throw new LedgerAbandoned(ledgerIndex, `no verified copy after ${attempt + 1} attempts`);
    }
    await sleep(backoffDelayMs(attempt, 250, 15_000), options.signal);
  }
}
