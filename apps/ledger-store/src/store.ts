import {
  Direction,
  LedgerTag,
  StateChangeKind,
  TxDetail,
  type LedgerRecord,
  type LedgerSelector,
  type LedgerWrite,
  type PutStateChangesRequest,
  type PutStateObjectsRequest,
  type StateObjectChange,
  type TransactionWrite,
  type StateDownload,
  type TransactionRecord,
} from '@ledger-node/contracts';
import { Conflict, Internal, InvalidParams, NotFound } from '@ledger-node/errors';
import type { KeyValue, KvOperation } from './storage/kv';
import { closeTimeOf, decodeHeader, LedgerRepository, type StoredHeader } from './repositories/ledgers';
import { LedgerTransactionRepository, TransactionRepository, type StoredTransaction } from './repositories/transactions';
import { AccountCreationRepository, AccountSentCountRepository, AccountTransactionRepository, IndexDirection, blockOf } from './repositories/accounts';
import {
  NO_DOWNLOAD,
  StateMetaRepository,
  StagedStateRepository,
  StateObjectRepository,
  TrustLineRepository,
  stateWindow,
  type StateDownloadRecord,
  type StateWindow,
} from './repositories/stateObjects';
import { validateStateObjectsPage } from './state/validate';
import { StoreMetaRepository, type StoreCounters } from './repositories/storeMeta';
import { addToRanges, rangesContain, removeFromRanges, type LedgerRange } from './ledgers/ranges';
import { LedgerEvents, type LedgerEvent } from './ledgers/events';
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

export interface StoreStatus {
  completeRanges: LedgerRange[];
  stateRange?: LedgerRange;
  stateDownload: StateDownload;
  lowestLedgerIndex?: number;
  highestLedgerIndex?: number;
  counters: StoreCounters;
  dbSizeBytes: number;
}

/**
 * The typed repositories over one open database, and the operations of the LedgerStore contract
 * on them. One process owns the database; within it every write goes through one queue so that
 * the complete ranges and counters, kept in memory and written in each ledger's batch, never race.
 */
/** Staged state objects moved or removed per batch. */
const STAGE_BATCH = 4096;

/** The accounts a transaction's write indexes it under, one entry each; the sender's side wins when it is also listed as IN. */
function accountSides(tx: TransactionWrite): { accountId: Buffer; direction: IndexDirection }[] {
  const directions = new Map<string, { accountId: Buffer; direction: IndexDirection }>();
  directions.set(tx.senderAccountId.toString('hex'), { accountId: tx.senderAccountId, direction: IndexDirection.out });
  for (const affected of tx.affectedAccounts) {
    const hex = affected.accountId.toString('hex');
    const direction = affected.direction === Direction.OUT ? IndexDirection.out : IndexDirection.in;
    if (directions.get(hex)?.direction !== IndexDirection.out) directions.set(hex, { accountId: affected.accountId, direction });
  }
  return [...directions.values()];
}

/** Transactions each sender sent in the write. */
function sendersOf(write: LedgerWrite): { accountId: Buffer; sent: number }[] {
  const sentByAccount = new Map<string, { accountId: Buffer; sent: number }>();
  for (const tx of write.transactions) {
    const hex = tx.senderAccountId.toString('hex');
    const entry = sentByAccount.get(hex) ?? { accountId: tx.senderAccountId, sent: 0 };
    entry.sent++;
    sentByAccount.set(hex, entry);
  }
  return [...sentByAccount.values()];
}

export class LedgerStore {
  readonly ledgers: LedgerRepository;
  readonly transactions: TransactionRepository;
  readonly ledgerTransactions: LedgerTransactionRepository;
  readonly accountTransactions: AccountTransactionRepository;
  readonly sentCounts: AccountSentCountRepository;
  readonly stateObjects: StateObjectRepository;
  readonly stagedState: StagedStateRepository;
  readonly trustLines: TrustLineRepository;
  readonly accountCreations: AccountCreationRepository;
  readonly stateMeta: StateMetaRepository;
  readonly storeMeta: StoreMetaRepository;
  readonly events = new LedgerEvents();

