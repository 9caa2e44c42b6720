/**
 * What the store holds, as this process knows it: the bookkeeping every write updates (the complete
 * ranges, the runs with complete state changes, the state download, the counters) and the chain the
 * store holds. Loaded at open, replaced as each write lands; every other part of the store reads it here.
 */
import type { StateDownload } from '@ledger-node/contracts';
import type { Bookkeeping } from '../backend/backend';
import { NO_DOWNLOAD, stateWindow, ZERO_COUNTERS, type ChainIdentity, type StateDownloadRecord, type StateWindow, type StoreCounters } from '../backend/records';
import { RangesEvents, type RangesChange, type RangesEvent } from '../ledgers/events';
import { rangesContain, type LedgerRange } from '../ledgers/ranges';

export class Holdings {
  completeRanges: LedgerRange[] = [];
  /** Ledgers an import stored that nothing proved yet: served by no read (unproven.ts). */
  unprovenRanges: LedgerRange[] = [];
  /** Runs of ledgers stored with complete state changes (kept like completeRanges). */
  stateRanges: LedgerRange[] = [];
  download: StateDownloadRecord = NO_DOWNLOAD;
  counters: StoreCounters = ZERO_COUNTERS;
  /** The chain this store holds, once it holds a ledger. */
  chainIdentity: ChainIdentity | undefined;
  /** The newest ledgers bounded history keeps (-ledger_history); undefined when every ledger is kept. */
  keptLedgers: number | undefined;
  /** Changes of what the store holds other than a ledger stored above the highest, as they land (WatchRanges). */
  readonly changes = new RangesEvents();

  load(bookkeeping: Bookkeeping): void {
    ({ completeRanges: this.completeRanges, unprovenRanges: this.unprovenRanges, counters: this.counters, stateRanges: this.stateRanges, download: this.download } = bookkeeping);
    // requireChain may have named a store that recorded no identity before this load.
    this.chainIdentity = bookkeeping.chainIdentity ?? this.chainIdentity;
  }

  /** Whether the ledger at `ledgerIndex` is stored unproven (no read may serve it). */
  unproven(ledgerIndex: number): boolean {
    return this.unprovenRanges.length > 0 && rangesContain(this.unprovenRanges, ledgerIndex);
  }

  lowest(): number | undefined {
    return this.completeRanges[0]?.first;
  }

  highest(): number | undefined {
    return this.completeRanges.at(-1)?.last;
  }

  /** The lowest ledger bounded history keeps: the highest stored minus the ledgers kept, plus one. */
  retentionFloor(): number | undefined {
    const highest = this.highest();
    if (this.keptLedgers === undefined || highest === undefined) return undefined;
    return Math.max(1, highest - this.keptLedgers + 1);
  }

  /** What the store holds now, as the event of `change` that removed `removed`. */
  snapshot(change: RangesChange, removed: LedgerRange[] = []): RangesEvent {
    const stateRange = this.stateRangeAnswered();
    const retentionFloor = this.retentionFloor();
    return {
      change,
      completeRanges: [...this.completeRanges],
      ...(stateRange ? { stateRange } : {}),
      ...(retentionFloor !== undefined ? { retentionFloor } : {}),
      removed,
    };
  }

  /** Tells the watchers of the store's ranges what it holds after `change` (once the change is written). */
  announce(change: RangesChange, removed: LedgerRange[] = []): void {
    if (this.changes.subscriberCount > 0) this.changes.publish(this.snapshot(change, removed));
  }

  /** Ledgers at which account state is known; undefined until the state download is complete. */
  stateWindow(): StateWindow | undefined {
    const window = stateWindow(this.download, this.stateRanges);
    const lowest = this.lowest();
    // Bounded history: state is answered from the lowest kept ledger, looked up as before (versionFloor).
    if (!window || this.keptLedgers === undefined || lowest === undefined || lowest <= window.low) return window;
    return { ...window, low: lowest, versionFloor: window.low };
  }

  /** The ledgers at which account state is answered, as a range. */
  stateRangeAnswered(): LedgerRange | undefined {
    const window = this.stateWindow();
    return window && { first: window.low, last: window.high };
  }

  /** The stored state was set aside (DeleteLedger) and no download has replaced it yet. */
  get stateSetAside(): boolean {
    return this.download.staleVersions === true;
  }

  get stateDownload(): StateDownload {
    const { ledgerIndex, marker, complete, objectCount } = this.download;
    return { ledgerIndex, marker, complete, objectCount };
  }
}
