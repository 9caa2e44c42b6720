import {
  LedgerTag,
  TxDetail,
  type LedgerRecord,
  type LedgerSelector,
  type LedgerWrite,
  type PutStateChangesRequest,
  type PutStateObjectsRequest,
  type StateDownload,
  type TransactionRecord,
  type TransactionWrite,
} from '@ledger-node/contracts';
import { Conflict, Internal, InvalidParams, NotFound, Unavailable } from '@ledger-node/errors';
import type { Bookkeeping, LedgerBackend } from './backend/backend';
import { closeTimeOf, NO_DOWNLOAD, STATE_SET_ASIDE, stateWindow, ZERO_COUNTERS, type ChainIdentity, type StateDownloadRecord, type StateWindow, type StoreCounters, type StoredHeader, type StoredTransaction } from './backend/records';
import { validateStateObjectsPage } from './state/validate';
import { addToRanges, rangesContain, removeFromRanges, type LedgerRange } from './ledgers/ranges';
import { LedgerEvents, type LedgerEvent } from './ledgers/events';
import { missingFrom, rangesIntersection } from './ledgers/follow';
import { validateLedgerWrite, validateStateChanges } from './ledgers/validate';

const MAX_LEDGER_INDEX = 0xffffffff;
/**
 * The layout of the stored keys and values (storage/buckets.ts and the repositories). Every store
 * records it; a store of another version is refused at open, before anything is read or written.
 * A change of layout raises it.
 */
export const STORE_FORMAT_VERSION = 1;
/** GetTransactions answers at most this many hashes per call (ledgerstore.proto). */
export const MAX_TRANSACTIONS_PER_CALL = 1000;
/** How long a measured database size is reported before it is measured again. */
const SIZE_REFRESH_MS = 1_000;
/** Headers read per step while a watch replays stored ledgers. */
const REPLAY_PAGE = 64;
/** How often a follower (a standby, a reader) looks at the bookkeeping of the database it reads from. */
export const FOLLOW_INTERVAL_MS = 200;
/** New ledgers a follower takes on per look: a large backfill is taken in steps, the next one at once. */
const FOLLOW_LEDGERS_PER_STEP = 256;

/** Ledgers removed per atomic write when history is bounded (-ledger_history). */
export const PRUNE_BATCH = 16;
/** How often a store with bounded history looks for ledgers to remove. */
const PRUNE_INTERVAL_MS = 1_000;
/** State versions read per sweep write (bounded history). */
const SWEEP_VERSIONS = 4096;

/** Bounded history (-ledger_history): the newest `ledgers` are kept, the lowest removed in the background. */
export interface HistoryOptions {
  /** Ledgers kept, ending at the highest stored; 0 keeps every ledger. */
  ledgers: number;
  /**
   * The sender and the accounts a stored transaction's write indexed it under, derived from its
   * bytes as sync derived them (the same chain profile): its index entries and sent count go with it.
   */
  indexOf(tx: StoredTransaction, position: number): Pick<TransactionWrite, 'senderAccountId' | 'affectedAccounts'>;
  /** Ledgers per atomic removal (PRUNE_BATCH). */
  batch?: number;
  intervalMs?: number;
  /** A removal failed; it is tried again after the interval. */
  onError?: (error: unknown) => void;
  /** Ledgers were removed (for logs and tests). */
  onPruned?: (removed: LedgerRange) => void;
  /** Nothing is left to remove or sweep until the next ledger is stored. */
  onSettled?: () => void;
}

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

export interface StoreStatus {
  role: StoreRole;
  /** The role in words, with the database's location (never a password). */
  roleDetail: string;
  completeRanges: LedgerRange[];
  stateRange?: LedgerRange;
  stateDownload: StateDownload;
  lowestLedgerIndex?: number;
  highestLedgerIndex?: number;
  counters: StoreCounters;
  dbSizeBytes: number;
  chainIdentity?: ChainIdentity;
}

/** The chain a store is opened for: -chain and -network_id. */
export interface ChainOfStore {
  chain: string;
  networkId?: number;
}

/**
 * The operations of the LedgerStore contract over one backend (backend/backend.ts). One process
 * writes the store; within it every write goes through one queue so that the complete ranges and
 * counters, kept in memory and written with each ledger, never race. Other processes may follow a
 * PostgreSQL store (`follow`): they reload the bookkeeping from the database they read, publish
 * the ledgers that became complete, and refuse writes until promoted (`promote`).
 */
export class LedgerStore<Backend extends LedgerBackend = LedgerBackend> {
  readonly events = new LedgerEvents();

