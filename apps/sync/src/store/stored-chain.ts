/**
 * What sync knows of the stored chain: the complete ranges (read from the store at start, kept as
 * sync writes and removes ledgers, and kept inside what the store says it holds: StoreRangeFollower)
 * and the link data of the ledgers at range edges, which the next ledger written beside them must
 * match. The store stays the only durable record, and the only owner of which ledgers it holds.
 */
import type { LedgerWrite } from '@ledger-node/contracts';
import { LedgerRangeSet, type LedgerRange } from '../backfill/ranges';
import type { SyncHealth } from '../sync-health';
import type { StoredLink, VerifiedLedger } from '@ledger-node/chain';
import type { LedgerStorePort, StoreRanges, StoreRangesChange } from './ledger-store';

/** Verified ledgers the store did not take (refused, full, unreachable); told to SyncHealth already. */
export class LedgerWriteFailed extends Error {
  constructor(
    readonly ledgerIndex: number,
    cause: unknown,
  ) {
    super(`storing ledger ${ledgerIndex} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'LedgerWriteFailed';
  }
}

export class StoredChain {
  readonly ranges = new LedgerRangeSet();
  private readonly edgeLinks = new Map<number, StoredLink>();
  /**
   * Ledgers written and removed here since the store's word was last taken: a word given before
   * such a write or removal reached the store does not undo it here.
   */
  private writtenSince = new LedgerRangeSet();
  private removedSince = new LedgerRangeSet();
  /** The lowest ledger the store's bounded history keeps, as it last said; undefined when it keeps every ledger. */
  storeFloor: number | undefined;

  constructor(
    private readonly ledgerStore: LedgerStorePort,
    private readonly health: SyncHealth,
    /** The store set its account state aside with a removed ledger: it is downloaded and proven again. */
    private readonly onStateSetAside: (ledgerIndex: number) => void = () => undefined,
  ) {}

  /** Reads the complete ranges from the store (restart resumes from them). */
  async load(): Promise<void> {
    for (const range of await this.ledgerStore.completeRanges()) this.ranges.addRange(range.first, range.last);
  }

  /** From now on, the writes and removals made here are kept apart for the store's next word (`takeStoreRanges`). */
  markStoreRead(): void {
    this.writtenSince = new LedgerRangeSet();
    this.removedSince = new LedgerRangeSet();
  }

  /**
   * Takes what the store holds (its GetStatus, asked after `markStoreRead`) as the ranges: those
   * the store answered, with the ledgers written here since and without those removed here since,
   * none below its retention floor. Answers the ledgers that left the ranges and those that joined.
   */
  takeStoreRanges(held: StoreRanges): { left: LedgerRange[]; joined: LedgerRange[] } {
    const next = new LedgerRangeSet(held.completeRanges);
    for (const range of this.removedSince.toArray()) next.removeRange(range.first, range.last);
    for (const range of this.writtenSince.toArray()) next.addRange(range.first, range.last);
    return this.takeRanges(next, held.retentionFloor);
  }

  /**
   * Takes a change the store announced (WatchRanges): the ledgers it removed leave the ranges
   * (but those written here since the store's last word), and so does every ledger below its
   * retention floor, which it removes on its own. Answers the ledgers that left the ranges.
   */
  takeStoreChange(change: StoreRangesChange): LedgerRange[] {
    const next = new LedgerRangeSet(this.ranges.toArray());
    for (const range of change.removedRanges) {
      const removed = new LedgerRangeSet([range]);
      for (const part of removed.without(this.writtenSince)) next.removeRange(part.first, part.last);
    }
    return this.takeRanges(next, change.retentionFloor).left;
  }

  private takeRanges(next: LedgerRangeSet, retentionFloor: number | undefined): { left: LedgerRange[]; joined: LedgerRange[] } {
    this.storeFloor = retentionFloor;
    // What bounded history keeps no longer, the store removes: it is neither read nor proven here.
    if (retentionFloor !== undefined) next.removeBelow(retentionFloor);
    const left = this.ranges.without(next);
    const joined = next.without(this.ranges);
    this.ranges.setTo(next);
    for (const ledgerIndex of this.edgeLinks.keys()) if (!this.ranges.has(ledgerIndex)) this.edgeLinks.delete(ledgerIndex);
    this.markStoreRead();
    return { left, joined };
  }

  get tip(): number | undefined {
    return this.ranges.highest;
  }

  /** Link data of a stored ledger, from memory for range edges, else from the store. */
  async link(ledgerIndex: number): Promise<StoredLink | undefined> {
    const known = this.edgeLinks.get(ledgerIndex);
    if (known) return known;
    const link = await this.ledgerStore.link(ledgerIndex);
    if (link) this.edgeLinks.set(ledgerIndex, link);
    return link;
  }

  /**
   * Writes verified ledgers (each atomically, in the order given), then records them as stored.
   * `inOrder`: after every batch written so before it, the next batch sent while this one is
   * written (backfill's batches, LedgerStorePort.putLedgersInOrder).
   */
  async write(writes: readonly { write: LedgerWrite; link: StoredLink }[], options: { inOrder?: boolean } = {}): Promise<void> {
    if (writes.length === 0) return;
    try {
      // A store that answers it cannot write (disk full, read-only) is retried in putLedgers: the stop says why meanwhile.
      const ledgers = writes.map(({ write }) => write);
      const onRetry = (error: unknown) => this.health.stopped(writes[0]!.link.ledgerIndex, error);
      await (options.inOrder ? this.ledgerStore.putLedgersInOrder(ledgers, onRetry) : this.ledgerStore.putLedgers(ledgers, onRetry));
    } catch (error) {
      this.health.stopped(writes[0]!.link.ledgerIndex, error);
      throw new LedgerWriteFailed(writes[0]!.link.ledgerIndex, error);
    }
    this.health.stored();
    for (const { link } of writes) {
      this.ranges.add(link.ledgerIndex);
      this.writtenSince.add(link.ledgerIndex);
      this.removedSince.remove(link.ledgerIndex);
      this.edgeLinks.set(link.ledgerIndex, link);
    }
    this.forgetInnerLinks();
  }

  /**
   * Removes a stored ledger that does not chain to the proven ledgers (a ledger stored before this
   * node proved what it stores, or forged then): `write` is it as it was written, re-derived from
   * its stored bytes. It is fetched again like any missing ledger; until the chain below it is
   * linked again, SyncHealth says sync is repairing. With state stored at it the store sets the
   * whole state aside, and `onStateSetAside` hears it.
   */
  async remove(ledgerIndex: number, write: (ledger: VerifiedLedger) => LedgerWrite): Promise<void> {
    const stored = await this.ledgerStore.storedLedger(ledgerIndex);
    const stateSetAside = stored ? await this.ledgerStore.deleteLedger(write(stored)) : false;
    this.ranges.remove(ledgerIndex);
    this.removedSince.add(ledgerIndex);
    this.writtenSince.remove(ledgerIndex);
    this.edgeLinks.delete(ledgerIndex);
    this.health.removedUnproven(ledgerIndex);
    if (stateSetAside) this.onStateSetAside(ledgerIndex);
  }

  /** Only range edges are needed for linking; inner ledgers are dropped so memory stays flat during backfill. */
  private forgetInnerLinks(): void {
    const edges = new Set(this.ranges.toArray().flatMap((range) => [range.first, range.last]));
    for (const ledgerIndex of this.edgeLinks.keys()) if (!edges.has(ledgerIndex)) this.edgeLinks.delete(ledgerIndex);
  }
}