  private completeRanges: LedgerRange[] = [];
  /** Runs of ledgers stored with complete state changes (kept like completeRanges). */
  private stateRanges: LedgerRange[] = [];
  private download: StateDownloadRecord = NO_DOWNLOAD;
  private counters: StoreCounters = { ledgerCount: 0n, transactionCount: 0n, stateObjectVersionCount: 0n };
  private writeQueue: Promise<unknown> = Promise.resolve();
  private measuredSize: { at: number; bytes: Promise<number> } | undefined;

  private constructor(readonly kv: KeyValue) {
    this.ledgers = new LedgerRepository(kv);
    this.transactions = new TransactionRepository(kv);
    this.ledgerTransactions = new LedgerTransactionRepository(kv);
    this.accountTransactions = new AccountTransactionRepository(kv);
    this.sentCounts = new AccountSentCountRepository(kv);
    this.stateObjects = new StateObjectRepository(kv);
    this.stagedState = new StagedStateRepository(kv);
    this.trustLines = new TrustLineRepository(kv);
    this.accountCreations = new AccountCreationRepository(kv);
    this.stateMeta = new StateMetaRepository(kv);
    this.storeMeta = new StoreMetaRepository(kv);
  }

  /**
   * Opens the store over `kv` (named `location` in errors), loading the bookkeeping every ledger's
   * batch updates. A store of another format version is refused, and `kv` closed.
   */
  static async open(kv: KeyValue, location = 'the database'): Promise<LedgerStore> {
    const store = new LedgerStore(kv);
    const version = await store.storeMeta.formatVersion();
    if (version !== STORE_FORMAT_VERSION) {
      if (version !== undefined) {
        await kv.close();
        throw new Error(
          `${location} is in store format ${Number.isNaN(version) ? '(unreadable)' : version}, and this ledger-node reads and writes format ${STORE_FORMAT_VERSION} only: ` +
            'run the ledger-node release that wrote it, or move it aside and sync again',
        );
      }
      // A new store, or one written before the version was recorded, whose layout is format 1.
      await kv.batch([store.storeMeta.formatVersionOperation(STORE_FORMAT_VERSION)]);
    }
    [store.completeRanges, store.counters, store.stateRanges, store.download] = await Promise.all([
      store.storeMeta.ranges(),
      store.storeMeta.counters(),
      store.stateMeta.stateRanges(),
      store.stateMeta.download(),
    ]);
    return store;
  }

  close(): Promise<void> {
    return this.exclusive(() => this.kv.close());
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
    return stateWindow(this.download, this.stateRanges);
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
    validateLedgerWrite(write, path);
    return this.exclusive(() => this.writeValidated(write));
  }

