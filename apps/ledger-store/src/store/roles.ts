/**
 * How a store takes part in its database: the writer writes it; a standby (a writer waiting for the
 * writer lock) and a reader (-store_read) take no writes and follow what the writer stores, until a
 * standby is promoted. A follower reloads the bookkeeping from the database it reads and publishes
 * the ledgers that became complete.
 */
import { Internal, Unavailable } from '@ledger-node/errors';
import type { LedgerBackend } from '../backend/backend';
import { missingFrom, rangesIntersection, rangesWithout } from '../ledgers/follow';
import { addToRanges, type LedgerRange } from '../ledgers/ranges';
import { checkFormat, requireFormat } from './format';
import type { Holdings } from './holdings';
import type { LedgerWatch } from './watch';
import type { WriteQueue } from './write-queue';

/** How often a follower (a standby, a reader) looks at the bookkeeping of the database it reads from. */
export const FOLLOW_INTERVAL_MS = 200;
/** New ledgers a follower takes on per look: a large backfill is taken in steps, the next one at once. */
const FOLLOW_LEDGERS_PER_STEP = 256;

/**
 * How a store takes part in its database: the writer writes it; a standby (a writer waiting for
 * the writer lock) and a reader (-store_read) take no writes and follow what the writer stores.
 */
export type StoreRole = 'writer' | 'standby' | 'reader';

/** A store that follows a database another process writes. */
export interface FollowOptions {
  role: 'standby' | 'reader';
  /** Why writes are refused, as every write's caller hears it (Unavailable). */
  refusal: string;
  intervalMs?: number;
  /** A look at the database failed (it is unreachable, say); the next look comes after the interval. */
  onError?: (error: unknown) => void;
}

export class StoreRoles {
  private currentRole: StoreRole = 'writer';
  /** Why writes are refused while this store is not the writer. */
  private refusal: string | undefined;
  private followTimer: NodeJS.Timeout | undefined;
  private following = false;

  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    private readonly queue: WriteQueue,
    private readonly watch: LedgerWatch,
  ) {}

  get role(): StoreRole {
    return this.currentRole;
  }

  /** The role in words, with the database's location (never a password). */
  get detail(): string {
    return this.refusal ?? `the writer of ${this.backend.location}`;
  }

  /** Looks at the database every `intervalMs` (FOLLOW_INTERVAL_MS), writes refused, until closed or promoted. */
  follow(options: FollowOptions): void {
    this.currentRole = options.role;
    this.refusal = options.refusal;
    this.following = true;
    const look = async () => {
      let more = false;
      try {
        more = await this.queue.exclusive(() => this.followStep(FOLLOW_LEDGERS_PER_STEP));
      } catch (error) {
        options.onError?.(error);
      }
      if (this.following) this.followTimer = setTimeout(() => void look(), more ? 0 : (options.intervalMs ?? FOLLOW_INTERVAL_MS));
    };
    this.followTimer = setTimeout(() => void look(), options.intervalMs ?? FOLLOW_INTERVAL_MS);
  }

  stopFollowing(): void {
    this.following = false;
    clearTimeout(this.followTimer);
  }

  /**
   * One look (in the write queue): the bookkeeping as the database now holds it, the complete
   * ranges kept inside the database's (a ledger removed there leaves them at once), and up to
   * `limit` ledgers the database completed since taken on in ascending order, each published as
   * it is. The ranges only ever hold ledgers read from this database, so they are never ahead of
   * what it answers. True when more ledgers wait for the next step.
   */
  private async followStep(limit: number): Promise<boolean> {
    const { holdings } = this;
    const bookkeeping = await this.backend.bookkeeping();
    if (bookkeeping.formatVersion !== undefined) checkFormat(this.backend.location, bookkeeping);
    const rangesBefore = holdings.completeRanges;
    const stateBefore = holdings.stateRangeAnswered();
    let ranges = rangesIntersection(rangesBefore, bookkeeping.completeRanges);
    const added = missingFrom(ranges, bookkeeping.completeRanges, limit + 1);
    const more = added.length > limit;
    holdings.completeRanges = ranges;
    let belowTip = false;
    let extendedTip = false;
    for (const header of await this.backend.headers(added.slice(0, limit))) {
      const event = await this.watch.eventOfStored(header);
      const highestBefore = ranges.at(-1)?.last;
      ranges = addToRanges(ranges, header.ledgerIndex);
      holdings.completeRanges = ranges;
      const extendsTip = highestBefore === undefined || header.ledgerIndex > highestBefore;
      if (extendsTip) extendedTip = true;
      else belowTip = true;
      this.watch.events.publish({ ...event, extendsTip });
    }
    ({ counters: holdings.counters, stateRanges: holdings.stateRanges, download: holdings.download } = bookkeeping);
    const removed = rangesWithout(rangesBefore, bookkeeping.completeRanges);
    if (removed.length > 0 || belowTip || stateRangeMoved(stateBefore, holdings.stateRangeAnswered(), extendedTip)) holdings.announce('followed', removed);
    return more;
  }

  /**
   * A standby becomes the writer (it holds the writer lock now): it takes on the ledgers the last
   * writer stored since its last look, then reloads the bookkeeping in the write queue, so the next
   * write continues from what the database holds.
   */
  async promote(): Promise<void> {
    if (this.currentRole !== 'standby') throw new Internal(`a ${this.currentRole} is not promoted; only a standby is`);
    this.stopFollowing();
    await this.queue.exclusive(async () => {
      await this.backend.fence();
      while (await this.followStep(FOLLOW_LEDGERS_PER_STEP));
      const bookkeeping = await this.backend.bookkeeping();
      await requireFormat(this.backend, bookkeeping);
      this.holdings.load(bookkeeping);
      this.currentRole = 'writer';
      this.refusal = undefined;
    });
  }

  /** Throws Unavailable, with the reason, unless this store is the writer. */
  requireWriter(): void {
    if (this.currentRole !== 'writer') throw new Unavailable(this.refusal ?? `this ledger-store is a ${this.currentRole} and takes no writes`);
  }
}

/**
 * The state range changed other than by its top rising with ledgers stored above the highest
 * (those the ledger stream tells).
 */
function stateRangeMoved(before: LedgerRange | undefined, after: LedgerRange | undefined, extendedTip: boolean): boolean {
  if (before === undefined || after === undefined) return before !== after;
  if (before.first !== after.first) return true;
  return after.last < before.last || (after.last > before.last && !extendedTip);
}
