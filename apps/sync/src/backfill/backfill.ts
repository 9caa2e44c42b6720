/**
 * Backfill: fills the ledgers below each stored range, newest gap first, down to the start ledger.
 * `threadCount` ledgers are fetched and verified concurrently; they are accepted strictly downward,
 * each only when its recomputed hash equals the parent_hash of its (already verified) child, and
 * written in descending batches so that a crash leaves every range contiguous. Restart needs no
 * state of its own: the store's complete ranges say what is left. Ledgers are stored without their
 * state changes: those are proven and added going down from the state download (state-prover.ts).
 */
import { ledgerWriteOf } from '../index/ledger-write';
import type { LedgerPipeline } from '../pipeline';
import type { Refusals } from '../refusals';
import { timedStage } from '../stage-timing';
import { LedgerWriteFailed } from '../store/stored-chain';
import { backoffDelayMs, sleep, WakeablePause } from '@ledger-node/upstream';
import { fetchVerifiedLedger } from '../verify/verified-fetch';
import { checkIsParentOf, checkParentLink, linkOf, type StoredLink, type VerificationFailure, type VerifiedLedger } from '@ledger-node/chain';
import { gapLedgerCount, planGaps, type BackfillGap } from './ranges';

export interface BackfillOptions extends LedgerPipeline {
  threadCount: number;
  /** Stored ledgers removed because they do not chain to a proven one are counted here. */
  refusals: Pick<Refusals, 'count'>;
  /** Oldest ledger to fill down to; undefined until known (the upstream's earliest, when not configured). */
  startLedger(): number | undefined;
  /** -ledger_history: the ledger-store keeps the newest N ledgers, so backfill goes no lower than the tip minus N plus one (0 or undefined: no bound). */
  ledgerHistory?: number;
  /** While true, nothing is fetched (the upstream's chain is not the stored one). */
  paused?(): boolean;
  /** The upstream lacks a ledger backfill asked for (its history may have moved up). */
  onNotFound?(ledgerIndex: number): void;
  /** Milliseconds between progress log lines. */
  progressIntervalMs?: number;
}

/** A batch is written once it holds this many ledgers or transactions, or has waited this long. */
const BATCH_MAX_LEDGERS = 64;
const BATCH_MAX_TRANSACTIONS = 4_000;
const BATCH_MAX_WAIT_MS = 250;
/** Batches sent to the store and not yet answered: one written while the next crosses (PutLedgersStream holds two). */
const WRITES_IN_FLIGHT = 2;