  private async writeValidated(write: LedgerWrite): Promise<boolean> {
    const ledgerIndex = write.ledgerIndex;
    const headerKey = LedgerRepository.headerKey(ledgerIndex);

    const senders = sendersOf(write);
    const blockKeys = senders.map((sender) => AccountSentCountRepository.blockKey(sender.accountId, blockOf(ledgerIndex)));
    const [existing, blockTotals, state] = await Promise.all([
      this.kv.get(headerKey),
      this.kv.getMany(blockKeys),
      this.stateChangeOperations(ledgerIndex, write.stateChanges),
    ]);
    if (existing) {
      const existingHash = decodeHeader(ledgerIndex, existing).ledgerHash;
      if (existingHash.equals(write.ledgerHash)) return false;
      throw new Conflict(
        `ledger ${ledgerIndex} is stored with hash ${existingHash.toString('hex').toUpperCase()}, not ${write.ledgerHash.toString('hex').toUpperCase()}`,
        { ledger_index: ledgerIndex },
      );
    }

    const operations: KvOperation[] = this.ledgers.putOperations({
      ledgerIndex,
      header: write.headerBlob,
      ledgerHash: write.ledgerHash,
      transactionCount: write.transactions.length,
    });
    for (const tx of write.transactions) {
      operations.push(
        this.transactions.putOperation({
          hash: tx.hash,
          ledgerIndex,
          txIndex: tx.txIndex,
          engineResult: tx.engineResult,
          transactionType: tx.transactionType,
          txBlob: tx.txBlob,
          metaBlob: tx.metaBlob,
        }),
        this.ledgerTransactions.putOperation(ledgerIndex, tx.txIndex, tx.hash),
      );
      for (const { accountId, direction } of accountSides(tx)) {
        operations.push(
          this.accountTransactions.putOperation({ accountId, ledgerIndex, txIndex: tx.txIndex, direction, transactionType: tx.transactionType }),
        );
      }
    }
    senders.forEach((sender, position) =>
      operations.push(
        ...this.sentCounts.putOperations(sender.accountId, ledgerIndex, sender.sent, AccountSentCountRepository.decodeBlockTotal(blockTotals[position])),
      ),
    );

    operations.push(...state.operations);
    const stateRanges = write.stateChangesComplete ? addToRanges(this.stateRanges, ledgerIndex) : this.stateRanges;
    if (write.stateChangesComplete) operations.push(this.stateMeta.stateRangesOperation(stateRanges));

    const highestBefore = this.highest();
    const ranges = addToRanges(this.completeRanges, ledgerIndex);
    const counters: StoreCounters = {
      ledgerCount: this.counters.ledgerCount + 1n,
      transactionCount: this.counters.transactionCount + BigInt(write.transactions.length),
      stateObjectVersionCount: this.counters.stateObjectVersionCount + state.newVersions,
    };
    operations.push(this.storeMeta.rangesOperation(ranges), this.storeMeta.countersOperation(counters));

    await this.kv.batch(operations);
    this.completeRanges = ranges;
    this.stateRanges = stateRanges;
    this.counters = counters;

    this.events.publish({
      ledgerIndex,
      ledgerHash: write.ledgerHash,
      closeTime: closeTimeOf(write.headerBlob),
      transactions: write.transactions
        .map((tx) => ({ hash: tx.hash, engineResult: tx.engineResult, txIndex: tx.txIndex }))
        .sort((a, b) => a.txIndex - b.txIndex),
      extendsTip: highestBefore === undefined || ledgerIndex > highestBefore,
    });
    return true;
  }

  /**
   * The versions, trust-line memberships and account creations of a ledger's state changes: each
   * object after the ledger at its index, and before it at the previous index unless a version is
   * stored there (that ledger's own after-image is the same object and is never overwritten).
   */
  private async stateChangeOperations(ledgerIndex: number, changes: readonly StateObjectChange[]): Promise<{ operations: KvOperation[]; newVersions: bigint }> {
    const hasPrevious = (change: StateObjectChange) => change.previousBlob !== undefined && ledgerIndex > 1;
    const withPrevious = changes.filter(hasPrevious);
    const [stored, storedBefore] = await Promise.all([
      this.kv.getMany(changes.map((change) => StateObjectRepository.versionKey(change.key, ledgerIndex))),
      this.kv.getMany(withPrevious.map((change) => StateObjectRepository.versionKey(change.key, ledgerIndex - 1))),
    ]);
    const previousStored = new Map(withPrevious.map((change, position) => [change, storedBefore[position] !== undefined]));
    const operations: KvOperation[] = [];
    let newVersions = 0n;
    changes.forEach((change, position) => {
      operations.push(this.stateObjects.putOperation(change.key, ledgerIndex, change.blob.length === 0 ? undefined : change.blob));
      if (stored[position] === undefined) newVersions++;
      if (hasPrevious(change) && !previousStored.get(change)) {
        operations.push(this.stateObjects.putOperation(change.key, ledgerIndex - 1, change.previousBlob));
        newVersions++;
      }
      for (const owner of change.ownerAccountIds) operations.push(this.trustLines.putOperation(owner, change.key));
      if (change.kind === StateChangeKind.CREATED && change.accountId.length === 20) {
        operations.push(this.accountCreations.putOperation(change.accountId, ledgerIndex));
      }
    });
    return { operations, newVersions };
  }

