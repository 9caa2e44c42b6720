/** In-memory stand-ins for the ledger-store and the upstream, for unit tests of one module. */
import { decodeLedgerHeader, type FetchedLedger, type StoredLink, type VerifiedLedger } from '@ledger-node/chain';
import type { LedgerWrite } from '@ledger-node/contracts';
import { LedgerRangeSet, type LedgerRange } from '../../src/backfill/ranges';
import type { LedgerStorePort, StoreRanges, StoreRangesChange, StoreRangesPort } from '../../src/store/ledger-store';
import { UpstreamRequestError, type BinaryLedgerResult } from '@ledger-node/upstream';
import type { LedgerFetcher } from '../../src/verify/verified-fetch';

export class MemoryLedgerStore implements LedgerStorePort {
  readonly ledgers = new Map<number, LedgerWrite>();
  /** Ledger indexes of each PutLedgers call, in call order. */
  readonly putCalls: number[][] = [];

  async completeRanges(): Promise<LedgerRange[]> {
    const ranges = new LedgerRangeSet();
    for (const ledgerIndex of this.ledgers.keys()) ranges.add(ledgerIndex);
    return ranges.toArray();
  }

  async link(ledgerIndex: number): Promise<StoredLink | undefined> {
    const write = this.ledgers.get(ledgerIndex);
    if (!write) return undefined;
    return { ledgerIndex, ledgerHash: write.ledgerHash, parentHash: Buffer.from(decodeLedgerHeader(write.headerBlob).parentHash, 'hex') };
  }

  async putLedgers(ledgers: LedgerWrite[]): Promise<void> {
    this.putCalls.push(ledgers.map((ledger) => ledger.ledgerIndex));
    for (const ledger of ledgers) this.ledgers.set(ledger.ledgerIndex, ledger);
  }

  putLedgersInOrder(ledgers: LedgerWrite[]): Promise<void> {
    return this.putLedgers(ledgers);
  }

  async storedLedger(ledgerIndex: number): Promise<VerifiedLedger | undefined> {
    const write = this.ledgers.get(ledgerIndex);
    if (!write) return undefined;
    const transactions = write.transactions.map(({ hash, txBlob, metaBlob }) => ({ hash, txBlob, metaBlob }));
    return { ledgerIndex, ledgerHash: write.ledgerHash, header: decodeLedgerHeader(write.headerBlob), headerBlob: write.headerBlob, transactions };
  }

  async deleteLedger(write: LedgerWrite): Promise<boolean> {
    const stored = this.ledgers.get(write.ledgerIndex);
    if (!stored?.ledgerHash.equals(write.ledgerHash)) throw new Error(`ledger ${write.ledgerIndex} is not stored with that hash`);
    this.ledgers.delete(write.ledgerIndex);
    return stored.stateChangesComplete;
  }
}

/**
 * A ledger-store's word on which ledgers it holds, as the test tells it: GetStatus answers `held`
 * (after `statusGate`, when set), and the open WatchRanges stream sends what `announce` is given
 * until `dropStream` ends it.
 */
export class ScriptedStoreRanges implements StoreRangesPort {
  held: StoreRanges = { completeRanges: [] };
  /** GetStatus answers once this settles (a write of sync's can land between the ask and the answer). */
  statusGate: Promise<void> | undefined;
  /** When set, each stream fails with it as soon as it opens (a lost store, or one without WatchRanges). */
  failStreamsWith: Error | undefined;
  statusCalls = 0;
  /** When each stream was opened (ms). */
  readonly streamsOpenedAtMs: number[] = [];
  private stream: { push(change: StoreRangesChange): void; end(error?: Error): void } | undefined;

  async storeRanges(): Promise<StoreRanges> {
    this.statusCalls++;
    await this.statusGate;
    return structuredClone(this.held);
  }

  async *watchRanges(signal: AbortSignal): AsyncIterable<StoreRangesChange> {
    this.streamsOpenedAtMs.push(Date.now());
    if (this.failStreamsWith) throw this.failStreamsWith;
    const pending: StoreRangesChange[] = [];
    let ended: { error?: Error } | undefined;
    let wake: () => void = () => undefined;
    const stream = {
      push: (change: StoreRangesChange) => {
        pending.push(change);
        wake();
      },
      end: (error?: Error) => {
        ended = { error };
        wake();
      },
    };
    this.stream = stream;
    const onAbort = () => stream.end();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        while (pending.length > 0) yield pending.shift()!;
        if (ended) {
          if (ended.error) throw ended.error;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.stream === stream) this.stream = undefined;
    }
  }

  /** True while a stream is open. */
  get streaming(): boolean {
    return this.stream !== undefined;
  }

  /** Sends a change on the open stream, `held` becoming what it says the store holds. */
  announce(change: StoreRangesChange): void {
    if (!this.stream) throw new Error('no WatchRanges stream is open');
    this.held = { completeRanges: change.completeRanges, stateRange: change.stateRange, retentionFloor: change.retentionFloor };
    this.stream.push(structuredClone(change));
  }

  /** Ends the open stream, with `error` as a lost connection ends it. */
  dropStream(error?: Error): void {
    this.stream?.end(error);
  }
}

/** The binary `ledger` answer rippled gives for a fetched ledger (API v1: `meta` holds the blob). */
export function binaryAnswerOf(ledger: FetchedLedger): BinaryLedgerResult {
  return {
    ledger: { ledger_data: ledger.headerBlob, closed: true, transactions: ledger.transactions.map((tx) => ({ tx_blob: tx.txBlob, meta: tx.metaBlob })) },
    ledger_hash: ledger.ledgerHash,
    ledger_index: ledger.ledgerIndex,
    validated: true,
  };
}

/** Serves the given ledgers; every fetch is counted per index. */
export class RecordedUpstream implements LedgerFetcher {
  readonly fetchCounts = new Map<number, number>();
  constructor(private readonly ledgers: Map<number, FetchedLedger>) {}

  async fetchLedger(ledgerIndex: number): Promise<BinaryLedgerResult> {
    this.fetchCounts.set(ledgerIndex, (this.fetchCounts.get(ledgerIndex) ?? 0) + 1);
    const ledger = this.ledgers.get(ledgerIndex);
    if (!ledger) throw new UpstreamRequestError('ledger', 'lgrNotFound', `ledger ${ledgerIndex} not found`);
    return binaryAnswerOf(ledger);
  }
}