  private completeRanges: LedgerRange[] = [];
  /** Runs of ledgers stored with complete state changes (kept like completeRanges). */
  private stateRanges: LedgerRange[] = [];
  private download: StateDownloadRecord = NO_DOWNLOAD;
  private counters: StoreCounters = ZERO_COUNTERS;
  private writeQueue: Promise<unknown> = Promise.resolve();
  private measuredSize: { at: number; bytes: Promise<number> } | undefined;
  private currentRole: StoreRole = 'writer';
  /** Why writes are refused while this store is not the writer. */
  private refusal: string | undefined;
  private followTimer: NodeJS.Timeout | undefined;
  private following = false;
  /** A write failed in a way that leaves unknown whether the database took it. */
  private bookkeepingUncertain = false;
  private history: HistoryOptions | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  /** The state version sweep after a removal: the object to continue after, and whether ledgers were removed since it started. */
  private sweep: { afterKey: Buffer | undefined; restart: boolean } | undefined;

  /** The chain this store holds, once it holds a ledger. */
  private chainIdentity: ChainIdentity | undefined;
  /** The chain configured (-chain, -network_id): recorded with the first ledger. */
  private identityOf: ChainOfStore | undefined;

  private constructor(readonly backend: Backend) {}

  /**
   * Opens the store over `backend`, loading the bookkeeping every ledger's write updates. A store
   * of another format version is refused, and the backend closed.
   */
  static async open<Backend extends LedgerBackend>(backend: Backend, options: { follow?: FollowOptions; history?: HistoryOptions; chain?: ChainOfStore } = {}): Promise<LedgerStore<Backend>> {
    const store = new LedgerStore(backend);
    store.identityOf = options.chain;
    const bookkeeping = await backend.bookkeeping();
    try {
      if (options.history && options.history.ledgers > 0) {
        if (!backend.pruneLedgers || !backend.sweepStateVersions) throw new Error(`-ledger_history keeps a RocksDB store only; ${backend.location} keeps every ledger (leave -ledger_history at 0)`);
        if (options.follow) throw new Error('-ledger_history is kept by the writer of a store, not by a follower');
      }
      // A follower writes nothing: a standby records the version once it is the writer.
      if (!options.follow) await store.requireFormat(bookkeeping);
      else if (bookkeeping.formatVersion !== undefined || options.follow.role === 'reader') store.checkFormat(bookkeeping);
      if (options.chain && !options.follow) await store.requireChain(bookkeeping, options.chain);
    } catch (error) {
      await backend.close();
      throw error;
    }
    store.load(bookkeeping);
    if (options.follow) store.follow(options.follow);
    if (options.history && options.history.ledgers > 0) store.keepHistory(options.history);
    return store;
  }

  /** Refuses a store of another format; a reader also one that records none (its writer never opened it, or the replica has not copied it yet). */
  private checkFormat(bookkeeping: Bookkeeping): void {
    const version = bookkeeping.formatVersion;
    if (version === STORE_FORMAT_VERSION) return;
    if (version === undefined) {
      throw new Error(`${this.backend.location} records no store format version: its writer (-store) has not opened it yet, or this replica has not copied it yet`);
    }
    throw new Error(
      `${this.backend.location} is in store format ${Number.isNaN(version) ? '(unreadable)' : version}, and this ledger-node reads and writes format ${STORE_FORMAT_VERSION} only: ` +
        'run the ledger-node release that wrote it, or move it aside and sync again',
    );
  }

  /** As checkFormat, for the writer: a store that records no version (new, or written before versions were recorded) is format 1, and recorded so. */
  private async requireFormat(bookkeeping: Bookkeeping): Promise<void> {
    if (bookkeeping.formatVersion === undefined) await this.backend.recordFormatVersion(STORE_FORMAT_VERSION);
    else this.checkFormat(bookkeeping);
  }

  private load(bookkeeping: Bookkeeping): void {
    ({ completeRanges: this.completeRanges, counters: this.counters, stateRanges: this.stateRanges, download: this.download } = bookkeeping);
    // requireChain may have named a store that recorded no identity before this load.
    this.chainIdentity = bookkeeping.chainIdentity ?? this.chainIdentity;
  }

