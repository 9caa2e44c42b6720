/**
 * The live follower: each validated ledger the upstream announces is fetched, verified against the
 * announced hash and stored. The next ledger after the stored tip must also name the tip as its
 * parent; a ledger further ahead becomes the new anchor, and the ledgers between are backfill's
 * job. Each ledger stored here is first proven the network's (trusted validations or agreeing
 * endpoints: anchor-proof.ts); ledgers below a proven one are proven by their hash links.
 */
import { ledgerWriteOf } from '../index/ledger-write';
import type { LedgerPipeline } from '../pipeline';
import type { Refusals } from '../refusals';
import type { StateProver } from '../state/state-prover';
import { timedStage } from '../stage-timing';
import { LedgerWriteFailed } from '../store/stored-chain';
import { backoffDelayMs, sleep } from '@ledger-node/upstream';
import type { ValidatedLedgerAnnouncement } from '../upstream/upstream';
import { fetchVerifiedLedger, LedgerAbandoned } from '../verify/verified-fetch';
import type { AnchorProof } from '../verify/anchor-proof';
import { checkExtendsTip, linkOf } from '@ledger-node/chain';

export interface LiveFollowerOptions extends LedgerPipeline {
  /** A ledger was stored above a gap: backfill has new work. */
  onAnchored(ledgerIndex: number, previousTip: number | undefined): void;
  /** Whether an announced ledger's hash is the network's (anchor-proof.ts): every ledger followed live is proven so. */
  anchorProof: Pick<AnchorProof, 'prove'>;
  /** A stored tip removed because a proven ledger does not descend from it, and each announced ledger that could not be proven, are counted here. */
  refusals: Pick<Refusals, 'count'>;
  /** Ledgers one subscription (`source`) announced in a row could not be proven: its endpoint should be left. */
  onUnprovable(count: number, source: string): void;
  /** Writes each ledger with its state changes when they can be proven at once. */
  stateProver: Pick<StateProver, 'provenWrite'>;
}

/** Announced ledgers in a row that cannot be proven before the endpoint announcing them is left. */
const UNPROVEN_BEFORE_LEAVING = 3;

/** Attempts per announced ledger before the follower moves on to a newer announcement. */
const ATTEMPTS_PER_ANNOUNCEMENT = 4;

export class LiveFollower {
  private readonly queued = new Map<number, ValidatedLedgerAnnouncement>();
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();
  /** Highest validated ledger the upstream announced, less the announcements it could not back with the ledger. */
  highestAnnounced = 0;
  /** Highest announced ledger fetched and verified. */
  private highestVerified = 0;
  /** Stores refused in a row, for the pause before the next try. */
  private writeFailures = 0;
  /** Announced ledgers in a row that could not be proven, and the endpoint that announced them. */
  private unprovenInARow = 0;
  private unprovenSource: string | undefined;
  /** Queued announcements at stored indexes that name another ledger than the stored one (ChainCheck's `contest`). */
  private readonly contested = new Set<number>();

  constructor(private readonly options: LiveFollowerOptions) {}