  /**
   * Removes a stored ledger that is not the network's with every entry its write made, in one
   * batch (see DeleteLedger); `write` is the ledger as its writer derives it from the stored bytes.
   */
  async deleteLedger(write: LedgerWrite | undefined): Promise<void> {
    validateLedgerWrite(write, 'ledger');
    if (write.stateChanges.length > 0) throw new InvalidParams('ledger.state_changes must be empty: a ledger is removed without state', 'ledger.state_changes');
    return this.exclusive(async () => {
      const { ledgerIndex } = write;
      const stored = await this.ledgers.get(ledgerIndex);
      if (!stored) throw new NotFound(`ledger ${ledgerIndex} is not stored`);
      if (!stored.ledgerHash.equals(write.ledgerHash)) {
        throw new Conflict(`ledger ${ledgerIndex} is stored with hash ${stored.ledgerHash.toString('hex').toUpperCase()}, not ${write.ledgerHash.toString('hex').toUpperCase()}`, {
          ledger_index: ledgerIndex,
        });
      }
      if (rangesContain(this.stateRanges, ledgerIndex)) {
        throw new InvalidParams(`ledger ${ledgerIndex} has its account state stored, which proves it; it is not removed`, 'ledger.ledger_index');
      }
      const senders = sendersOf(write);
      const [records, blockTotals] = await Promise.all([
        this.transactions.getMany(write.transactions.map((tx) => tx.hash)),
        this.kv.getMany(senders.map((sender) => AccountSentCountRepository.blockKey(sender.accountId, blockOf(ledgerIndex)))),
      ]);
      const operations: KvOperation[] = this.ledgers.deleteOperations(stored);
      write.transactions.forEach((tx, position) => {
        // A transaction record belongs to the ledger that holds it (the same hash in another ledger is another record).
        if (records[position]?.ledgerIndex === ledgerIndex) operations.push(this.transactions.deleteOperation(tx.hash));
        operations.push(this.ledgerTransactions.deleteOperation(ledgerIndex, tx.txIndex));
        for (const { accountId } of accountSides(tx)) operations.push(this.accountTransactions.deleteOperation(accountId, ledgerIndex, tx.txIndex));
      });
      senders.forEach((sender, position) =>
        operations.push(...this.sentCounts.deleteOperations(sender.accountId, ledgerIndex, sender.sent, AccountSentCountRepository.decodeBlockTotal(blockTotals[position]))),
      );
      const ranges = removeFromRanges(this.completeRanges, ledgerIndex);
      const counters: StoreCounters = {
        ...this.counters,
        ledgerCount: this.counters.ledgerCount - 1n,
        transactionCount: this.counters.transactionCount - BigInt(write.transactions.length),
      };
      operations.push(this.storeMeta.rangesOperation(ranges), this.storeMeta.countersOperation(counters));
      await this.kv.batch(operations);
      this.completeRanges = ranges;
      this.counters = counters;
    });
  }