  /**
   * Refuses a store that holds another chain than the one configured (-chain, -network_id); a store
   * with ledgers and no identity (written before identities were recorded) is named by its highest.
   */
  private async requireChain(bookkeeping: Bookkeeping, configured: ChainOfStore): Promise<void> {
    const recorded = bookkeeping.chainIdentity;
    if (recorded) {
      if (recorded.chain !== configured.chain) {
        throw new Error(`${this.backend.location} holds a ${recorded.chain} chain, not the -chain ${configured.chain} one: give each chain its own -data_dir (or -database_name)`);
      }
      if (recorded.networkId !== undefined && configured.networkId !== undefined && recorded.networkId !== configured.networkId) {
        throw new Error(`${this.backend.location} holds the chain of network ${recorded.networkId}, not of -network_id ${configured.networkId}: give each network its own -data_dir (or -database_name)`);
      }
      return;
    }
    const highest = bookkeeping.completeRanges.at(-1)?.last;
    if (highest === undefined) return;
    const [header] = await this.backend.headers([highest]);
    if (header) await this.recordIdentity(header.ledgerIndex, header.ledgerHash);
  }

  private async recordIdentity(ledgerIndex: number, ledgerHash: Buffer): Promise<void> {
    const identity: ChainIdentity = { ...this.identityOf!, ledgerIndex, ledgerHash: Buffer.from(ledgerHash) };
    await this.backend.recordChainIdentity(identity);
    this.chainIdentity = identity;
  }

  close(): Promise<void> {
    this.stopFollowing();
    this.history = undefined;
    clearTimeout(this.pruneTimer);
    return this.exclusive(() => this.backend.close());
  }

  get role(): StoreRole {
    return this.currentRole;
  }

  // ---- bounded history ----

  /** Removes the lowest ledgers every interval, a batch per write, until the newest `ledgers` remain; then sweeps superseded state versions. */
  private keepHistory(history: HistoryOptions): void {
    this.history = history;
    const step = async () => {
      let more = false;
      try {
        more = await this.historyStep();
        if (!more) history.onSettled?.();
      } catch (error) {
        history.onError?.(error);
      }
      // Each step is its own write in the queue: reads never wait, and writes wait one batch at most.
      if (this.history === history) this.pruneTimer = setTimeout(() => void step(), more ? 0 : (history.intervalMs ?? PRUNE_INTERVAL_MS));
    };
    this.pruneTimer = setTimeout(() => void step(), 0);
  }

  /** One removal or sweep write; true when more work waits. */
  async historyStep(): Promise<boolean> {
    const removed = await this.write(() => this.pruneLowest());
    if (removed) {
      this.history?.onPruned?.(removed);
      this.sweep = this.sweep ? { ...this.sweep, restart: true } : { afterKey: undefined, restart: false };
      return true;
    }
    if (!this.sweep) return false;
    await this.write(() => this.sweepStep());
    return this.sweep !== undefined;
  }

  /** The lowest ledger kept: the highest stored minus the ledgers kept, plus one. */
  historyFloor(): number | undefined {
    const highest = this.highest();
    if (!this.history || highest === undefined) return undefined;
    return Math.max(1, highest - this.history.ledgers + 1);
  }

  /**
   * Removes up to a batch of the lowest stored ledgers below the kept window in one atomic write.
   * The complete ranges held in memory rise first, so that no read started from now on is told a
   * ledger exists that is going; reads of removed ledgers answer as for any ledger not stored.
   */
  private async pruneLowest(): Promise<LedgerRange | undefined> {
    const history = this.history;
    const floor = this.historyFloor();
    const lowest = this.lowest();
    if (!history || floor === undefined || lowest === undefined || lowest >= floor) return undefined;
    const headers = await this.backend.headersBetween(lowest, floor - 1, history.batch ?? PRUNE_BATCH);
    if (headers.length === 0) return undefined;
    const removed: { write: LedgerWrite; stored: StoredHeader }[] = [];
    for (const header of headers) {
      const transactions = (await this.backend.transactions(await this.backend.ledgerTransactionHashes(header.ledgerIndex))).map((tx) => requireStored(tx, header.ledgerIndex));
      removed.push({
        stored: header,
        write: {
          ledgerIndex: header.ledgerIndex,
          ledgerHash: header.ledgerHash,
          headerBlob: header.header,
          transactions: transactions.map((tx, position) => ({
            hash: tx.hash,
            txBlob: tx.txBlob,
            metaBlob: tx.metaBlob,
            txIndex: tx.txIndex,
            transactionType: tx.transactionType,
            engineResult: tx.engineResult,
            ...history.indexOf(tx, position),
          })),
          stateChanges: [],
          stateChangesComplete: false,
        },
      });
    }
    const ranges = headers.reduce((current, header) => removeFromRanges(current, header.ledgerIndex), this.completeRanges);
    this.completeRanges = ranges;
    this.counters = await this.backend.pruneLedgers!(removed, { completeRanges: ranges }, this.counters);
    return { first: headers[0].ledgerIndex, last: headers.at(-1)!.ledgerIndex };
  }