  /**
   * Queues an announced ledger above the stored tip; with `contest`, one at a stored index whose
   * stored ledger it contradicts: once proven, it replaces the stored one and the stored ledgers
   * linked above it.
   */
  announce(announcement: ValidatedLedgerAnnouncement, contest = false): void {
    this.highestAnnounced = Math.max(this.highestAnnounced, announcement.ledgerIndex);
    const tip = this.options.chain.tip;
    if (contest) this.contested.add(announcement.ledgerIndex);
    else if (tip !== undefined && announcement.ledgerIndex <= tip) return;
    this.queued.set(announcement.ledgerIndex, announcement);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      if (this.queued.size > 0 && !this.abort.signal.aborted) this.announce(this.queued.values().next().value!);
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queued.size > 0 && !this.abort.signal.aborted) {
      const next = Math.min(...this.queued.keys());
      const announcement = this.queued.get(next)!;
      this.queued.delete(next);
      const contest = this.contested.delete(next);
      const tip = this.options.chain.tip;
      if (tip !== undefined && next <= tip && !contest) continue;
      try {
        await this.follow(announcement, contest);
        this.writeFailures = 0;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        if (!(error instanceof LedgerWriteFailed)) {
          this.options.logger.error({ err: error, ledgerIndex: next }, `following ledger ${next} failed: ${(error as Error).message}`);
          continue;
        }
        // Said once by SyncHealth; the ledger is tried again (unless a newer one arrives) after a pause.
        if (!this.queued.has(next)) this.queued.set(next, announcement);
        await sleep(backoffDelayMs(this.writeFailures++, 500, 15_000), this.abort.signal);
      }
    }
  }

  private async follow(announcement: ValidatedLedgerAnnouncement, contest: boolean): Promise<void> {
    const { chain, logger, profile, failures, health, stateProver } = this.options;
    const { ledgerIndex, ledgerHash } = announcement;
    const startedAt = performance.now();
    let ledger;
    let notFound = false;
    try {
      ledger = await fetchVerifiedLedger(this.options.fetcher, ledgerIndex, failures, logger, {
        expectedHash: ledgerHash,
        signal: this.abort.signal,
        // A newer announcement makes this one a backfill ledger; do not hold the tip back for it.
        maxAttempts: ATTEMPTS_PER_ANNOUNCEMENT,
        onNotFound: () => (notFound = true),
      });
    } catch (error) {
      if (error instanceof LedgerAbandoned && notFound) {
        // Announced, yet the upstream does not hold it (a ledger 4 000 000 000): it counts for nothing.
        this.highestAnnounced = Math.max(this.highestVerified, ...this.queued.keys());
        logger.warn({ ledgerIndex }, `ledger ${ledgerIndex} was announced but is not served; ignored`);
        return;
      }
      if (error instanceof LedgerAbandoned && this.queued.size > 0) {
        logger.warn({ ledgerIndex }, `ledger ${ledgerIndex} left to backfill: ${error.message}`);
        return;
      }
      if (error instanceof LedgerAbandoned && !this.abort.signal.aborted) {
        // No newer ledger yet: keep trying this one.
        this.queued.set(ledgerIndex, announcement);
        if (contest) this.contested.add(ledgerIndex);
        return;
      }
      throw error;
    }
    this.highestVerified = Math.max(this.highestVerified, ledgerIndex);
    const fetchedAt = performance.now();
    // A self-consistent forgery verifies, even one naming the stored tip as its parent (a fork at the
    // tip): the hash itself must be proven the network's, for an anchor and for the next ledger alike.
    const proof = await this.options.anchorProof.prove(ledgerIndex, ledgerHash, ledger.header.parentHash, this.abort.signal);
    if (proof === undefined) {
      if (this.abort.signal.aborted) return;
      // A fork, a forgery, or validations withheld: refused like any unverified ledger. The queued
      // announcements below the newest are left to backfill (proven by the hash links from the next
      // anchor): waiting on each in turn would leave the tip further behind with every one.
      this.options.refusals.count('unproven_ledger');
      const newest = Math.max(...this.queued.keys());
      for (const queued of [...this.queued.keys()]) if (queued !== newest) this.queued.delete(queued);
      if (announcement.source !== this.unprovenSource) [this.unprovenSource, this.unprovenInARow] = [announcement.source, 0];
      if (++this.unprovenInARow >= UNPROVEN_BEFORE_LEAVING) {
        this.options.onUnprovable(this.unprovenInARow, announcement.source);
        this.unprovenInARow = 0;
      }
      return;
    }
    this.unprovenInARow = 0;
    const provenAt = performance.now();
    let writeStartedAt = provenAt;
    let indexedAt = provenAt;
    if (contest) await this.removeContested(ledgerIndex, ledgerHash);
    let tip = chain.tip;
    /** The stored parent is the one this proven ledger names. */
    let linkedBelow = false;
    if (chain.ranges.has(ledgerIndex - 1)) {
      const parentLink = await chain.link(ledgerIndex - 1);
      const broken = parentLink && timedStage('link', () => checkExtendsTip(ledger, parentLink));
      linkedBelow = parentLink !== undefined && !broken;
      if (broken) {
        // The proven ledger is the network's, so the stored parent it does not descend from is not.
        failures.record(broken);
        await chain.remove(ledgerIndex - 1, (stored) => ledgerWriteOf(stored, profile, health));
        this.options.refusals.count('stored_ledger_unproven');
        logger.error(
          { ledgerIndex, parent: ledgerIndex - 1 },
          `stored ledger ${ledgerIndex - 1} is not the parent of proven ledger ${ledgerIndex}: it does not chain to a proven ledger; removed, and fetched again`,
        );
        tip = chain.tip;
      }
    }
    // The validations that proved it are kept with it (the evidence a transaction's proof carries).
    await stateProver.provenWrite(ledger, async (stateChanges) => {
      writeStartedAt = performance.now();
      const write = { ...timedStage('index', () => ledgerWriteOf(ledger, profile, health, stateChanges)), evidence: proof.evidence };
      indexedAt = performance.now();
      await chain.write([{ write, link: linkOf(ledger) }]);
      this.options.ingest.stored('live', 1);
    });
    if (linkedBelow) health.linkedDownTo(ledgerIndex);
    // One line per ledger at debug; at info, the chain's arrival is summarised every few seconds (sync-summary.ts).
    const storedAt = performance.now();
    const ms = (from: number, to: number) => Math.round((to - from) * 10) / 10;
    logger.debug(
      { ledgerIndex, ledgerHash, txCount: ledger.transactions.length, fetchMs: ms(startedAt, fetchedAt), proofMs: ms(fetchedAt, provenAt), stateMs: ms(provenAt, writeStartedAt), indexMs: ms(writeStartedAt, indexedAt), writeMs: ms(indexedAt, storedAt) },
      `stored validated ledger ${ledgerIndex} (${ledger.transactions.length} transactions)`,
    );
    if (tip === undefined || ledgerIndex > tip + 1) {
      logger.info(
        { ledgerIndex, previousTip: tip, proof: proof.text },
        `anchored at validated ledger ${ledgerIndex} (${proof.text})${tip === undefined ? '' : `; ledgers ${tip + 1}-${ledgerIndex - 1} are backfilled`}`,
      );
      this.options.onAnchored(ledgerIndex, tip);
    } else if (contest) {
      // Below a stored tip: the ledgers the removal opened up are backfill's.
      this.options.onAnchored(ledgerIndex, undefined);
    }
  }

  /**
   * The proven ledger at a stored index is not the stored one: the stored ledger goes, with the
   * stored ledgers linked above it (they descend from it), top down.
   */
  private async removeContested(ledgerIndex: number, ledgerHash: string): Promise<void> {
    const { chain, logger, profile, health, refusals } = this.options;
    const stored = chain.ranges.has(ledgerIndex) ? await chain.link(ledgerIndex) : undefined;
    if (!stored || stored.ledgerHash.toString('hex').toUpperCase() === ledgerHash.toUpperCase()) return;
    const top = chain.ranges.rangeOf(ledgerIndex)!.last;
    for (let index = top; index >= ledgerIndex; index--) {
      await chain.remove(index, (ledger) => ledgerWriteOf(ledger, profile, health));
      refusals.count('stored_ledger_unproven');
    }
    logger.error(
      { ledgerIndex, storedHash: stored.ledgerHash.toString('hex').toUpperCase(), provenHash: ledgerHash.toUpperCase(), removedUpTo: top },
      `stored ledger ${ledgerIndex} is not the proven ledger at its index: stored ledgers ${ledgerIndex}-${top} (linked above it) removed, and the network's fetched`,
    );
  }
}
