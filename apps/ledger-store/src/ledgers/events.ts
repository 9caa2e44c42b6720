import type { LedgerRange } from './ranges';

/** How one transaction of a stored ledger ended. */
export interface TransactionOutcome {
  hash: Buffer;
  engineResult: string;
  txIndex: number;
}

/** One ledger just stored (or replayed from the store). */
export interface LedgerEvent {
  ledgerIndex: number;
  ledgerHash: Buffer;
  /** Seconds since the Ripple epoch. */
  closeTime: number;
  /** In tx index order. */
  transactions: TransactionOutcome[];
  /**
   * True when the ledger was above every ledger stored before it (sync at the tip); false for
   * backfill and for ledgers replayed from the store.
   */
  extendsTip: boolean;
}

/** Why the store's holdings changed (ledgerstore.proto RangesChange). */
export type RangesChange =
  | 'current'
  | 'retention'
  | 'ledger_deleted'
  | 'state_set_aside'
  | 'stored_below_tip'
  | 'state_changes_added'
  | 'state_download_completed'
  | 'followed';

/** Which ledgers the store holds, after a change other than a ledger stored above the highest (WatchRanges). */
export interface RangesEvent {
  change: RangesChange;
  completeRanges: LedgerRange[];
  /** Ledgers at which account state is answered; undefined while none is. */
  stateRange?: LedgerRange;
  /** The lowest ledger bounded history keeps; undefined when every ledger is kept, or none is held. */
  retentionFloor?: number;
  /** The ledgers this change removed, ascending. */
  removed: LedgerRange[];
}

/** In-process fan-out of events to the open streams. */
export class Fanout<Event> {
  private readonly listeners = new Set<(event: Event) => void>();

  /** Returns the function that ends the subscription. */
  subscribe(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: Event): void {
    for (const listener of this.listeners) listener(event);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}

/** Stored ledgers, to the open WatchLedgers streams. */
export class LedgerEvents extends Fanout<LedgerEvent> {}

/** Changes of what the store holds, to the open WatchRanges streams. */
export class RangesEvents extends Fanout<RangesEvent> {}
