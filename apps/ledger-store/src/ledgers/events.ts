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

type Listener = (event: LedgerEvent) => void;

/** In-process fan-out of stored ledgers to the open WatchLedgers streams. */
export class LedgerEvents {
  private readonly listeners = new Set<Listener>();

  /** Returns the function that ends the subscription. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: LedgerEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}
