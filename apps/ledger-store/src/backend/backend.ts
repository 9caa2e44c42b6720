/**
 * The storage engine under the LedgerStore contract. LedgerStore (store/) owns what the contract
 * means — validation, conflicts, the complete and state ranges, one writer queue, the event stream;
 * a backend owns how ledgers, their indexes and the versioned state are kept, and keeps each write
 * atomic: a ledger with every index entry and the bookkeeping after it, or nothing.
 *
 * KvLedgerBackend (kv-backend.ts) keeps them in an ordered key-value store (RocksDB, or memory in
 * unit tests); PgLedgerBackend (pg-backend.ts) in PostgreSQL tables, one per key bucket.
 */
import type { LedgerEvidence, LedgerWrite, StateObject, StateObjectChange } from '@ledger-node/contracts';
import type { LedgerRange } from '../ledgers/ranges';
import type {
  AccountTransactionEntry,
  ChainIdentity,
  HistoryPosition,
  KeyedObject,
  NftStateEntry,
  StateDownloadRecord,
  StateWindow,
  StoreCounters,
  StoredHeader,
  StoredTransaction,
} from './records';

/** What a store keeps beside the ledgers, as last written. */
export interface Bookkeeping {
  /** The store format the data was written in; undefined in a new store (or one from before versions were recorded). */
  formatVersion: number | undefined;
  completeRanges: LedgerRange[];
  /** Ledgers an import stored that nothing proved yet: no read serves them (store/unproven.ts). */
  unprovenRanges: LedgerRange[];
  /** Runs of ledgers stored with complete state changes. */
  stateRanges: LedgerRange[];
  counters: StoreCounters;
  download: StateDownloadRecord;
  /** The chain the store holds; undefined before its first ledger (or in a store older than the record). */
  chainIdentity: ChainIdentity | undefined;
}

/** The ranges a write leaves: the complete ranges, and the unproven ones when it changes them. */
export interface RangesAfter {
  completeRanges: LedgerRange[];
  unprovenRanges?: LedgerRange[];
}

export interface AccountHistoryScan {
  reverse?: boolean;
  limit?: number;
  firstLedger?: number;
  lastLedger?: number;
  /** Continue strictly after this position, in the direction of travel. */
  after?: HistoryPosition;
}

export interface LedgerBackend {
  /** The store's name in errors and logs (e.g. `the database at /data/node.db`). */
  readonly location: string;

  bookkeeping(): Promise<Bookkeeping>;
  recordFormatVersion(version: number): Promise<void>;
  recordChainIdentity(identity: ChainIdentity): Promise<void>;
  /**
   * Makes this process the one whose writes the database takes, before it reads the bookkeeping
   * it will write after: PostgreSQL raises the writer epoch, failing every later write of an
   * earlier writer; RocksDB's own lock already keeps a second process out.
   */
  fence(): Promise<void>;

  // ---- writes: each call is one atomic write; each answers the counters after it ----

  /**
   * Stores ledgers not stored before (LedgerStore checked), in order, all in one atomic write: each
   * with its transactions, their account and NFT index entries and sent counts, its state changes, and its
   * evidence (with the lists and manifests it names, each stored once);
   * `completeRanges` (and `stateRanges`, `unprovenRanges` when given) as the bookkeeping after them.
   */
  addLedgers(writes: readonly LedgerWrite[], after: RangesAfter & { stateRanges?: LedgerRange[] }, counters: StoreCounters): Promise<StoreCounters>;
  /** Records the ranges alone (unproven ledgers proven, store/unproven.ts), in one write. */
  recordRanges(after: Required<RangesAfter>): Promise<void>;
  /**
   * Removes a stored ledger (`stored`, the same hash as `write`) with every entry its write made,
   * its evidence included (the lists and manifests it named stay).
   * With `stateSetAside` the same write empties the state ranges and records STATE_SET_ASIDE as the
   * download: no read answers account state until a new download completes, and its promotion
   * removes the versions left.
   */
  removeLedger(write: LedgerWrite, stored: StoredHeader, after: RangesAfter & { stateSetAside?: boolean }, counters: StoreCounters): Promise<StoreCounters>;
  /**
   * Bounded history (-ledger_history), in backends that keep it (RocksDB): removes the lowest
   * stored ledgers, each with every entry its write made, its evidence included (`write`
   * re-derived from the stored bytes) — but of each NFToken's states the newest at or below the
   * highest removed ledger, which reads above it still find — in one atomic write with `completeRanges` as the
   * bookkeeping after it.
   */
  pruneLedgers?(removed: readonly { write: LedgerWrite; stored: StoredHeader }[], after: RangesAfter, counters: StoreCounters): Promise<StoreCounters>;
  /**
   * Removes, in one atomic write, state versions no read at or above `keepLow` uses (each object's
   * versions below its newest one at or below `keepLow`), objects after `afterKey` until about
   * `limit` versions were read; answers the counters and the object to continue after (undefined: done).
   */
  sweepStateVersions?(keepLow: number, afterKey: Buffer | undefined, limit: number, counters: StoreCounters): Promise<{ counters: StoreCounters; nextAfterKey: Buffer | undefined }>;
  /** Adds the state changes of a stored ledger written without them. */
  addStateChanges(ledgerIndex: number, changes: readonly StateObjectChange[], after: { stateRanges: LedgerRange[] }, counters: StoreCounters): Promise<StoreCounters>;
  /** Stages one page of the state download (read by nothing but the downloader) with the download's progress. */
  stageStateObjects(objects: readonly StateObject[], download: StateDownloadRecord): Promise<void>;
  /** Records the download's progress alone (an abandoned download). */
  recordDownload(download: StateDownloadRecord): Promise<void>;
  /** Removes every staged object of an unfinished download. */
  clearStagedState(): Promise<void>;
  /**
   * Makes every staged object its version at the download's ledger, after removing every stored
   * version and account creation when the download record has `staleVersions` (a state set aside
   * left them); the last write marks the download complete.
   */
  promoteStagedState(download: StateDownloadRecord, counters: StoreCounters): Promise<StoreCounters>;