  /** One write of the state version sweep; a sweep that reached the end starts over when ledgers were removed meanwhile. */
  private async sweepStep(): Promise<void> {
    const keepLow = this.lowest();
    if (!this.sweep || keepLow === undefined) return;
    const { counters, nextAfterKey } = await this.backend.sweepStateVersions!(keepLow, this.sweep.afterKey, SWEEP_VERSIONS, this.counters);
    this.counters = counters;
    if (nextAfterKey) this.sweep = { ...this.sweep, afterKey: nextAfterKey };
    else this.sweep = this.sweep.restart ? { afterKey: undefined, restart: false } : undefined;
  }

  // ---- following a database another process writes ----

  /** Looks at the database every `intervalMs` (FOLLOW_INTERVAL_MS), writes refused, until closed or promoted. */
  private follow(options: FollowOptions): void {
    this.currentRole = options.role;
    this.refusal = options.refusal;
    this.following = true;
    const look = async () => {
      let more = false;
      try {
        more = await this.exclusive(() => this.followStep(FOLLOW_LEDGERS_PER_STEP));
      } catch (error) {
        options.onError?.(error);
      }
      if (this.following) this.followTimer = setTimeout(() => void look(), more ? 0 : (options.intervalMs ?? FOLLOW_INTERVAL_MS));
    };
    this.followTimer = setTimeout(() => void look(), options.intervalMs ?? FOLLOW_INTERVAL_MS);
  }

  private stopFollowing(): void {
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
    const bookkeeping = await this.backend.bookkeeping();
    if (bookkeeping.formatVersion !== undefined) this.checkFormat(bookkeeping);
    let ranges = rangesIntersection(this.completeRanges, bookkeeping.completeRanges);
    const added = missingFrom(ranges, bookkeeping.completeRanges, limit + 1);
    const more = added.length > limit;
    this.completeRanges = ranges;
    for (const header of await this.backend.headers(added.slice(0, limit))) {
      const event = await this.eventOfStored(header);
      const highestBefore = ranges.at(-1)?.last;
      ranges = addToRanges(ranges, header.ledgerIndex);
      this.completeRanges = ranges;
      this.events.publish({ ...event, extendsTip: highestBefore === undefined || header.ledgerIndex > highestBefore });
    }
    ({ counters: this.counters, stateRanges: this.stateRanges, download: this.download } = bookkeeping);
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
    await this.exclusive(async () => {
      await this.backend.fence();
      while (await this.followStep(FOLLOW_LEDGERS_PER_STEP));
      const bookkeeping = await this.backend.bookkeeping();
      await this.requireFormat(bookkeeping);
      this.load(bookkeeping);
      this.currentRole = 'writer';
      this.refusal = undefined;
    });
  }

  /** Throws Unavailable, with the reason, unless this store is the writer. */
  private requireWriter(): void {
    if (this.currentRole !== 'writer') throw new Unavailable(this.refusal ?? `this ledger-store is a ${this.currentRole} and takes no writes`);
  }