  /**
   * Stores the proven state changes of a stored ledger written without them (see PutStateChanges)
   * in one batch; the ledger then counts towards the state. Throws FailedPrecondition when the
   * ledger is not stored, Conflict when another hash is stored at its index.
   */
  async putStateChanges(request: PutStateChangesRequest): Promise<LedgerRange | undefined> {
    if (request.ledgerHash.length !== 32) throw new InvalidParams(`ledger_hash must be 32 bytes, got ${request.ledgerHash.length}`, 'ledger_hash');
    validateStateChanges(request.stateChanges, 'state_changes');
    return this.exclusive(async () => {
      const { ledgerIndex } = request;
      const stored = await this.ledgers.get(ledgerIndex);
      if (!stored) throw new NotFound(`ledger ${ledgerIndex} is not stored; its state changes are not taken`);
      if (!stored.ledgerHash.equals(request.ledgerHash)) {
        throw new Conflict(
          `ledger ${ledgerIndex} is stored with hash ${stored.ledgerHash.toString('hex').toUpperCase()}, not ${Buffer.from(request.ledgerHash).toString('hex').toUpperCase()}`,
          { ledger_index: ledgerIndex },
        );
      }
      const state = await this.stateChangeOperations(ledgerIndex, request.stateChanges);
      const stateRanges = addToRanges(this.stateRanges, ledgerIndex);
      const counters: StoreCounters = { ...this.counters, stateObjectVersionCount: this.counters.stateObjectVersionCount + state.newVersions };
      await this.kv.batch([...state.operations, this.stateMeta.stateRangesOperation(stateRanges), this.storeMeta.countersOperation(counters)]);
      this.stateRanges = stateRanges;
      this.counters = counters;
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
    validateStateObjectsPage(request);
    return this.exclusive(async () => {
      const current = this.download;
      if (current.complete) {
        if (current.ledgerIndex === request.ledgerIndex && request.objects.length === 0 && request.complete) return this.stateDownload;
        throw new Conflict(`the state download at ledger ${current.ledgerIndex} is complete; it is not restarted`, {
          state_ledger_index: current.ledgerIndex,
        });
      }
      if (request.abandon || current.ledgerIndex !== request.ledgerIndex) {
        await this.clearStagedState();
        if (request.abandon) {
          await this.kv.batch([this.stateMeta.downloadOperation(NO_DOWNLOAD)]);
          this.download = NO_DOWNLOAD;
          return this.stateDownload;
        }
      }
      const base: StateDownloadRecord = current.ledgerIndex !== request.ledgerIndex ? { ...NO_DOWNLOAD, ledgerIndex: request.ledgerIndex } : current;
      const operations: KvOperation[] = [];
      for (const object of request.objects) {
        operations.push(this.stagedState.putOperation(object.key, object.blob));
        for (const owner of object.ownerAccountIds) operations.push(this.trustLines.putOperation(owner, object.key));
      }
      const record: StateDownloadRecord = {
        ledgerIndex: request.ledgerIndex,
        marker: request.complete ? Buffer.alloc(0) : Buffer.from(request.marker),
        complete: false,
        objectCount: base.objectCount + BigInt(request.objects.length),
      };
      operations.push(this.stateMeta.downloadOperation(record));
      await this.kv.batch(operations);
      this.download = record;
      if (request.complete) await this.promoteStagedState(record);
      return this.stateDownload;
    });
  }

  /** Every staged object becomes its version at the download's ledger; the last batch marks the download complete. */
  private async promoteStagedState(record: StateDownloadRecord): Promise<void> {
    for (;;) {
      const page = await this.stagedState.page(undefined, STAGE_BATCH);
      const versionKeys = page.map((object) => StateObjectRepository.versionKey(object.key, record.ledgerIndex));
      const existing = page.length > 0 ? await this.kv.getMany(versionKeys) : [];
      const operations: KvOperation[] = page.flatMap((object) => [
        this.stateObjects.putOperation(object.key, record.ledgerIndex, object.blob),
        this.stagedState.deleteOperation(object.key),
      ]);
      const newVersions = BigInt(existing.filter((version) => version === undefined).length);
      const counters: StoreCounters = { ...this.counters, stateObjectVersionCount: this.counters.stateObjectVersionCount + newVersions };
      const last = page.length < STAGE_BATCH;
      const completed: StateDownloadRecord = { ...record, complete: true };
      operations.push(this.storeMeta.countersOperation(counters));
      if (last) operations.push(this.stateMeta.downloadOperation(completed));
      await this.kv.batch(operations);
      this.counters = counters;
      if (last) {
        this.download = completed;
        return;
      }
    }
  }

  /** Removes every staged object of an unfinished download. */
  private async clearStagedState(): Promise<void> {
    for (;;) {
      const page = await this.stagedState.page(undefined, STAGE_BATCH);
      if (page.length === 0) return;
      await this.kv.batch(page.map((object) => this.stagedState.deleteOperation(object.key)));
    }
  }

  // ---- reads ----

  /** The stored ledger a selector names; undefined when none is stored there. */
  async resolve(selector: LedgerSelector | undefined, field = 'ledger'): Promise<StoredHeader | undefined> {
    const choice = selector?.selector;
    if (!choice) throw new InvalidParams(`${field} must name a ledger by index, hash or tag`, field);
    switch (choice.$case) {
      case 'index':
        return this.ledgers.get(choice.index);
      case 'hash': {
        if (choice.hash.length !== 32) throw new InvalidParams(`${field}.hash must be 32 bytes, got ${choice.hash.length}`, `${field}.hash`);
        const ledgerIndex = await this.ledgers.indexOfHash(choice.hash);
        return ledgerIndex === undefined ? undefined : this.ledgers.get(ledgerIndex);
      }
      case 'tag': {
        const ledgerIndex = this.indexOfTag(choice.tag, `${field}.tag`);
        return ledgerIndex === undefined ? undefined : this.ledgers.get(ledgerIndex);
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
    const hashes = (await this.ledgerTransactions.ofLedger(header.ledgerIndex)).map((row) => row.hash);
    if (detail === TxDetail.HASHES) return { ...record, transactionHashes: hashes };
    const transactions = await this.transactions.getMany(hashes);
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
    const stored = (await this.transactions.getMany(hashes)).filter((tx): tx is StoredTransaction => tx !== undefined);
    const headers = await this.ledgers.getMany([...new Set(stored.map((tx) => tx.ledgerIndex))]);
    const headerByIndex = new Map(headers.map((header) => [header.ledgerIndex, header]));
    return stored.flatMap((tx) => {
      const header = headerByIndex.get(tx.ledgerIndex);
      return header ? [transactionRecord(tx, header)] : [];
    });
  }

  async getTransactionByIndex(selector: LedgerSelector | undefined, txIndex: number): Promise<TransactionRecord | undefined> {
    const header = await this.resolve(selector);
    if (!header) return undefined;
    const hash = await this.ledgerTransactions.hashAt(header.ledgerIndex, txIndex);
    if (!hash) return undefined;
    const tx = await this.transactions.get(hash);
    return transactionRecord(requireStored(tx, header.ledgerIndex), header);
  }

  async status(): Promise<StoreStatus> {
    return {
      completeRanges: [...this.completeRanges],
      stateRange: this.stateRangeAnswered(),
      stateDownload: this.stateDownload,
      lowestLedgerIndex: this.lowest(),
      highestLedgerIndex: this.highest(),
      counters: this.counters,
      dbSizeBytes: await this.sizeOnDisk(),
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
      const measured = { at: now, bytes: this.kv.sizeOnDisk() };
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
    const rows = await this.ledgerTransactions.ofLedger(header.ledgerIndex);
    const transactions = await this.transactions.getMany(rows.map((row) => row.hash));
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
          const headers = await this.ledgers.range(from, MAX_LEDGER_INDEX, REPLAY_PAGE);
          const coveredLast = headers.length < REPLAY_PAGE ? MAX_LEDGER_INDEX : headers[headers.length - 1].ledgerIndex;
          // Every write before this read has published its event: those the page covers are in it.
          for (let position = pending.length - 1; position >= 0; position--) {
            if (pending[position].ledgerIndex >= from && pending[position].ledgerIndex <= coveredLast) pending.splice(position, 1);
          }
          return headers;
        });
        for (const header of page) {
          if (signal.aborted) return;
          yield await this.eventOfStored(header);
        }
        const last = page.at(-1)?.ledgerIndex;
        cursor = page.length < REPLAY_PAGE || last === undefined || last === MAX_LEDGER_INDEX ? undefined : last + 1;
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
