/**
 * The ledger-store as sync uses it: status, link data of stored ledgers, and writes. Every call is
 * retried with backoff while the store is unreachable (it may be restarting), so a store outage
 * pauses sync instead of failing it.
 */
import { decodeLedgerHeader, type LedgerHeader, type StoredLink, type VerifiedLedger } from '@ledger-node/chain';
import { LedgerStoreServiceService, RangesChange, StoreRole, TxDetail, type LedgerRecord, type LedgerWrite, type PutStateObjectsRequest, type StateDownload, type StateObjectChange } from '@ledger-node/contracts';
import { isLedgerNodeError } from '@ledger-node/errors';
import { createGrpcClient } from '@ledger-node/grpc';
import { DependencyLog, type Logger } from '@ledger-node/telemetry';
import type { LedgerRange } from '../backfill/ranges';
import { observeStage, secondsSince } from '../stage-timing';
import { backoffDelayMs, sleep } from '@ledger-node/upstream';
import type { StateStorePort } from '../state/download';
import { LedgerBatchStream } from './batch-stream';

/** What sync needs from the store; the tests of the planner give a fake. */
export interface LedgerStorePort {
  completeRanges(): Promise<LedgerRange[]>;
  /** Hash and parent hash of a stored ledger; undefined when it is not stored. */
  link(ledgerIndex: number): Promise<StoredLink | undefined>;
  /** Stores the ledgers, each atomically, in the order given; `onRetry` hears each failure that is retried (e.g. the store's "disk full"). */
  putLedgers(ledgers: LedgerWrite[], onRetry?: (error: unknown) => void): Promise<void>;
  /**
   * putLedgers for batch after batch (backfill): each batch stored after every batch put this way
   * before it, the next crossing to the store while the one before is written (PutLedgersStream).
   */
  putLedgersInOrder(ledgers: LedgerWrite[], onRetry?: (error: unknown) => void): Promise<void>;
  /** A stored ledger with its transactions; undefined when it is not stored. */
  storedLedger(ledgerIndex: number): Promise<VerifiedLedger | undefined>;
  /**
   * Removes a stored ledger that is not the network's, `write` being it as it was written; true when
   * the store set its account state aside with it (state was stored at it).
   */
  deleteLedger(write: LedgerWrite): Promise<boolean>;
  /** The store's identity ledger (the first it was given), when it records one. */
  chainIdentity?(): Promise<{ ledgerIndex: number; ledgerHash: string } | undefined>;
}

/** Which ledgers the store holds, as it says (GetStatus, WatchRanges). */
export interface StoreRanges {
  completeRanges: LedgerRange[];
  /** Ledgers at which the store answers account state. */
  stateRange?: LedgerRange;
  /** The lowest ledger the store's bounded history (-ledger_history) keeps; undefined when it keeps every ledger. */
  retentionFloor?: number;
}

/** Why the store announced its ranges (ledgerstore.proto RangesChange). */
export type StoreRangesChangeKind = 'current' | 'retention' | 'ledger_deleted' | 'state_set_aside' | 'stored_below_tip' | 'state_changes_added' | 'state_download_completed' | 'followed' | 'unknown';

/** One announcement of the store's WatchRanges stream. */
export interface StoreRangesChange extends StoreRanges {
  change: StoreRangesChangeKind;
  /** The ledgers the change removed. */
  removedRanges: LedgerRange[];
}

/** The store's word on which ledgers it holds. */
export interface StoreRangesPort {
  /** What the store holds now (GetStatus), asked again while it is unreachable. */
  storeRanges(): Promise<StoreRanges>;
  /** The store's announcements (WatchRanges) until `signal` aborts; ends or fails when the connection does. */
  watchRanges(signal: AbortSignal): AsyncIterable<StoreRangesChange>;
}

const CHANGE_KINDS: Record<RangesChange, StoreRangesChangeKind> = {
  [RangesChange.UNSPECIFIED]: 'unknown',
  [RangesChange.CURRENT]: 'current',
  [RangesChange.RETENTION]: 'retention',
  [RangesChange.LEDGER_DELETED]: 'ledger_deleted',
  [RangesChange.STATE_SET_ASIDE]: 'state_set_aside',
  [RangesChange.STORED_BELOW_TIP]: 'stored_below_tip',
  [RangesChange.STATE_CHANGES_ADDED]: 'state_changes_added',
  [RangesChange.STATE_DOWNLOAD_COMPLETED]: 'state_download_completed',
  [RangesChange.FOLLOWED]: 'followed',
  [RangesChange.UNRECOGNIZED]: 'unknown',
};

const rangeOf = ({ first, last }: LedgerRange): LedgerRange => ({ first, last });

