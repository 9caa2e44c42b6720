import type { LedgerEvidence, LedgerRecord, LedgerSelector, LedgerWrite, PutStateChangesRequest, PutStateObjectsRequest, StateDownload, TransactionRecord, TxDetail } from '@ledger-node/contracts';
import type { LedgerBackend } from '../backend/backend';
import type { ChainIdentity, StateWindow, StoreCounters, StoredHeader } from '../backend/records';
import type { LedgerEvent, LedgerEvents, RangesEvent } from '../ledgers/events';
import type { LedgerRange } from '../ledgers/ranges';
import { checkFormat, requireFormat } from './format';
import { Holdings } from './holdings';
import { StoreIdentity, type ChainOfStore } from './identity';
import { LedgerReads, type LedgersRead } from './ledger-reads';
import { Retention, type HistoryOptions } from './retention';
import { StoreRoles, type FollowOptions, type StoreRole } from './roles';
import { UnprovenLedgers, type IndexOf, type UnprovenOutcome } from './unproven';
import { LedgerWatch } from './watch';
import { WriteQueue } from './write-queue';
import { LedgerWriter } from './writer';

/** How long a measured database size is reported before it is measured again. */
const SIZE_REFRESH_MS = 1_000;

export interface StoreStatus {
  role: StoreRole;
  /** The role in words, with the database's location (never a password). */
  roleDetail: string;
  completeRanges: LedgerRange[];
  unprovenRanges: LedgerRange[];
  stateRange?: LedgerRange;
  stateDownload: StateDownload;
  lowestLedgerIndex?: number;
  highestLedgerIndex?: number;
  counters: StoreCounters;
  dbSizeBytes: number;
  chainIdentity?: ChainIdentity;
  /** The lowest ledger bounded history keeps; undefined when every ledger is kept, or none is held. */
  retentionFloor?: number;
}

export interface StoreOptions {
  follow?: FollowOptions;
  history?: HistoryOptions;
  chain?: ChainOfStore;
  /** How stored transactions were indexed, to remove a stored ledger an import left unproven when the network contradicts it (else history's). */
  indexOf?: IndexOf;
  /** Unproven ledgers were proven or removed (unproven.ts), for the log. */
  onUnproven?: (outcome: UnprovenOutcome) => void;
}

/**
 * The operations of the LedgerStore contract over one backend (backend/backend.ts), composed of
 * one part per job: what the store holds (holdings.ts), the one write queue (write-queue.ts), the
 * writes (writer.ts), bounded history (retention.ts), the role in a shared database (roles.ts),
 * the reads (ledger-reads.ts) and the stream of stored ledgers (watch.ts). One process writes the
 * store; other processes may follow a PostgreSQL store (`follow`): they reload the bookkeeping from
 * the database they read, publish the ledgers that became complete, and refuse writes until
 * promoted (`promote`).
 */
export class LedgerStore<Backend extends LedgerBackend = LedgerBackend> {
  readonly events: LedgerEvents;

  private readonly holdings = new Holdings();
  private readonly queue: WriteQueue;
  private readonly identity: StoreIdentity;
  private readonly roles: StoreRoles;
  private readonly retention: Retention;
  private readonly reads: LedgerReads;
  private readonly watching: LedgerWatch;
  private readonly writer: LedgerWriter;
  private measuredSize: { at: number; bytes: Promise<number> } | undefined;

  private constructor(
    readonly backend: Backend,
    options: StoreOptions,
  ) {
    const requireWriter = () => this.roles.requireWriter();
    this.queue = new WriteQueue(backend, this.holdings, requireWriter);
    this.identity = new StoreIdentity(backend, this.holdings, options.chain);
    this.watching = new LedgerWatch(backend, this.holdings, this.queue);
    this.events = this.watching.events;
    this.roles = new StoreRoles(backend, this.holdings, this.queue, this.watching);
    this.retention = new Retention(backend, this.holdings, this.queue);
    this.reads = new LedgerReads(backend, this.holdings);
    const unproven = new UnprovenLedgers(backend, this.holdings, options.indexOf ?? options.history?.indexOf, options.onUnproven);
    this.writer = new LedgerWriter(backend, this.holdings, this.queue, this.events, this.identity, unproven, requireWriter);
  }