  // ---- reads ----

  header(ledgerIndex: number): Promise<StoredHeader | undefined>;
  /** The stored headers among `ledgerIndexes`, in the order asked; absent ones are left out. */
  headers(ledgerIndexes: number[]): Promise<StoredHeader[]>;
  ledgerIndexOfHash(ledgerHash: Buffer): Promise<number | undefined>;
  /** Stored headers with `first <= index <= last`, ascending, at most `limit`. */
  headersBetween(first: number, last: number, limit?: number): Promise<StoredHeader[]>;
  /** The ledger's transaction hashes in tx index order. */
  ledgerTransactionHashes(ledgerIndex: number): Promise<Buffer[]>;
  transactionHashAt(ledgerIndex: number, txIndex: number): Promise<Buffer | undefined>;
  /** The evidence stored with the ledger, with the lists and manifests it names; undefined when it has none. */
  ledgerEvidence(ledgerIndex: number): Promise<LedgerEvidence | undefined>;
  /** The ledgers with `first <= index <= last` that have evidence stored, ascending. */
  evidencedBetween(first: number, last: number): Promise<number[]>;
  /** Transactions by hash, in the order asked; absent ones undefined. */
  transactions(hashes: Buffer[]): Promise<(StoredTransaction | undefined)[]>;
  /** The account's index entries in (ledger, tx index) order, or reverse. */
  accountTransactionEntries(accountId: Buffer, scan: AccountHistoryScan): AsyncIterable<AccountTransactionEntry>;
  /** The positions of the transactions that touched the NFToken, in (ledger, tx index) order, or reverse. */
  nftTransactionEntries(nftId: Buffer, scan: AccountHistoryScan): AsyncIterable<HistoryPosition>;
  /** The NFToken as each stored ledger at or below `ledgerIndex` that changed it left it, newest first. */
  nftStatesAtOrBelow(nftId: Buffer, ledgerIndex: number): AsyncIterable<NftStateEntry>;
  /** Transactions the account sent in stored ledgers up to and including `ledgerIndex`. */
  sentUpTo(accountId: Buffer, ledgerIndex: number): Promise<bigint>;
  /** The newest stored ledger at or below `ledgerIndex` that created the account's AccountRoot. */
  accountCreatedAtOrBelow(accountId: Buffer, ledgerIndex: number): Promise<number | undefined>;
  /** Keys of the trust lines the account is a side of (whether each exists at a ledger is its versions' answer). */
  trustLineKeys(accountId: Buffer): Promise<Buffer[]>;
  /** The state object at `ledgerIndex` inside `window`; undefined when it does not exist there. */
  stateObjectAt(objectKey: Buffer, ledgerIndex: number, window: StateWindow): Promise<Buffer | undefined>;
  /** As stateObjectAt for each of `objectKeys`, in the order asked (a key asked twice is answered twice), in one read where the engine can. */
  stateObjectsByKey(objectKeys: readonly Buffer[], ledgerIndex: number, window: StateWindow): Promise<(Buffer | undefined)[]>;
  /**
   * Objects existing at `ledgerIndex`, ascending by key, after `afterKey` and below `beforeKey`
   * (each bound exclusive, absent for none), at most `limit`, and the key to continue after.
   */
  stateObjectsAt(
    ledgerIndex: number,
    window: StateWindow,
    afterKey: Buffer | undefined,
    limit: number,
    beforeKey?: Buffer,
  ): Promise<{ objects: KeyedObject[]; nextAfterKey: Buffer | undefined }>;
  /** The running download's staged objects ascending by key, after `afterKey` and below `beforeKey` (when given), at most `limit`. */
  stagedStateObjects(afterKey: Buffer | undefined, limit: number, beforeKey?: Buffer): Promise<KeyedObject[]>;
  /** Approximate bytes on disk. */
  sizeOnDisk(): Promise<number>;
  close(): Promise<void>;
}