/** True when the promise settles (either way) within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return settled;
}

type Written = { write: ReturnType<typeof ledgerWriteOf>; link: StoredLink };

export class Backfill {
  private readonly abort = new AbortController();
  private readonly pause = new WakeablePause();
  private newerWork = false;
  private running: Promise<void> | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  /** Gaps whose bottom does not link to the stored range below; left for an operator. */
  private readonly unlinkable = new Set<number>();
  active = false;

  constructor(private readonly options: BackfillOptions) {}

  start(): void {
    this.running ??= this.run();
    this.progressTimer = setInterval(() => this.logProgress(), this.options.progressIntervalMs ?? 3_000);
    this.progressTimer.unref();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearInterval(this.progressTimer);
    this.pause.wake();
    await this.running;
  }

  /** New work (an anchor above a gap, a known start ledger): re-plan, preferring the newest gap. */
  wake(): void {
    this.newerWork = true;
    this.pause.wake();
  }

  /** The gaps left, newest first. */
  gaps(): BackfillGap[] {
    const configured = this.options.startLedger();
    if (configured === undefined) return [];
    const startLedger = Math.max(configured, this.lowestKept());
    return planGaps(this.options.chain.ranges.toArray(), startLedger).filter((gap) => !this.unlinkable.has(gap.bottom));
  }

  /**
   * The lowest ledger the ledger-store keeps: its retention floor as it last said, and with
   * -ledger_history the tip minus N plus one as the tip rises. What it would remove again at once
   * is not fetched.
   */
  private lowestKept(): number {
    const { chain, ledgerHistory } = this.options;
    const tip = chain.tip;
    const byHistory = ledgerHistory && tip !== undefined ? tip - ledgerHistory + 1 : 1;
    return Math.max(1, byHistory, chain.storeFloor ?? 1);
  }

  remainingLedgers(): number {
    return gapLedgerCount(this.gaps());
  }

  /** Ledgers backfilled per second over the last 10 s while backfill has work; 0 once it has none. */
  ledgersPerSecond(): number {
    return this.active ? this.options.ingest.rates.backfill.ledgersPerSecond() : 0;
  }

  /** Whole seconds until the `remaining` ledgers are backfilled at the current rate; undefined when unknown or done. */
  etaSeconds(remaining = this.remainingLedgers()): number | undefined {
    return this.active ? this.options.ingest.rates.backfill.etaSeconds(remaining) : undefined;
  }

  private logProgress(): void {
    if (!this.active) return;
    const remaining = this.remainingLedgers();
    const ledgersPerSecond = this.ledgersPerSecond();
    const etaSeconds = this.etaSeconds(remaining);
    // At info, the sync summary (sync-summary.ts) says the same with the live tip.
    this.options.logger.debug(
      { ledgersPerSecond: Number(ledgersPerSecond.toFixed(1)), remaining, etaSeconds: etaSeconds ?? null },
      `backfill: ${ledgersPerSecond.toFixed(1)} ledgers/s, ${remaining} remaining, ETA ${etaSeconds === undefined ? 'unknown' : `${etaSeconds} s`}`,
    );
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    let failedRounds = 0;
    while (!this.abort.signal.aborted) {
      this.newerWork = false;
      if (this.options.paused?.()) {
        await this.pause.wait(1_000);
        continue;
      }
      const gap = this.gaps()[0];
      if (!gap) {
        if (this.active) logger.info({ ranges: this.options.chain.ranges.toArray() }, 'backfill complete');
        this.active = false;
        // Done: its rate is 0 now, not an average of the last seconds' work fading out.
        this.options.ingest.rates.backfill.reset();
        await this.pause.wait(5_000);
        continue;
      }
      this.active = true;
      try {
        await this.fill(gap);
        failedRounds = 0;
      } catch (error) {
        if (this.abort.signal.aborted) break;
        const delayMs = backoffDelayMs(failedRounds++, 500, 15_000);
        // A store that refuses ledgers was said once by SyncHealth; anything else is logged each round.
        if (!(error instanceof LedgerWriteFailed)) {
          logger.error({ err: error, gap, delayMs }, `backfill of ledgers ${gap.bottom}-${gap.top} failed: ${(error as Error).message}; retrying in ${delayMs} ms`);
        }
        await sleep(delayMs, this.abort.signal);
      }
    }
  }

  /** Fills one gap from its top down, until done, preempted by newer work, or stopped. */
  private async fill(gap: BackfillGap): Promise<void> {
    const { chain, fetcher, failures, logger, profile, threadCount, health } = this.options;
    const child = await chain.link(gap.top + 1);
    if (!child) throw new Error(`ledger ${gap.top + 1} is in the complete ranges but not stored`);
    const below = gap.linksBelow ? await chain.link(gap.bottom - 1) : undefined;

    const fillAbort = new AbortController();
    const stopFill = () => fillAbort.abort();
    this.abort.signal.addEventListener('abort', stopFill, { once: true });
    const inFlight = new Map<number, Promise<VerifiedLedger>>();
    const fetchOne = (ledgerIndex: number, preferOtherEndpoint = false) => {
      const fetching = fetchVerifiedLedger(fetcher, ledgerIndex, failures, logger, {
        signal: fillAbort.signal,
        preferOtherEndpoint,
        onNotFound: this.options.onNotFound,
      });
      // Settled later in order; a rejection after an abort is expected and not a failure.
      fetching.catch(() => undefined);
      return fetching;
    };
    let nextToFetch = gap.top;
    const window = Math.max(1, threadCount);
    // The store's floor rises with the tip while a gap is filled: nothing below it is fetched or written.
    const bottom = () => Math.max(gap.bottom, this.lowestKept());
    let batch: Written[] = [];
    let batchTransactions = 0;
    let batchStartedAtMs = Date.now();
    // Batches go to the store in order on one stream (StoredChain.write inOrder), two at once: one
    // written while the next crosses to the store, and the batch after them verified meanwhile. A
    // failure surfaces at the next flush.
    const writing: Promise<void>[] = [];
    let writeError: unknown;
    const flush = async () => {
      while (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
      if (writeError !== undefined) throw writeError;
      const written = batch;
      batch = [];
      batchTransactions = 0;
      batchStartedAtMs = Date.now();
      writing.push(
        chain.write(written, { inOrder: true }).then(
          () => this.options.ingest.stored('backfill', written.length),
          (error: unknown) => {
            writeError ??= error;
          },
        ),
      );
    };

    // A stored ledger below the gap was removed: the gap reaches further down.
    let replan = false;
    let reachedBottom = false;
    try {
      let childLink: StoredLink = child;
      filling: for (let ledgerIndex = gap.top; ledgerIndex >= bottom(); ledgerIndex--) {
        while (nextToFetch >= bottom() && nextToFetch > ledgerIndex - window) {
          inFlight.set(nextToFetch, fetchOne(nextToFetch));
          nextToFetch--;
        }
        const next = inFlight.get(ledgerIndex)!;
        // Verified ledgers do not wait in memory for a slow or failing fetch below them.
        if (batch.length > 0 && !(await settlesWithin(next, BATCH_MAX_WAIT_MS))) await flush();
        let ledger = await next;
        inFlight.delete(ledgerIndex);
        for (let attempt = 0; ; attempt++) {
          const broken = timedStage('link', () => checkIsParentOf(ledger, childLink) ?? (below && this.checkLinksBelow(ledger, below)));
          if (!broken) break;
          failures.record(broken);
          if (batch.length > 0) await flush();
          if (broken.reason === 'parent_hash_mismatch') {
            // The chain down from a proven ledger is the network's, so the stored ledger below it is not.
            if (await this.removeUnproven(gap.bottom - 1)) {
              replan = true;
              break;
            }
            this.unlinkable.add(gap.bottom);
            break filling;
          }
          await sleep(backoffDelayMs(attempt, 500, 15_000), fillAbort.signal);
          if (fillAbort.signal.aborted) break filling;
          ledger = await fetchOne(ledgerIndex, true);
        }
        batch.push({ write: timedStage('index', () => ledgerWriteOf(ledger, profile, health)), link: linkOf(ledger) });
        // The gap's bottom, or the store's floor that rose above it: nothing below is wanted.
        if (ledgerIndex <= bottom()) reachedBottom = true;
        batchTransactions += ledger.transactions.length;
        childLink = linkOf(ledger);
        if (batch.length >= BATCH_MAX_LEDGERS || batchTransactions >= BATCH_MAX_TRANSACTIONS || Date.now() - batchStartedAtMs >= BATCH_MAX_WAIT_MS) {
          await flush();
        }
        if (replan || this.newerWork || this.abort.signal.aborted) break;
      }
      await flush();
      await Promise.all(writing);
      if (writeError !== undefined) throw writeError;
      // The gap is filled and linked to the stored ledger below it (or reaches the first ledger, or the store's floor).
      if (reachedBottom) health.linkedDownTo(gap.bottom);
    } finally {
      fillAbort.abort();
      this.abort.signal.removeEventListener('abort', stopFill);
    }
  }

  /**
   * Removes stored ledger `ledgerIndex`, which is not the parent its verified child names: that
   * child chains down from a proven ledger, so the stored one does not chain to any (stored before
   * ledgers were proven, or forged then). True once removed; false when the store could not remove
   * it, and backfill below it stops for an operator.
   */
  private async removeUnproven(ledgerIndex: number): Promise<boolean> {
    const { chain, logger, profile, health, refusals } = this.options;
    try {
      await chain.remove(ledgerIndex, (stored) => ledgerWriteOf(stored, profile, health));
    } catch (error) {
      logger.error({ err: error, ledgerIndex }, `stored ledger ${ledgerIndex} is not the parent of verified ledger ${ledgerIndex + 1} and could not be removed: ${(error as Error).message}; backfill below it stops`);
      return false;
    }
    refusals.count('stored_ledger_unproven');
    logger.error({ ledgerIndex }, `stored ledger ${ledgerIndex} is not the parent of verified ledger ${ledgerIndex + 1}: it does not chain to a proven ledger; removed, and fetched again`);
    return true;
  }

  /** The lowest ledger of a gap must name the stored ledger below it as its parent. */
  private checkLinksBelow(ledger: VerifiedLedger, below: StoredLink): VerificationFailure | undefined {
    return ledger.ledgerIndex === below.ledgerIndex + 1 ? checkParentLink(ledger, below) : undefined;
  }
}