  /**
   * Opens the store over `backend`, loading the bookkeeping every ledger's write updates. A store
   * of another format version is refused, and the backend closed.
   */
  static async open<Backend extends LedgerBackend>(backend: Backend, options: StoreOptions = {}): Promise<LedgerStore<Backend>> {
    const store = new LedgerStore(backend, options);
    const bookkeeping = await backend.bookkeeping();
    try {
      if (options.history && options.history.ledgers > 0) {
        if (!backend.pruneLedgers || !backend.sweepStateVersions) throw new Error(`-ledger_history keeps a RocksDB store only; ${backend.location} keeps every ledger (leave -ledger_history at 0)`);
        if (options.follow) throw new Error('-ledger_history is kept by the writer of a store, not by a follower');
      }
      // A follower writes nothing: a standby records the version once it is the writer.
      if (!options.follow) await requireFormat(backend, bookkeeping);
      else if (bookkeeping.formatVersion !== undefined || options.follow.role === 'reader') checkFormat(backend.location, bookkeeping);
      if (options.chain && !options.follow) await store.identity.require(bookkeeping, options.chain);
    } catch (error) {
      await backend.close();
      throw error;
    }
    store.holdings.load(bookkeeping);
    if (options.follow) store.roles.follow(options.follow);
    if (options.history && options.history.ledgers > 0) store.retention.start(options.history);
    return store;
  }

  close(): Promise<void> {
    this.roles.stopFollowing();
    this.retention.stop();
    return this.queue.exclusive(() => this.backend.close());
  }

  get role(): StoreRole {
    return this.roles.role;
  }

  /**
   * A standby becomes the writer (it holds the writer lock now): it takes on the ledgers the last
   * writer stored since its last look, then reloads the bookkeeping in the write queue.
   */
  promote(): Promise<void> {
    return this.roles.promote();
  }

  // ---- bounded history ----

  /** One removal or sweep write; true when more work waits. */
  historyStep(): Promise<boolean> {
    return this.retention.step();
  }

  /** The lowest ledger kept: the highest stored minus the ledgers kept, plus one. */
  historyFloor(): number | undefined {
    return this.retention.floor();
  }

  // ---- what the store holds ----

  get ranges(): readonly LedgerRange[] {
    return this.holdings.completeRanges;
  }

  /** Ledgers an import stored that nothing proved yet: served by no read (unproven.ts). */
  get unprovenRanges(): readonly LedgerRange[] {
    return this.holdings.unprovenRanges;
  }

  /** Whether the ledger at `ledgerIndex` is stored unproven. */
  unproven(ledgerIndex: number): boolean {
    return this.holdings.unproven(ledgerIndex);
  }

  lowest(): number | undefined {
    return this.holdings.lowest();
  }

  highest(): number | undefined {
    return this.holdings.highest();
  }

  /** Ledgers at which account state is known; undefined until the state download is complete. */
  stateWindow(): StateWindow | undefined {
    return this.holdings.stateWindow();
  }

  /** The ledgers at which account state is answered, as a range. */
  stateRangeAnswered(): LedgerRange | undefined {
    return this.holdings.stateRangeAnswered();
  }

  /** The stored state was set aside (DeleteLedger) and no download has replaced it yet. */
  get stateSetAside(): boolean {
    return this.holdings.stateSetAside;
  }

  get stateDownload(): StateDownload {
    return this.holdings.stateDownload;
  }

  // ---- writes ----

  /** Stores one ledger in one atomic batch; false when the identical ledger was already stored (writer.ts). */
  putLedger(write: LedgerWrite | undefined, path = 'ledger'): Promise<boolean> {
    return this.writer.putLedger(write, path);
  }

  /** Stores ledgers in the order given, those not stored before in one atomic batch; answers how many were stored (writer.ts). */
  putLedgers(writes: readonly (LedgerWrite | undefined)[], pathOf?: (position: number) => string): Promise<number> {
    return this.writer.putLedgers(writes, pathOf);
  }

  /** putLedgers in two steps: the writes checked now, stored by the function answered (writer.ts). */
  checkLedgers(writes: readonly (LedgerWrite | undefined)[]): () => Promise<number> {
    return this.writer.checkLedgers(writes);
  }

  /** Stores an import's ledgers that nothing proves yet, kept from every read until a proven ledger settles them (unproven.ts). */
  putUnprovenLedgers(writes: readonly LedgerWrite[]): Promise<number> {
    return this.writer.putLedgers(writes, undefined, { unproven: true });
  }

  /** Removes a stored ledger that is not the network's; true when the state was set aside with it (writer.ts). */
  deleteLedger(write: LedgerWrite | undefined): Promise<boolean> {
    return this.writer.deleteLedger(write);
  }

