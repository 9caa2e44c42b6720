/**
 * What sync knows of the stored chain: the complete ranges (read from the store at start, then
 * kept as ledgers are written) and the link data of the ledgers at range edges, which the next
 * ledger written beside them must match. The store stays the only durable record.
 */
import type { LedgerWrite } from '@ledger-node/contracts';
import { LedgerRangeSet } from '../backfill/ranges';
import type { SyncHealth } from '../sync-health';
import type { StoredLink, VerifiedLedger } from '@ledger-node/chain';
import type { LedgerStorePort } from './ledger-store';

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

  /**
   * Takes the store's word on its lowest ledger: a store that keeps bounded history (-ledger_history)
   * removes its lowest ledgers on its own, and sync then neither reads nor proves them.
   */
  async followStoreFloor(): Promise<void> {
    const lowest = (await this.ledgerStore.completeRanges())[0]?.first;
    const ours = this.ranges.lowest;
    if (lowest === undefined || ours === undefined || lowest <= ours) return;
    this.ranges.removeBelow(lowest);
    for (const ledgerIndex of this.edgeLinks.keys()) if (ledgerIndex < lowest) this.edgeLinks.delete(ledgerIndex);
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

  /** Writes verified ledgers (each atomically, in the order given), then records them as stored. */
  async write(writes: readonly { write: LedgerWrite; link: StoredLink }[]): Promise<void> {
    if (writes.length === 0) return;
    try {
      // A store that answers it cannot write (disk full, read-only) is retried in putLedgers: the stop says why meanwhile.
      await this.ledgerStore.putLedgers(
        writes.map(({ write }) => write),
        (error) => this.health.stopped(writes[0]!.link.ledgerIndex, error),
      );
    } catch (error) {
      this.health.stopped(writes[0]!.link.ledgerIndex, error);
      throw new LedgerWriteFailed(writes[0]!.link.ledgerIndex, error);
    }
    this.health.stored();
    for (const { link } of writes) {
      this.ranges.add(link.ledgerIndex);
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