  /**
   * Runs a write after every write queued before it, if this store is still the writer then (each
   * caller checks it before validating too, so that a standby refuses as one). A write that failed
   * other than by the contract's refusals may have reached the database all the same (a PostgreSQL
   * COMMIT whose answer was lost): the next write reloads the bookkeeping first.
   */
  private write<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      this.requireWriter();
      if (this.bookkeepingUncertain) {
        this.load(await this.backend.bookkeeping());
        this.bookkeepingUncertain = false;
      }
      try {
        return await task();
      } catch (error) {
        if (!(error instanceof InvalidParams || error instanceof Conflict || error instanceof NotFound)) this.bookkeepingUncertain = true;
        throw error;
      }
    });
  }

  /** Runs `task` after every write queued before it and before any queued after it. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writeQueue.then(task);
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  get ranges(): readonly LedgerRange[] {
    return this.completeRanges;
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
    if (!window || !this.history || lowest === undefined || lowest <= window.low) return window;
    return { ...window, low: lowest, versionFloor: window.low };
  }

  /** The stored state was set aside (DeleteLedger) and no download has replaced it yet. */
  get stateSetAside(): boolean {
    return this.download.staleVersions === true;
  }

  get stateDownload(): StateDownload {
    const { ledgerIndex, marker, complete, objectCount } = this.download;
    return { ledgerIndex, marker, complete, objectCount };
  }

  // ---- writes ----

  /**
   * Stores one ledger in one atomic batch. Returns false when the identical ledger was already
   * stored; throws InvalidParams for a malformed write and Conflict when another hash is stored at
   * its index (nothing is written then).
   */
  async putLedger(write: LedgerWrite | undefined, path = 'ledger'): Promise<boolean> {
    return (await this.putLedgers([write], () => path)) === 1;
  }

  /**
   * Stores ledgers in the order given, those not stored before in one atomic batch (a crash keeps
   * all of them or none, so the complete ranges stay whole). A malformed write or a conflict ends
   * the call with its error after the ledgers before it are stored. Answers how many were stored
   * (identical ones already stored are not). `pathOf` names a write in errors.
   */
  async putLedgers(writes: readonly (LedgerWrite | undefined)[], pathOf = (position: number) => `ledgers[${position}]`): Promise<number> {
    this.requireWriter();
    const valid: LedgerWrite[] = [];
    let refusal: unknown;
    for (const [position, write] of writes.entries()) {
      try {
        validateLedgerWrite(write, pathOf(position));
        valid.push(write);
      } catch (error) {
        refusal = error;
        break;
      }
    }
    const { stored, conflict } = valid.length === 0 ? { stored: 0, conflict: undefined } : await this.write(() => this.writeValidated(valid));
    const failure = conflict ?? refusal;
    if (failure) throw failure;
    return stored;
  }

  /** Writes the ledgers up to the first that conflicts with a stored one (or one earlier in the list), and answers that conflict. */
  private async writeValidated(writes: readonly LedgerWrite[]): Promise<{ stored: number; conflict?: Conflict }> {
    const stored = new Map((await this.backend.headers(writes.map((write) => write.ledgerIndex))).map((header) => [header.ledgerIndex, header.ledgerHash]));
    /** Each ledger to add, with the complete ranges once it is stored. */
    const added: { write: LedgerWrite; completeRanges: LedgerRange[] }[] = [];
    let conflict: Conflict | undefined;
    let ranges = this.completeRanges;
    let stateRanges = this.stateRanges;
    for (const write of writes) {
      const { ledgerIndex } = write;
      if (this.stateSetAside && write.stateChanges.length > 0) {
        conflict = stateSetAsideFor(ledgerIndex);
        break;
      }
      const existing = stored.get(ledgerIndex);
      if (existing) {
        if (existing.equals(write.ledgerHash)) continue;
        conflict = new Conflict(
          `ledger ${ledgerIndex} is stored with hash ${existing.toString('hex').toUpperCase()}, not ${write.ledgerHash.toString('hex').toUpperCase()}`,
          { ledger_index: ledgerIndex },
        );
        break;
      }
      stored.set(ledgerIndex, write.ledgerHash);
      ranges = addToRanges(ranges, ledgerIndex);
      if (write.stateChangesComplete) stateRanges = addToRanges(stateRanges, ledgerIndex);
      added.push({ write, completeRanges: ranges });
    }
    if (added.length === 0) return { stored: 0, conflict };
    // A store's first ledger names the chain it holds (sync writes its first anchor alone).
    if (!this.chainIdentity && this.identityOf) await this.recordIdentity(added[0]!.write.ledgerIndex, added[0]!.write.ledgerHash);
    const stateChanged = stateRanges !== this.stateRanges;
    this.counters = await this.backend.addLedgers(
      added.map(({ write }) => write),
      { completeRanges: ranges, stateRanges: stateChanged ? stateRanges : undefined },
      this.counters,
    );
    for (const { write, completeRanges } of added) {
      const highestBefore = this.highest();
      this.completeRanges = completeRanges;
      this.events.publish({
        ledgerIndex: write.ledgerIndex,
        ledgerHash: write.ledgerHash,
        closeTime: closeTimeOf(write.headerBlob),
        transactions: write.transactions
          .map((tx) => ({ hash: tx.hash, engineResult: tx.engineResult, txIndex: tx.txIndex }))
          .sort((a, b) => a.txIndex - b.txIndex),
        extendsTip: highestBefore === undefined || write.ledgerIndex > highestBefore,
      });
    }
    this.stateRanges = stateRanges;
    return { stored: added.length, conflict };
  }

  /**
   * Removes a stored ledger that is not the network's with every entry its write made, in one
   * batch (see DeleteLedger); `write` is the ledger as its writer derives it from the stored bytes.
   * A ledger with account state stored at it takes the whole state with it: state proves a
   * ledger's account_hash, never the rest of its header, so the state built on a ledger the
   * network contradicts is not trusted either. True when the state was set aside.
   */
  async deleteLedger(write: LedgerWrite | undefined): Promise<boolean> {
    this.requireWriter();
    validateLedgerWrite(write, 'ledger');
    if (write.stateChanges.length > 0) throw new InvalidParams('ledger.state_changes must be empty: a ledger is removed without state', 'ledger.state_changes');
    return this.write(async () => {
      const { ledgerIndex } = write;
      const stored = await this.backend.header(ledgerIndex);
      if (!stored) throw new NotFound(`ledger ${ledgerIndex} is not stored`);
      if (!stored.ledgerHash.equals(write.ledgerHash)) {
        throw new Conflict(`ledger ${ledgerIndex} is stored with hash ${stored.ledgerHash.toString('hex').toUpperCase()}, not ${write.ledgerHash.toString('hex').toUpperCase()}`, {
          ledger_index: ledgerIndex,
        });
      }
      const stateSetAside = rangesContain(this.stateRanges, ledgerIndex) || (this.download.ledgerIndex === ledgerIndex && ledgerIndex !== 0);
      const ranges = removeFromRanges(this.completeRanges, ledgerIndex);
      this.counters = await this.backend.removeLedger(write, stored, { completeRanges: ranges, stateSetAside }, this.counters);
      this.completeRanges = ranges;
      if (stateSetAside) {
        this.stateRanges = [];
        this.download = STATE_SET_ASIDE;
      }
      return stateSetAside;
    });
  }

  /**
   * Stores the proven state changes of a stored ledger written without them (see PutStateChanges)
   * in one batch; the ledger then counts towards the state. Throws FailedPrecondition when the
   * ledger is not stored, Conflict when another hash is stored at its index.
   */
  async putStateChanges(request: PutStateChangesRequest): Promise<LedgerRange | undefined> {
    this.requireWriter();
    if (request.ledgerHash.length !== 32) throw new InvalidParams(`ledger_hash must be 32 bytes, got ${request.ledgerHash.length}`, 'ledger_hash');
    validateStateChanges(request.stateChanges, 'state_changes');
    return this.write(async () => {
      const { ledgerIndex } = request;
      const stored = await this.backend.header(ledgerIndex);
      if (!stored) throw new NotFound(`ledger ${ledgerIndex} is not stored; its state changes are not taken`);
      if (!stored.ledgerHash.equals(request.ledgerHash)) {
        throw new Conflict(
          `ledger ${ledgerIndex} is stored with hash ${stored.ledgerHash.toString('hex').toUpperCase()}, not ${Buffer.from(request.ledgerHash).toString('hex').toUpperCase()}`,
          { ledger_index: ledgerIndex },
        );
      }
      if (this.stateSetAside) throw stateSetAsideFor(ledgerIndex);
      const stateRanges = addToRanges(this.stateRanges, ledgerIndex);
      this.counters = await this.backend.addStateChanges(ledgerIndex, request.stateChanges, { stateRanges }, this.counters);
      this.stateRanges = stateRanges;
      return this.stateRangeAnswered();
    });
  }

  /**
   * Stores one page of the state download, staged (no read sees it), with the marker reached, in
   * one batch. A page for another ledger than an unfinished download restarts it there, and
   * `abandon` ends it: either way the staged pages are removed whole. `complete` (the writer
   * verified the staged state's root against the header's account_hash) promotes the staged
   * objects to versions at the download's ledger, batch by batch, and marks the download done in
   * the last batch; a crash before that leaves it unfinished and invisible. A complete download
   * is never restarted.
   */
  async putStateObjects(request: PutStateObjectsRequest): Promise<StateDownload> {
    this.requireWriter();
    validateStateObjectsPage(request);
    return this.write(async () => {
      const current = this.download;
      if (current.complete) {
        if (current.ledgerIndex === request.ledgerIndex && request.objects.length === 0 && request.complete) return this.stateDownload;
        throw new Conflict(`the state download at ledger ${current.ledgerIndex} is complete; it is not restarted`, {
          state_ledger_index: current.ledgerIndex,
        });
      }
      if (request.abandon || current.ledgerIndex !== request.ledgerIndex) {
        await this.backend.clearStagedState();
        if (request.abandon) {
          const none = { ...NO_DOWNLOAD, staleVersions: current.staleVersions };
          await this.backend.recordDownload(none);
          this.download = none;
          return this.stateDownload;
        }
      }
      const base: StateDownloadRecord = current.ledgerIndex !== request.ledgerIndex ? { ...NO_DOWNLOAD, ledgerIndex: request.ledgerIndex } : current;
      const record: StateDownloadRecord = {
        ledgerIndex: request.ledgerIndex,
        marker: request.complete ? Buffer.alloc(0) : Buffer.from(request.marker),
        complete: false,
        objectCount: base.objectCount + BigInt(request.objects.length),
        staleVersions: current.staleVersions,
      };
      await this.backend.stageStateObjects(request.objects, record);
      this.download = record;
      if (request.complete) {
        this.counters = await this.backend.promoteStagedState(record, this.counters);
        this.download = { ...record, complete: true, staleVersions: false };
      }
      return this.stateDownload;
    });
  }

  // ---- reads ----

  /** The stored ledger a selector names; undefined when none is stored there. */
  async resolve(selector: LedgerSelector | undefined, field = 'ledger'): Promise<StoredHeader | undefined> {
    const choice = selector?.selector;
    if (!choice) throw new InvalidParams(`${field} must name a ledger by index, hash or tag`, field);
    switch (choice.$case) {
      case 'index':
        return this.backend.header(choice.index);
      case 'hash': {
        if (choice.hash.length !== 32) throw new InvalidParams(`${field}.hash must be 32 bytes, got ${choice.hash.length}`, `${field}.hash`);
        const ledgerIndex = await this.backend.ledgerIndexOfHash(choice.hash);
        return ledgerIndex === undefined ? undefined : this.backend.header(ledgerIndex);
      }
      case 'tag': {
        const ledgerIndex = this.indexOfTag(choice.tag, `${field}.tag`);
        return ledgerIndex === undefined ? undefined : this.backend.header(ledgerIndex);
      }
    }
  }

  /**
   * The store holds validated ledgers only, so every tag but EARLIEST is the highest stored ledger
   * (common.proto LedgerTag: there is no open ledger to be CURRENT or PENDING).
   */
  private indexOfTag(tag: LedgerTag, field: string): number | undefined {
    switch (tag) {
      case LedgerTag.EARLIEST:
        return this.lowest();
      case LedgerTag.VALIDATED:
      case LedgerTag.CLOSED:
      case LedgerTag.CURRENT:
      case LedgerTag.LATEST:
      case LedgerTag.PENDING:
        return this.highest();
      default:
        throw new InvalidParams(`${field} must be one of VALIDATED, CLOSED, CURRENT, EARLIEST, LATEST, PENDING`, field);
    }
  }

  async ledgerRecord(header: StoredHeader, detail: TxDetail): Promise<LedgerRecord> {
    const record: LedgerRecord = {
      ledgerIndex: header.ledgerIndex,
      ledgerHash: header.ledgerHash,
      headerBlob: header.header,
      transactionCount: header.transactionCount,
      transactionHashes: [],
      transactions: [],
    };
    if (detail !== TxDetail.HASHES && detail !== TxDetail.FULL) return record;
    const hashes = await this.backend.ledgerTransactionHashes(header.ledgerIndex);
    if (detail === TxDetail.HASHES) return { ...record, transactionHashes: hashes };
    const transactions = await this.backend.transactions(hashes);
    return { ...record, transactions: transactions.map((tx) => transactionRecord(requireStored(tx, header.ledgerIndex), header)) };
  }

  async getLedger(selector: LedgerSelector | undefined, detail: TxDetail): Promise<LedgerRecord | undefined> {
    const header = await this.resolve(selector);
    return header && this.ledgerRecord(header, detail);
  }

  async getTransaction(hash: Buffer): Promise<TransactionRecord | undefined> {
    if (hash.length !== 32) throw new InvalidParams(`hash must be 32 bytes, got ${hash.length}`, 'hash');
    return (await this.getTransactions([hash]))[0];
  }

  /**
   * The stored transactions among `hashes`, in the order asked (a hash not stored has no entry):
   * one multi-get for the transactions and one for the headers of their ledgers.
   */
  async getTransactions(hashes: Buffer[]): Promise<TransactionRecord[]> {
    if (hashes.length > MAX_TRANSACTIONS_PER_CALL) throw new InvalidParams(`hashes holds more than ${MAX_TRANSACTIONS_PER_CALL} hashes`, 'hashes');
    hashes.forEach((hash, position) => {
      if (hash.length !== 32) throw new InvalidParams(`hashes[${position}] must be 32 bytes, got ${hash.length}`, `hashes[${position}]`);
    });
    const stored = (await this.backend.transactions(hashes)).filter((tx): tx is StoredTransaction => tx !== undefined);
    const headers = await this.backend.headers([...new Set(stored.map((tx) => tx.ledgerIndex))]);
    const headerByIndex = new Map(headers.map((header) => [header.ledgerIndex, header]));
    return stored.flatMap((tx) => {
      const header = headerByIndex.get(tx.ledgerIndex);
      return header ? [transactionRecord(tx, header)] : [];
    });
  }

  async getTransactionByIndex(selector: LedgerSelector | undefined, txIndex: number): Promise<TransactionRecord | undefined> {
    const header = await this.resolve(selector);
    if (!header) return undefined;
    const hash = await this.backend.transactionHashAt(header.ledgerIndex, txIndex);
    if (!hash) return undefined;
    const [tx] = await this.backend.transactions([hash]);
    return transactionRecord(requireStored(tx, header.ledgerIndex), header);
  }

  async status(): Promise<StoreStatus> {
    return {
      role: this.currentRole,
      roleDetail: this.refusal ?? `the writer of ${this.backend.location}`,
      completeRanges: [...this.completeRanges],
      stateRange: this.stateRangeAnswered(),
      stateDownload: this.stateDownload,
      lowestLedgerIndex: this.lowest(),
      highestLedgerIndex: this.highest(),
      counters: this.counters,
      dbSizeBytes: await this.sizeOnDisk(),
      ...(this.chainIdentity ? { chainIdentity: this.chainIdentity } : {}),
    };
  }

  /** The ledgers at which account state is answered, as a range. */
  stateRangeAnswered(): LedgerRange | undefined {
    const window = this.stateWindow();
    return window && { first: window.low, last: window.high };
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

  private async eventOfStored(header: StoredHeader): Promise<LedgerEvent> {
    const transactions = await this.backend.transactions(await this.backend.ledgerTransactionHashes(header.ledgerIndex));
    return {
      ledgerIndex: header.ledgerIndex,
      ledgerHash: header.ledgerHash,
      closeTime: closeTimeOf(header.header),
      transactions: transactions.map((tx) => {
        const stored = requireStored(tx, header.ledgerIndex);
        return { hash: stored.hash, engineResult: stored.engineResult, txIndex: stored.txIndex };
      }),
      extendsTip: false,
    };
  }

  /**
   * Stored ledgers from `fromLedgerIndex` upward (when given), then each ledger as it is stored:
   * every ledger with `includeBackfill`, else only those that extend the tip. No ledger is
   * delivered twice: live events that arrive while the replay runs are held back and dropped when
   * a replay page read (serialized with writes) already saw their ledger. Ends when `signal` aborts.
   */
  async *watch(options: { fromLedgerIndex?: number; includeBackfill: boolean }, signal: AbortSignal): AsyncGenerator<LedgerEvent> {
    const pending: LedgerEvent[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = this.events.subscribe((event) => {
      if (!options.includeBackfill && !event.extendsTip) return;
      pending.push(event);
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      let cursor = options.fromLedgerIndex;
      while (cursor !== undefined && !signal.aborted) {
        const from = cursor;
        const page = await this.exclusive(async () => {
          const headers = await this.backend.headersBetween(from, MAX_LEDGER_INDEX, REPLAY_PAGE);
          const coveredLast = headers.length < REPLAY_PAGE ? MAX_LEDGER_INDEX : headers[headers.length - 1].ledgerIndex;
          // Every write before this read has published its event: those the page covers are in it.
          for (let position = pending.length - 1; position >= 0; position--) {
            if (pending[position].ledgerIndex >= from && pending[position].ledgerIndex <= coveredLast) pending.splice(position, 1);
          }
          // A follower's database may hold ledgers it has not published yet: they come as live events.
          return { headers: headers.filter((header) => rangesContain(this.completeRanges, header.ledgerIndex)), read: headers.length, last: headers.at(-1)?.ledgerIndex };
        });
        for (const header of page.headers) {
          if (signal.aborted) return;
          yield await this.eventOfStored(header);
        }
        const last = page.last;
        cursor = page.read < REPLAY_PAGE || last === undefined || last === MAX_LEDGER_INDEX ? undefined : last + 1;
      }
      for (;;) {
        while (pending.length > 0) {
          if (signal.aborted) return;
          yield pending.shift()!;
        }
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }
}

function requireStored(tx: StoredTransaction | undefined, ledgerIndex: number): StoredTransaction {
  // A ledger's rows and its transactions are written in one batch: a missing one is corruption.
  if (!tx) throw new Internal(`ledger ${ledgerIndex} lists a transaction that is not stored`);
  return tx;
}

/** A stored transaction as the contract returns it, with its ledger's hash and close time. */
export function transactionRecord(tx: StoredTransaction, header: StoredHeader): TransactionRecord {
  return {
    hash: tx.hash,
    txBlob: tx.txBlob,
    metaBlob: tx.metaBlob,
    ledgerIndex: tx.ledgerIndex,
    txIndex: tx.txIndex,
    ledgerHash: header.ledgerHash,
    closeTimeRippleEpoch: closeTimeOf(header.header),
  };
}

/** State changes built on a state the store set aside are refused until a new download replaces it. */
function stateSetAsideFor(ledgerIndex: number): Conflict {
  return new Conflict(`the state changes of ledger ${ledgerIndex} are not taken: the stored account state was set aside and no download has replaced it yet`, {
    ledger_index: ledgerIndex,
  });
}