  /** Stores the proven state changes of a stored ledger written without them (writer.ts). */
  putStateChanges(request: PutStateChangesRequest): Promise<LedgerRange | undefined> {
    return this.writer.putStateChanges(request);
  }

  /** Stores one page of the state download (writer.ts). */
  putStateObjects(request: PutStateObjectsRequest): Promise<StateDownload> {
    return this.writer.putStateObjects(request);
  }

  // ---- reads ----

  /** The stored ledger a selector names; undefined when none is stored there. */
  resolve(selector: LedgerSelector | undefined, field = 'ledger'): Promise<StoredHeader | undefined> {
    return this.reads.resolve(selector, field);
  }

  ledgerRecord(header: StoredHeader, detail: TxDetail): Promise<LedgerRecord> {
    return this.reads.ledgerRecord(header, detail);
  }

  getLedger(selector: LedgerSelector | undefined, detail: TxDetail): Promise<LedgerRecord | undefined> {
    return this.reads.getLedger(selector, detail);
  }

  /** Consecutive stored ledgers from `first` up to `last`, and which have evidence (LedgerReads.getLedgerRange). */
  getLedgerRange(first: number, last: number, detail: TxDetail, maxBytes?: number): Promise<LedgersRead> {
    return this.reads.getLedgerRange(first, last, detail, maxBytes);
  }

  /** The evidence stored with the ledger a selector names (undefined: it was proven another way); NotFound when no ledger is stored there. */
  getLedgerEvidence(selector: LedgerSelector | undefined): Promise<{ header: StoredHeader; evidence: LedgerEvidence | undefined }> {
    return this.reads.getLedgerEvidence(selector);
  }

  getTransaction(hash: Buffer): Promise<TransactionRecord | undefined> {
    return this.reads.getTransaction(hash);
  }

  /** The stored transactions among `hashes`, in the order asked (a hash not stored has no entry). */
  getTransactions(hashes: Buffer[]): Promise<TransactionRecord[]> {
    return this.reads.getTransactions(hashes);
  }

  getTransactionByIndex(selector: LedgerSelector | undefined, txIndex: number): Promise<TransactionRecord | undefined> {
    return this.reads.getTransactionByIndex(selector, txIndex);
  }

  async status(): Promise<StoreStatus> {
    const { holdings } = this;
    return {
      role: this.roles.role,
      roleDetail: this.roles.detail,
      completeRanges: [...holdings.completeRanges],
      unprovenRanges: [...holdings.unprovenRanges],
      stateRange: holdings.stateRangeAnswered(),
      stateDownload: holdings.stateDownload,
      lowestLedgerIndex: holdings.lowest(),
      highestLedgerIndex: holdings.highest(),
      counters: holdings.counters,
      dbSizeBytes: await this.sizeOnDisk(),
      ...(holdings.chainIdentity ? { chainIdentity: holdings.chainIdentity } : {}),
      ...(holdings.retentionFloor() !== undefined ? { retentionFloor: holdings.retentionFloor() } : {}),
    };
  }

  /**
   * The database size, measured at most once per SIZE_REFRESH_MS: GetStatus answers every
   * jt_blockNumber, and listing the database's files on each call would cost more than the answer.
   */
  private async sizeOnDisk(): Promise<number> {
    const now = Date.now();
    if (!this.measuredSize || now - this.measuredSize.at >= SIZE_REFRESH_MS) {
      const measured = { at: now, bytes: this.backend.sizeOnDisk() };
      this.measuredSize = measured;
      // A failed measurement is not kept: the next call measures again (and this one reports the failure).
      measured.bytes.catch(() => {
        if (this.measuredSize === measured) this.measuredSize = undefined;
      });
    }
    return this.measuredSize.bytes;
  }

  // ---- watching ----

  /**
   * Stored ledgers from `fromLedgerIndex` upward (when given), then each ledger as it is stored:
   * every ledger with `includeBackfill`, else only those that extend the tip (watch.ts).
   */
  watch(options: { fromLedgerIndex?: number; includeBackfill: boolean }, signal: AbortSignal): AsyncGenerator<LedgerEvent> {
    return this.watching.watch(options, signal);
  }

  /** What the store holds now, then after each change other than a ledger stored above the highest (watch.ts). */
  watchRanges(signal: AbortSignal): AsyncGenerator<RangesEvent> {
    return this.watching.watchRanges(signal);
  }
}
