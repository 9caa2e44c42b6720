/**
 * The one follower of the store that feeds every stream subscriber of this facade, whatever its
 * API: a single ledger-store WatchLedgers stream, each new ledger read once with its full
 * transactions (GetLedger) and handed to every feed. After an interruption the stream is opened
 * again from the ledger after the last one published (WatchLedgers `from_ledger_index`: the stored
 * ones first, then live), so the follower itself never skips a ledger the store holds. Each ledger
 * is read with the fees in force at it (one point read of its FeeSettings object).
 */
import type { ChainProfile } from '@ledger-node/chain';
import { followStream } from '@ledger-node/grpc';
import { formatRanges, type LedgerRange } from '@ledger-node/rippled-api';
import type { Logger } from '@ledger-node/telemetry';
import type { Clients } from '../clients';
import type { Queries } from '../queries/queries';
import { feesAt } from '../rippled/methods/fees';
import { StateView } from '../rippled/methods/state';
import { countResumeRefusal, resumeRefusal, type CatchUpLimits, type CatchUpTicket } from './catch-up';
import type { StreamApi } from './connection';
import type { FollowedLedgers, PublishListener } from './feed';
import { StreamLedger } from './stream-ledger';

/** Ledgers kept after publication: a subscriber a few ledgers behind reads them from memory. */
const RECENT_LEDGERS = 32;
/** How long the store's ranges are reused for the ledger stream's `validated_ledgers`. */
const RANGES_TTL_MS = 1_000;

export class LedgerFollower implements FollowedLedgers<StreamLedger> {
  private published: number | undefined;
  private readonly listeners = new Set<PublishListener<StreamLedger>>();
  private readonly recent = new Map<number, StreamLedger>();
  private readonly loading = new Map<number, Promise<StreamLedger | undefined>>();
  private ranges: { readAtMs: number; ranges: LedgerRange[] } | undefined;
  private stream: { stop(): void } | undefined;

  constructor(
    private readonly clients: Clients,
    private readonly queries: Queries,
    private readonly profile: ChainProfile,
    private readonly logger: Logger,
    private readonly limits: CatchUpLimits,
  ) {}

  /** The newest ledger handed to the feeds (or, before the first, the store's newest when the stream opened). */
  get lastPublished(): number | undefined {
    return this.published;
  }

  start(): void {
    const { ledgerStore } = this.clients;
    const follower = this;
    this.stream = followStream({
      async *open(signal) {
        if (follower.published === undefined) {
          const { highestLedgerIndex } = await ledgerStore.getStatus({}, { signal });
          follower.published ??= highestLedgerIndex;
        }
        const fromLedgerIndex = (follower.published ?? 0) + 1;
        for await (const event of ledgerStore.watchLedgers({ fromLedgerIndex, includeBackfill: false }, { signal })) {
          if (follower.published !== undefined && event.ledgerIndex <= follower.published) continue;
          // Read only for someone: with no subscriber the follower just keeps its place.
          const ledger = follower.listeners.size > 0 ? await follower.ledger(event.ledgerIndex) : undefined;
          yield { ledgerIndex: event.ledgerIndex, ledger };
        }
      },
      onMessage: ({ ledgerIndex, ledger }) => this.publish(ledgerIndex, ledger),
      onInterrupted: (error, retryInMs) => this.logger.debug({ err: error, retryInMs }, 'stream follower: the ledger stream was interrupted; reopening it after the last ledger published'),
    });
  }

  stop(): void {
    this.stream?.stop();
    this.listeners.clear();
  }

  follow(listener: PublishListener<StreamLedger>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A stored ledger with its transactions, from memory when recent; undefined when it is not stored. */
  ledger(ledgerIndex: number): Promise<StreamLedger | undefined> {
    const recent = this.recent.get(ledgerIndex);
    if (recent) return Promise.resolve(recent);
    let pending = this.loading.get(ledgerIndex);
    if (!pending) {
      pending = this.read(ledgerIndex).finally(() => this.loading.delete(ledgerIndex));
      this.loading.set(ledgerIndex, pending);
    }
    return pending;
  }

  /** The newest ledger a new subscriber starts after: the last published, else the store's newest. */
  async current(): Promise<StreamLedger | undefined> {
    const ledgerIndex = this.published ?? (await this.queries.status()).highestLedgerIndex;
    return ledgerIndex === undefined ? undefined : this.ledger(ledgerIndex);
  }

  async nextStoredAfter(ledgerIndex: number): Promise<number | undefined> {
    const ranges = await this.storedRanges(0, true);
    const range = ranges.find((candidate) => candidate.last > ledgerIndex);
    return range ? Math.max(range.first, ledgerIndex + 1) : undefined;
  }

  /**
   * Refuses, before any ledger is read, a resume after `lastSeen` that the store cannot serve
   * without a gap or that lies more than -max_resume_ledgers behind the newest stored ledger
   * (catch-up.ts), in the terms of the API asking.
   */
  async checkResume(lastSeen: number, api: StreamApi): Promise<void> {
    const refusal = resumeRefusal(lastSeen, await this.storedRanges(0, true), this.limits.maxResumeLedgers, api);
    if (!refusal) return;
    countResumeRefusal(api, refusal.reason);
    throw refusal.error;
  }

  /** Admits one more resume of `client` (its address) to catch up, or refuses it past the client's bound. */
  admitResume(client: string, api: StreamApi): CatchUpTicket {
    return this.limits.clients.admit(client, api);
  }

  /** Free for a ledger held in memory; a store read waits for its token of the node-wide catch-up budget. */
  waitToRead(ledgerIndex: number, signal: AbortSignal): Promise<void> {
    if (this.recent.has(ledgerIndex)) return Promise.resolve();
    return this.limits.budget.take(signal);
  }

  private publish(ledgerIndex: number, ledger: StreamLedger | undefined): void {
    if (this.published !== undefined && ledgerIndex <= this.published) return;
    this.published = ledgerIndex;
    if (ledger) this.remember(ledger);
    for (const listener of [...this.listeners]) listener(ledgerIndex, ledger);
  }

  private remember(ledger: StreamLedger): void {
    this.recent.set(ledger.ledgerIndex, ledger);
    for (const ledgerIndex of this.recent.keys()) {
      if (this.recent.size <= RECENT_LEDGERS) break;
      this.recent.delete(ledgerIndex);
    }
  }

  private async read(ledgerIndex: number): Promise<StreamLedger | undefined> {
    // The same read as the hot set's of a ledger just stored (Queries.wholeLedger: one read for both).
    const record = await this.queries.wholeLedger(ledgerIndex);
    if (!record) return undefined;
    const [ranges, fees] = await Promise.all([
      this.storedRanges(ledgerIndex),
      feesAt(new StateView({ queries: this.queries, profile: this.profile }, ledgerIndex), this.profile),
    ]);
    return new StreamLedger(record, this.profile, formatRanges(ranges), fees);
  }

  /** The store's complete ranges, read again when older than a second, when `fresh`, or when they end before `atLeast`. */
  private async storedRanges(atLeast: number, fresh = false): Promise<LedgerRange[]> {
    const cached = this.ranges;
    const now = Date.now();
    if (!fresh && cached && now - cached.readAtMs < RANGES_TTL_MS && (cached.ranges.at(-1)?.last ?? 0) >= atLeast) return cached.ranges;
    const { completeRanges } = await this.queries.status();
    const ranges = completeRanges.map((range) => ({ first: range.first, last: range.last }));
    this.ranges = { readAtMs: now, ranges };
    return ranges;
  }
}