/** The ranges as the store sent them, each range checked: a store is trusted, its bytes on the wire are not. */
function storeRangesOf(message: { completeRanges: LedgerRange[]; stateRange?: LedgerRange; retentionFloor?: number }): StoreRanges {
  const wellFormed = (range: LedgerRange) => Number.isSafeInteger(range.first) && Number.isSafeInteger(range.last) && range.first >= 1 && range.first <= range.last;
  return {
    completeRanges: message.completeRanges.filter(wellFormed).map(rangeOf),
    ...(message.stateRange && wellFormed(message.stateRange) ? { stateRange: rangeOf(message.stateRange) } : {}),
    ...(message.retentionFloor !== undefined && message.retentionFloor >= 1 ? { retentionFloor: message.retentionFloor } : {}),
  };
}

// The store restarting or briefly unreachable; any other error is the caller's to handle.
const RETRIED_KINDS = new Set(['unavailable', 'upstream_unavailable']);
const retried = (error: unknown) => isLedgerNodeError(error) && RETRIED_KINDS.has(error.kind);

export class GrpcLedgerStore implements LedgerStorePort, StateStorePort, StoreRangesPort {
  private readonly client;
  private readonly availability: DependencyLog;
  private readonly batches: LedgerBatchStream;

  constructor(
    address: string,
    private readonly logger: Logger,
    private readonly signal: AbortSignal,
  ) {
    this.availability = new DependencyLog(logger, 'ledger-store');
    this.client = createGrpcClient(LedgerStoreServiceService, address, {
      deadlineMs: 30_000,
      idempotent: ['getStatus', 'getLedger', 'putLedgers', 'putStateChanges', 'listStateObjects'],
      serviceLabel: 'ledger-store',
    });
    this.batches = new LedgerBatchStream({
      open: () => this.client.putLedgersStream(),
      retryable: retried,
      onFailure: (error, delayMs) => {
        const reason = (error as Error).message;
        this.availability.failed(`ledger-store PutLedgersStream failed: ${reason}; retrying in ${delayMs} ms`, { operation: 'PutLedgersStream', reason, delayMs });
      },
      onAnswer: () => this.availability.answered(),
      signal,
    });
  }

  close(): void {
    this.batches.close();
    this.client.close();
  }

  async completeRanges(): Promise<LedgerRange[]> {
    const status = await this.retrying('GetStatus', () => this.client.getStatus({}));
    return status.completeRanges.map(({ first, last }) => ({ first, last }));
  }

  async storeRanges(): Promise<StoreRanges> {
    return storeRangesOf(await this.retrying('GetStatus', () => this.client.getStatus({})));
  }

  async *watchRanges(signal: AbortSignal): AsyncIterable<StoreRangesChange> {
    for await (const message of this.client.watchRanges({}, { signal })) {
      yield { ...storeRangesOf(message), change: CHANGE_KINDS[message.change] ?? 'unknown', removedRanges: message.removedRanges.filter((range) => range.first <= range.last).map(rangeOf) };
    }
  }

  /** The store's role in its database as it says now, asked once (a store that does not answer throws). */
  async role(): Promise<{ role: StoreRole; detail: string | undefined }> {
    const status = await this.client.getStatus({});
    return { role: status.role ?? StoreRole.UNSPECIFIED, detail: status.roleDetail };
  }

  /** The store's identity ledger (the first it was given), when it records one. */
  async chainIdentity(): Promise<{ ledgerIndex: number; ledgerHash: string } | undefined> {
    const identity = (await this.retrying('GetStatus', () => this.client.getStatus({}))).chainIdentity;
    return identity && { ledgerIndex: identity.ledgerIndex, ledgerHash: Buffer.from(identity.ledgerHash).toString('hex').toUpperCase() };
  }

