/**
 * One subscriber's way through the ledgers: every stored ledger after its starting point, each
 * exactly once and in order. A feed at the follower's pace takes each new ledger as the follower
 * publishes it; one behind (a client resuming from its last ledger, or one the follower outran)
 * reads the ledgers it lacks from the store, one at a time and at the pace its client reads, then
 * takes the published ones again. The switch happens where nothing can come between the check and
 * the change (one synchronous step), so no ledger is skipped and none is sent twice: a ledger is
 * delivered only when its index is one above the last delivered, or after a gap the store reports.
 * Each ledger a catch-up reads waits for its turn in the node-wide catch-up budget first
 * (catch-up.ts): what the client is sent, if anything, does not pace the reads.
 */
import type { Logger } from '@ledger-node/telemetry';
import type { CatchUpTicket } from './catch-up';

/** Called by the follower for each new ledger, with the ledger when it read it for its feeds. */
export type PublishListener<L> = (ledgerIndex: number, ledger: L | undefined) => void;

/** What a feed needs of the follower (follower.ts; an in-memory chain in the tests). */
export interface FollowedLedgers<L extends { readonly ledgerIndex: number }> {
  /** The newest ledger published, undefined before the follower knows the store's newest. */
  readonly lastPublished: number | undefined;
  /** Registers a listener for each ledger published; returns the function that ends it. */
  follow(listener: PublishListener<L>): () => void;
  /** A stored ledger; undefined when the store does not hold it. */
  ledger(ledgerIndex: number): Promise<L | undefined>;
  /** The first stored ledger above `ledgerIndex`, undefined when there is none. */
  nextStoredAfter(ledgerIndex: number): Promise<number | undefined>;
  /** Resolves when a catch-up may read `ledgerIndex` (the node-wide budget), or at once when `signal` aborts. */
  waitToRead(ledgerIndex: number, signal: AbortSignal): Promise<void>;
}

export interface FeedOptions<L> {
  /** Sends the ledger's messages (synchronously). */
  deliver(ledger: L): void;
  /** Resolves when the client has read enough of what was sent to take more. */
  drained(): Promise<void>;
  logger: Logger;
  /** Waits between attempts at a store read that failed. */
  retryDelayMs?: number;
  /** The resume this feed was admitted for: released once the feed has caught up, or stops. */
  resume?: CatchUpTicket;
}

const MAX_RETRY_DELAY_MS = 5_000;

export class Feed<L extends { readonly ledgerIndex: number }> {
  private lastDelivered: number | undefined;
  private catchingUp = false;
  private stopped = false;
  private unfollow: (() => void) | undefined;
  private readonly stopping = new AbortController();
  private resume: CatchUpTicket | undefined;

  constructor(
    private readonly ledgers: FollowedLedgers<L>,
    private readonly options: FeedOptions<L>,
  ) {
    this.resume = options.resume;
  }

  /**
   * Starts after `lastSeen`: every stored ledger above it is delivered. Undefined starts after the
   * follower's newest ledger.
   */
  start(lastSeen: number | undefined): void {
    if (this.stopped) return;
    this.lastDelivered = lastSeen ?? this.ledgers.lastPublished;
    this.unfollow = this.ledgers.follow((ledgerIndex, ledger) => this.onPublished(ledgerIndex, ledger));
    this.catchUpIfBehind();
    if (!this.catchingUp) this.releaseResume();
  }

  stop(): void {
    this.stopped = true;
    this.stopping.abort();
    this.unfollow?.();
    this.releaseResume();
  }

  /** The resume no longer counts against its client: caught up, or stopped. */
  private releaseResume(): void {
    this.resume?.release();
    this.resume = undefined;
  }

  private onPublished(ledgerIndex: number, ledger: L | undefined): void {
    if (this.stopped || this.catchingUp) return;
    if (this.lastDelivered === undefined || ledgerIndex === this.lastDelivered + 1) {
      if (ledger) return this.deliver(ledger);
      this.lastDelivered = ledgerIndex - 1;
    } else if (ledgerIndex <= this.lastDelivered) {
      return;
    }
    // A ledger the follower did not read, or one past a ledger this feed has not had.
    this.catchUpIfBehind();
  }

  private deliver(ledger: L): void {
    this.lastDelivered = ledger.ledgerIndex;
    this.options.deliver(ledger);
  }

  private isBehind(): boolean {
    const published = this.ledgers.lastPublished;
    if (published === undefined || this.lastDelivered === undefined) return false;
    return this.lastDelivered < published;
  }

  private catchUpIfBehind(): void {
    if (this.stopped || this.catchingUp || !this.isBehind()) return;
    this.catchingUp = true;
    void this.catchUp();
  }

  /** Reads and delivers the ledgers after the last delivered up to the follower's newest. */
  private async catchUp(): Promise<void> {
    let failures = 0;
    // The check and the end of catching up are one synchronous step: a ledger published after it
    // reaches onPublished with catchingUp false.
    while (!this.stopped && this.isBehind()) {
      const next = this.lastDelivered! + 1;
      try {
        await this.ledgers.waitToRead(next, this.stopping.signal);
        if (this.stopped) break;
        const ledger = await this.ledgers.ledger(next);
        if (this.stopped) break;
        if (ledger) {
          this.deliver(ledger);
          failures = 0;
          await this.options.drained();
          continue;
        }
        await this.skipGap(next);
        failures = 0;
      } catch (error) {
        failures++;
        const delayMs = Math.min((this.options.retryDelayMs ?? 250) * 2 ** (failures - 1), MAX_RETRY_DELAY_MS);
        this.options.logger.warn({ err: error, ledgerIndex: next, retryInMs: delayMs }, 'stream: cannot read a ledger for a subscriber; trying again');
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
    this.catchingUp = false;
    this.releaseResume();
  }

  /** A ledger the store does not hold (a gap sync has not filled yet): the feed goes on at the next stored one. */
  private async skipGap(missing: number): Promise<void> {
    const nextStored = await this.ledgers.nextStoredAfter(missing - 1);
    const published = this.ledgers.lastPublished ?? missing;
    const resumeAt = nextStored === undefined ? published + 1 : Math.min(nextStored, published + 1);
    if (this.stopped) return;
    if (resumeAt <= missing) throw new Error(`ledger ${missing} is stored but could not be read`);
    this.options.logger.info({ from: missing, to: resumeAt - 1 }, 'stream: ledgers not stored are skipped');
    this.lastDelivered = resumeAt - 1;
  }
}
