/**
 * What the store holds, as this process knows it: the bookkeeping every write updates (the complete
 * ranges, the runs with complete state changes, the state download, the counters) and the chain the
 * store holds. Loaded at open, replaced as each write lands; every other part of the store reads it here.
 */
import type { StateDownload } from '@ledger-node/contracts';
import type { Bookkeeping } from '../backend/backend';
import { NO_DOWNLOAD, stateWindow, ZERO_COUNTERS, type ChainIdentity, type StateDownloadRecord, type StateWindow, type StoreCounters } from '../backend/records';
import type { LedgerRange } from '../ledgers/ranges';

export class Holdings {
  completeRanges: LedgerRange[] = [];
  /** Runs of ledgers stored with complete state changes (kept like completeRanges). */
  stateRanges: LedgerRange[] = [];
  download: StateDownloadRecord = NO_DOWNLOAD;
  counters: StoreCounters = ZERO_COUNTERS;
  /** The chain this store holds, once it holds a ledger. */
  chainIdentity: ChainIdentity | undefined;
  /** Bounded history is kept (-ledger_history): account state is answered from the lowest kept ledger. */
  historyBounded = false;

  load(bookkeeping: Bookkeeping): void {
    ({ completeRanges: this.completeRanges, counters: this.counters, stateRanges: this.stateRanges, download: this.download } = bookkeeping);
    // requireChain may have named a store that recorded no identity before this load.
    this.chainIdentity = bookkeeping.chainIdentity ?? this.chainIdentity;
  }

  lowest(): number | undefined {
    return this.completeRanges[0]?.first;
  }

  highest(): number | undefined {
    return this.completeRanges.at(-1)?.last;
  }

  /** Ledgers at which account state is known; undefined until the state download is complete. */
  stateWindow(): StateWindow | undefined {
    const window = stateWindow(this.download, this.stateRanges);
    const lowest = this.lowest();
    // Bounded history: state is answered from the lowest kept ledger, looked up as before (versionFloor).
    if (!window || !this.historyBounded || lowest === undefined || lowest <= window.low) return window;
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