  async link(ledgerIndex: number): Promise<StoredLink | undefined> {
    const answer = await this.retrying('GetLedger', () =>
      this.client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.NONE }),
    );
    const record = answer.ledger;
    if (!record) return this.notHeld(ledgerIndex);
    const header = decodeLedgerHeader(record.headerBlob);
    return { ledgerIndex: record.ledgerIndex, ledgerHash: Buffer.from(record.ledgerHash), parentHash: Buffer.from(header.parentHash, 'hex') };
  }

  async putLedgers(ledgers: LedgerWrite[], onRetry?: (error: unknown) => void): Promise<void> {
    if (ledgers.length === 0) return;
    // An identical re-write is idempotent in the store, so a batch cut by a store crash is simply sent again.
    const startedAtNs = process.hrtime.bigint();
    await this.retrying('PutLedgers', () => this.client.putLedgers({ ledgers }, { deadlineMs: 60_000 }), onRetry);
    observeStage('grpc', secondsSince(startedAtNs), ledgers.length);
  }

  async putLedgersInOrder(ledgers: LedgerWrite[], onRetry?: (error: unknown) => void): Promise<void> {
    if (ledgers.length > 0) await this.batches.put(ledgers, onRetry);
  }

  async deleteLedger(write: LedgerWrite): Promise<boolean> {
    return (await this.retrying('DeleteLedger', () => this.client.deleteLedger({ ledger: write }))).stateSetAside;
  }

  async stateDownload(): Promise<StateDownload> {
    const status = await this.retrying('GetStatus', () => this.client.getStatus({}));
    return status.stateDownload ?? { ledgerIndex: 0, marker: Buffer.alloc(0), complete: false, objectCount: 0n };
  }

  async putStateObjects(request: PutStateObjectsRequest): Promise<StateDownload> {
    const answer = await this.retrying('PutStateObjects', () => this.client.putStateObjects(request, { deadlineMs: 60_000 }));
    if (!answer.stateDownload) throw new Error('PutStateObjects answered without the download progress');
    return answer.stateDownload;
  }

  async listStateObjects(ledgerIndex: number, afterKey: Buffer, limit: number) {
    const answer = await this.retrying('ListStateObjects', () => this.client.listStateObjects({ ledgerIndex, afterKey, limit, beforeKey: Buffer.alloc(0) }, { deadlineMs: 60_000 }));
    return { objects: answer.objects.map(({ key, blob }) => ({ key: Buffer.from(key), blob: Buffer.from(blob) })), nextAfterKey: Buffer.from(answer.nextAfterKey) };
  }

  async stateRange(): Promise<LedgerRange | undefined> {
    const status = await this.retrying('GetStatus', () => this.client.getStatus({}));
    return status.stateRange && { first: status.stateRange.first, last: status.stateRange.last };
  }

  /** A stored ledger with its transactions, as it was verified before it was stored; undefined when it is not stored. */
  async storedLedger(ledgerIndex: number): Promise<VerifiedLedger | undefined> {
    const answer = await this.retrying('GetLedger', () =>
      this.client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.FULL }, { deadlineMs: 60_000 }),
    );
    return answer.ledger ? verifiedLedgerOf(answer.ledger) : this.notHeld(ledgerIndex);
  }

  /**
   * Stored ledgers from `first` up to `last` (at most 256) with their transactions, ascending and
   * consecutive, in one call (GetLedgerRange, as many more as its size needs): the list ends before
   * a ledger that is not stored.
   */
  async storedLedgers(first: number, last: number): Promise<VerifiedLedger[]> {
    const ledgers: VerifiedLedger[] = [];
    for (let from = first; from <= last; ) {
      const answer = await this.retrying('GetLedgerRange', () => this.client.getLedgerRange({ first: from, last, txDetail: TxDetail.FULL }, { deadlineMs: 60_000 }));
      ledgers.push(...answer.ledgers.map(verifiedLedgerOf));
      if (!answer.truncated || answer.ledgers.length === 0) break;
      from += answer.ledgers.length;
    }
    return ledgers;
  }

  async putStateChanges(ledgerIndex: number, ledgerHash: Buffer, stateChanges: StateObjectChange[]): Promise<LedgerRange | undefined> {
    // The same changes written twice are the same versions: a call cut by a store crash is sent again.
    const answer = await this.retrying('PutStateChanges', () => this.client.putStateChanges({ ledgerIndex, ledgerHash, stateChanges }, { deadlineMs: 60_000 }));
    return answer.stateRange && { first: answer.stateRange.first, last: answer.stateRange.last };
  }

  async header(ledgerIndex: number): Promise<{ ledgerHash: Buffer; header: LedgerHeader } | undefined> {
    const answer = await this.retrying('GetLedger', () =>
      this.client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.NONE }),
    );
    if (!answer.ledger) return this.notHeld(ledgerIndex);
    return { ledgerHash: Buffer.from(answer.ledger.ledgerHash), header: decodeLedgerHeader(answer.ledger.headerBlob) };
  }

  /** Sync reads only ledgers it counts as stored: one the store does not hold is a view behind the store's word. */
  private notHeld(ledgerIndex: number): undefined {
    this.logger.debug({ ledgerIndex }, `the ledger-store does not hold ledger ${ledgerIndex}, which sync asked for`);
    return undefined;
  }

  private async retrying<T>(operation: string, call: () => Promise<T>, onRetry?: (error: unknown) => void): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await call();
        this.availability.answered();
        return answer;
      } catch (error) {
        if (!retried(error) || this.signal.aborted) throw error;
        onRetry?.(error);
        const delayMs = backoffDelayMs(attempt, 200, 5_000);
        const reason = (error as Error).message;
        this.availability.failed(`ledger-store ${operation} failed: ${reason}; retrying in ${delayMs} ms`, { operation, reason, delayMs });
        await sleep(delayMs, this.signal);
      }
    }
  }
}

/** A stored ledger's record as the ledger it was verified as. */
function verifiedLedgerOf(record: LedgerRecord): VerifiedLedger {
  return {
    ledgerIndex: record.ledgerIndex,
    ledgerHash: Buffer.from(record.ledgerHash),
    header: decodeLedgerHeader(record.headerBlob),
    headerBlob: Buffer.from(record.headerBlob),
    transactions: record.transactions.map((tx) => ({ hash: Buffer.from(tx.hash), txBlob: Buffer.from(tx.txBlob), metaBlob: Buffer.from(tx.metaBlob) })),
  };
}
