/**
 * The LedgerStore backend over an ordered key-value store (RocksDB; memory in unit tests): typed
 * repositories, one per bucket (storage/buckets.ts), and every write one atomic batch.
 */
import { StateChangeKind, type LedgerEvidence, type LedgerWrite, type StateObject, type StateObjectChange } from '@ledger-node/contracts';
import type { KeyValue, KvOperation } from '../storage/kv';
import type { LedgerRange } from '../ledgers/ranges';
import { LedgerRepository } from '../repositories/ledgers';
import { LedgerTransactionRepository, TransactionRepository } from '../repositories/transactions';
import { AccountCreationRepository, AccountSentCountRepository, AccountTransactionRepository, blockOf } from '../repositories/accounts';
import { StagedStateRepository, StateMetaRepository, StateObjectRepository, TrustLineRepository } from '../repositories/stateObjects';
import { StoreMetaRepository } from '../repositories/storeMeta';
import { EvidenceRepository, evidenceRows } from '../repositories/evidence';
import { NftStateRepository, NftTransactionRepository } from '../repositories/nfts';
import { Bucket, bucketRange, type BucketId } from '../storage/buckets';
import type { AccountHistoryScan, Bookkeeping, LedgerBackend, RangesAfter } from './backend';
import {
  type ChainIdentity,
  accountSides,
  countersAfterAdding,
  countersAfterPruning,
  countersAfterRemoving,
  countersWithoutEvidence,
  countersWithNewVersions,
  hasPreviousImage,
  nftStatesOf,
  nftTransactionsOf,
  STATE_SET_ASIDE,
  sendersOf,
  type AccountTransactionEntry,
  type HistoryPosition,
  type KeyedObject,
  type NftStateEntry,
  type StateDownloadRecord,
  type StateWindow,
  type StoreCounters,
  type StoredHeader,
  type StoredTransaction,
} from './records';

/** Staged state objects moved or removed per batch. */
const STAGE_BATCH = 4096;

export class KvLedgerBackend implements LedgerBackend {
  readonly ledgers: LedgerRepository;
  readonly transactionRecords: TransactionRepository;
  readonly ledgerTransactions: LedgerTransactionRepository;
  readonly accountTransactions: AccountTransactionRepository;
  readonly sentCounts: AccountSentCountRepository;
  readonly stateObjects: StateObjectRepository;
  readonly stagedState: StagedStateRepository;
  readonly trustLines: TrustLineRepository;
  readonly accountCreations: AccountCreationRepository;
  readonly stateMeta: StateMetaRepository;
  readonly storeMeta: StoreMetaRepository;
  readonly evidence: EvidenceRepository;
  readonly nftTransactions: NftTransactionRepository;
  readonly nftStates: NftStateRepository;

  constructor(
    readonly kv: KeyValue,
    readonly location = 'the database',
  ) {
    this.ledgers = new LedgerRepository(kv);
    this.transactionRecords = new TransactionRepository(kv);
    this.ledgerTransactions = new LedgerTransactionRepository(kv);
    this.accountTransactions = new AccountTransactionRepository(kv);
    this.sentCounts = new AccountSentCountRepository(kv);
    this.stateObjects = new StateObjectRepository(kv);
    this.stagedState = new StagedStateRepository(kv);
    this.trustLines = new TrustLineRepository(kv);
    this.accountCreations = new AccountCreationRepository(kv);
    this.stateMeta = new StateMetaRepository(kv);
    this.storeMeta = new StoreMetaRepository(kv);
    this.evidence = new EvidenceRepository(kv);
    this.nftTransactions = new NftTransactionRepository(kv);
    this.nftStates = new NftStateRepository(kv);
  }

  async bookkeeping(): Promise<Bookkeeping> {
    const [formatVersion, completeRanges, unprovenRanges, counters, stateRanges, download, chainIdentity] = await Promise.all([
      this.storeMeta.formatVersion(),
      this.storeMeta.ranges(),
      this.storeMeta.unprovenRanges(),
      this.storeMeta.counters(),
      this.stateMeta.stateRanges(),
      this.stateMeta.download(),
      this.storeMeta.chainIdentity(),
    ]);
    return { formatVersion, completeRanges, unprovenRanges, counters, stateRanges, download, chainIdentity };
  }

  recordFormatVersion(version: number): Promise<void> {
    return this.kv.batch([this.storeMeta.formatVersionOperation(version)]);
  }

  recordChainIdentity(identity: ChainIdentity): Promise<void> {
    return this.kv.batch([this.storeMeta.chainIdentityOperation(identity)]);
  }

  /** RocksDB's lock keeps every other process out of the database: nothing to fence. */
  async fence(): Promise<void> {}

  // ---- writes ----

  async addLedgers(writes: readonly LedgerWrite[], after: RangesAfter & { stateRanges?: LedgerRange[] }, counters: StoreCounters): Promise<StoreCounters> {
    // The block totals and stored versions the batch builds on, read once; each ledger's operations
    // then see those of the ledgers before it in the batch.
    const blockKeys = uniqueKeys(writes.flatMap((write) => sendersOf(write).map((sender) => AccountSentCountRepository.blockKey(sender.accountId, blockOf(write.ledgerIndex)))));
    const evidence = new Map(writes.flatMap((write) => (write.evidence ? [[write.ledgerIndex, evidenceRows(write.evidence)] as const] : [])));
    const [blockTotals, storedVersions, storedEvidence] = await Promise.all([
      this.kv.getMany(blockKeys),
      this.storedKeys(writes.flatMap((write) => versionKeysRead(write.ledgerIndex, write.stateChanges))),
      this.storedKeys([...evidence.values()].flatMap((rows) => EvidenceRepository.sharedKeys(rows))),
    ]);
    const totals = new Map(blockKeys.map((key, position) => [key.toString('hex'), AccountSentCountRepository.decodeBlockTotal(blockTotals[position])]));
    const operations: KvOperation[] = [];
    let next = counters;
    for (const write of writes) {
      operations.push(...this.ledgerOperations(write, totals));
      const rows = evidence.get(write.ledgerIndex);
      if (rows) operations.push(...this.evidence.putOperations(write.ledgerIndex, rows, storedEvidence));
      const state = this.stateChangeOperations(write.ledgerIndex, write.stateChanges, storedVersions);
      operations.push(...state.operations);
      next = countersAfterAdding(next, write, state.newVersions);
    }
    if (after.stateRanges) operations.push(this.stateMeta.stateRangesOperation(after.stateRanges));
    operations.push(...this.storeMeta.rangesOperations(after), this.storeMeta.countersOperation(next));
    await this.kv.batch(operations);
    return next;
  }

  recordRanges(after: Required<RangesAfter>): Promise<void> {
    return this.kv.batch(this.storeMeta.rangesOperations(after));
  }

  /** A ledger's header, transactions, account and NFT index entries and sent counts; `blockTotals` (by block key, hex) are read and updated. */
  private ledgerOperations(write: LedgerWrite, blockTotals: Map<string, number>): KvOperation[] {
    const { ledgerIndex } = write;
    const operations: KvOperation[] = this.ledgers.putOperations({
      ledgerIndex,
      header: write.headerBlob,
      ledgerHash: write.ledgerHash,
      transactionCount: write.transactions.length,
    });
    for (const tx of write.transactions) {
      operations.push(
        this.transactionRecords.putOperation({
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
        operations.push(this.accountTransactions.putOperation({ accountId, ledgerIndex, txIndex: tx.txIndex, direction, transactionType: tx.transactionType }));
      }
    }
    for (const { nftId, txIndex } of nftTransactionsOf(write)) operations.push(this.nftTransactions.putOperation(nftId, ledgerIndex, txIndex));
    for (const state of nftStatesOf(write)) operations.push(this.nftStates.putOperation(state));
    for (const sender of sendersOf(write)) {
      const blockKey = AccountSentCountRepository.blockKey(sender.accountId, blockOf(ledgerIndex)).toString('hex');
      const before = blockTotals.get(blockKey) ?? 0;
      operations.push(...this.sentCounts.putOperations(sender.accountId, ledgerIndex, sender.sent, before));
      blockTotals.set(blockKey, before + sender.sent);
    }
    return operations;
  }

  async removeLedger(write: LedgerWrite, stored: StoredHeader, after: RangesAfter & { stateSetAside?: boolean }, counters: StoreCounters): Promise<StoreCounters> {
    const { operations, evidenceRemoved } = await this.removalOperations([{ write, stored }]);
    const next = countersWithoutEvidence(countersAfterRemoving(counters, write), evidenceRemoved);
    operations.push(...this.storeMeta.rangesOperations(after), this.storeMeta.countersOperation(next));
    if (after.stateSetAside) operations.push(this.stateMeta.stateRangesOperation([]), this.stateMeta.downloadOperation(STATE_SET_ASIDE));
    await this.kv.batch(operations);
    return next;
  }

  async pruneLedgers(removed: readonly { write: LedgerWrite; stored: StoredHeader }[], after: RangesAfter, counters: StoreCounters): Promise<StoreCounters> {
    const { operations, evidenceRemoved } = await this.removalOperations(removed, { keepNftStates: true });
    operations.push(...(await this.supersededNftStateOperations(removed.map(({ write }) => write))));
    const next = countersWithoutEvidence(countersAfterPruning(counters, removed.map(({ write }) => write), 0n), evidenceRemoved);
    operations.push(...this.storeMeta.rangesOperations(after), this.storeMeta.countersOperation(next));
    await this.kv.batch(operations);
    return next;
  }

  /**
   * Every entry the writes of stored ledgers made but their state: headers, evidence, transactions,
   * account index entries, sent counts (block totals read once and lowered ledger by ledger); and
   * how many of the ledgers had evidence.
   */
  private async removalOperations(
    removed: readonly { write: LedgerWrite; stored: StoredHeader }[],
    options: { keepNftStates?: boolean } = {},
  ): Promise<{ operations: KvOperation[]; evidenceRemoved: number }> {
    const blockKeys = uniqueKeys(removed.flatMap(({ write }) => sendersOf(write).map((sender) => AccountSentCountRepository.blockKey(sender.accountId, blockOf(write.ledgerIndex)))));
    const [records, blockValues, withEvidence] = await Promise.all([
      this.transactionRecords.getMany(removed.flatMap(({ write }) => write.transactions.map((tx) => tx.hash))),
      this.kv.getMany(blockKeys),
      this.storedKeys(removed.map(({ write }) => EvidenceRepository.recordKey(write.ledgerIndex))),
    ]);
    const totals = new Map(blockKeys.map((key, position) => [key.toString('hex'), AccountSentCountRepository.decodeBlockTotal(blockValues[position])]));
    const operations: KvOperation[] = [];
    let recordPosition = 0;
    for (const { write, stored } of removed) {
      const { ledgerIndex } = write;
      operations.push(...this.ledgers.deleteOperations(stored), this.evidence.deleteOperation(ledgerIndex));
      for (const tx of write.transactions) {
        // A transaction record belongs to the ledger that holds it (the same hash in another ledger is another record).
        if (records[recordPosition++]?.ledgerIndex === ledgerIndex) operations.push(this.transactionRecords.deleteOperation(tx.hash));
        operations.push(this.ledgerTransactions.deleteOperation(ledgerIndex, tx.txIndex));
        for (const { accountId } of accountSides(tx)) operations.push(this.accountTransactions.deleteOperation(accountId, ledgerIndex, tx.txIndex));
      }
      for (const { nftId, txIndex } of nftTransactionsOf(write)) operations.push(this.nftTransactions.deleteOperation(nftId, ledgerIndex, txIndex));
      if (!options.keepNftStates) for (const state of nftStatesOf(write)) operations.push(this.nftStates.deleteOperation(state.nftId, ledgerIndex));
      for (const sender of sendersOf(write)) {
        const blockKey = AccountSentCountRepository.blockKey(sender.accountId, blockOf(ledgerIndex)).toString('hex');
        const total = totals.get(blockKey) ?? 0;
        operations.push(...this.sentCounts.deleteOperations(sender.accountId, ledgerIndex, sender.sent, total));
        totals.set(blockKey, Math.max(0, total - sender.sent));
      }
    }
    return { operations, evidenceRemoved: withEvidence.size };
  }

  /**
   * Bounded history: of each NFToken the pruned ledgers changed, the states at or below the highest
   * pruned ledger but its newest there (what a read at a kept ledger finds when no kept ledger changed it).
   */
  private async supersededNftStateOperations(writes: readonly LedgerWrite[]): Promise<KvOperation[]> {
    const highest = Math.max(...writes.map((write) => write.ledgerIndex));
    const tokens = uniqueKeys(writes.flatMap((write) => nftStatesOf(write).map((state) => state.nftId)));
    const operations: KvOperation[] = [];
    for (const nftId of tokens) {
      let newest = true;
      for await (const state of this.nftStates.atOrBelow(nftId, highest)) {
        if (!newest) operations.push(this.nftStates.deleteOperation(nftId, state.ledgerIndex));
        newest = false;
      }
    }
    return operations;
  }

  async sweepStateVersions(keepLow: number, afterKey: Buffer | undefined, limit: number, counters: StoreCounters): Promise<{ counters: StoreCounters; nextAfterKey: Buffer | undefined }> {
    const { versions, nextAfterKey } = await this.stateObjects.superseded(keepLow, afterKey, limit);
    if (versions.length === 0) return { counters, nextAfterKey };
    const next = countersAfterPruning(counters, [], BigInt(versions.length));
    await this.kv.batch([...versions.map(({ objectKey, ledgerIndex }) => this.stateObjects.deleteOperation(objectKey, ledgerIndex)), this.storeMeta.countersOperation(next)]);
    return { counters: next, nextAfterKey };
  }

  async addStateChanges(ledgerIndex: number, changes: readonly StateObjectChange[], after: { stateRanges: LedgerRange[] }, counters: StoreCounters): Promise<StoreCounters> {
    const state = this.stateChangeOperations(ledgerIndex, changes, await this.storedKeys(versionKeysRead(ledgerIndex, changes)));
    const next = countersWithNewVersions(counters, state.newVersions);
    await this.kv.batch([...state.operations, this.stateMeta.stateRangesOperation(after.stateRanges), this.storeMeta.countersOperation(next)]);
    return next;
  }

  /** Which of the keys are stored (hex). */
  private async storedKeys(keys: Buffer[]): Promise<Set<string>> {
    const values = await this.kv.getMany(keys);
    return new Set(keys.filter((_key, position) => values[position] !== undefined).map((key) => key.toString('hex')));
  }

  /**
   * The versions, trust-line memberships and account creations of a ledger's state changes: each
   * object after the ledger at its index, and before it at the previous index unless a version is
   * stored there (that ledger's own after-image is the same object and is never overwritten).
   * `stored` holds the stored version keys (versionKeysRead) and takes those written here.
   */
  private stateChangeOperations(ledgerIndex: number, changes: readonly StateObjectChange[], stored: Set<string>): { operations: KvOperation[]; newVersions: bigint } {
    const operations: KvOperation[] = [];
    let newVersions = 0n;
    const putVersion = (key: Buffer, atLedger: number, blob: Buffer | undefined) => {
      const versionKey = StateObjectRepository.versionKey(key, atLedger).toString('hex');
      if (!stored.has(versionKey)) newVersions++;
      stored.add(versionKey);
      operations.push(this.stateObjects.putOperation(key, atLedger, blob));
    };
    for (const change of changes) {
      const previousStored = hasPreviousImage(ledgerIndex, change) && stored.has(StateObjectRepository.versionKey(change.key, ledgerIndex - 1).toString('hex'));
      putVersion(change.key, ledgerIndex, change.blob.length === 0 ? undefined : change.blob);
      if (hasPreviousImage(ledgerIndex, change) && !previousStored) putVersion(change.key, ledgerIndex - 1, change.previousBlob);
      for (const owner of change.ownerAccountIds) operations.push(this.trustLines.putOperation(owner, change.key));
      if (change.kind === StateChangeKind.CREATED && change.accountId.length === 20) {
        operations.push(this.accountCreations.putOperation(change.accountId, ledgerIndex));
      }
    }
    return { operations, newVersions };
  }

  stageStateObjects(objects: readonly StateObject[], download: StateDownloadRecord): Promise<void> {
    const operations: KvOperation[] = [];
    for (const object of objects) {
      operations.push(this.stagedState.putOperation(object.key, object.blob));
      for (const owner of object.ownerAccountIds) operations.push(this.trustLines.putOperation(owner, object.key));
    }
    operations.push(this.stateMeta.downloadOperation(download));
    return this.kv.batch(operations);
  }

  recordDownload(download: StateDownloadRecord): Promise<void> {
    return this.kv.batch([this.stateMeta.downloadOperation(download)]);
  }

  async clearStagedState(): Promise<void> {
    await this.clearBucket(Bucket.stateStage);
  }

  /** Removes every entry of `bucket`, page by page; answers how many. */
  private async clearBucket(bucket: BucketId): Promise<bigint> {
    let removed = 0n;
    for (;;) {
      const operations: KvOperation[] = [];
      for await (const [key] of this.kv.entries({ ...bucketRange(bucket), limit: STAGE_BATCH })) operations.push({ type: 'del', key });
      if (operations.length === 0) return removed;
      await this.kv.batch(operations);
      removed += BigInt(operations.length);
    }
  }

  async promoteStagedState(download: StateDownloadRecord, counters: StoreCounters): Promise<StoreCounters> {
    let current = counters;
    if (download.staleVersions) {
      // A crash before the download is marked complete repeats this.
      await this.clearBucket(Bucket.accountCreation);
      current = countersAfterPruning(current, [], await this.clearBucket(Bucket.stateObjectVersion));
    }
    for (;;) {
      const page = await this.stagedState.page(undefined, STAGE_BATCH);
      const existing = await this.kv.getMany(page.map((object) => StateObjectRepository.versionKey(object.key, download.ledgerIndex)));
      const operations: KvOperation[] = page.flatMap((object) => [
        this.stateObjects.putOperation(object.key, download.ledgerIndex, object.blob),
        this.stagedState.deleteOperation(object.key),
      ]);
      const newVersions = BigInt(existing.filter((version) => version === undefined).length);
      current = countersWithNewVersions(current, newVersions);
      const last = page.length < STAGE_BATCH;
      operations.push(this.storeMeta.countersOperation(current));
      if (last) operations.push(this.stateMeta.downloadOperation({ ...download, complete: true, staleVersions: false }));
      await this.kv.batch(operations);
      if (last) return current;
    }
  }

  // ---- reads ----

  header(ledgerIndex: number): Promise<StoredHeader | undefined> {
    return this.ledgers.get(ledgerIndex);
  }

  headers(ledgerIndexes: number[]): Promise<StoredHeader[]> {
    return this.ledgers.getMany(ledgerIndexes);
  }

  ledgerIndexOfHash(ledgerHash: Buffer): Promise<number | undefined> {
    return this.ledgers.indexOfHash(ledgerHash);
  }

  headersBetween(first: number, last: number, limit?: number): Promise<StoredHeader[]> {
    return this.ledgers.range(first, last, limit);
  }

  async ledgerTransactionHashes(ledgerIndex: number): Promise<Buffer[]> {
    return (await this.ledgerTransactions.ofLedger(ledgerIndex)).map((row) => row.hash);
  }

  transactionHashAt(ledgerIndex: number, txIndex: number): Promise<Buffer | undefined> {
    return this.ledgerTransactions.hashAt(ledgerIndex, txIndex);
  }

  ledgerEvidence(ledgerIndex: number): Promise<LedgerEvidence | undefined> {
    return this.evidence.get(ledgerIndex);
  }

  evidencedBetween(first: number, last: number): Promise<number[]> {
    return this.evidence.ledgersBetween(first, last);
  }

  transactions(hashes: Buffer[]): Promise<(StoredTransaction | undefined)[]> {
    return this.transactionRecords.getMany(hashes);
  }

  accountTransactionEntries(accountId: Buffer, scan: AccountHistoryScan): AsyncIterable<AccountTransactionEntry> {
    return this.accountTransactions.entries(accountId, scan);
  }

  nftTransactionEntries(nftId: Buffer, scan: AccountHistoryScan): AsyncIterable<HistoryPosition> {
    return this.nftTransactions.entries(nftId, scan);
  }

  nftStatesAtOrBelow(nftId: Buffer, ledgerIndex: number): AsyncIterable<NftStateEntry> {
    return this.nftStates.atOrBelow(nftId, ledgerIndex);
  }

  sentUpTo(accountId: Buffer, ledgerIndex: number): Promise<bigint> {
    return this.sentCounts.sentUpTo(accountId, ledgerIndex);
  }

  accountCreatedAtOrBelow(accountId: Buffer, ledgerIndex: number): Promise<number | undefined> {
    return this.accountCreations.latestAtOrBelow(accountId, ledgerIndex);
  }

  trustLineKeys(accountId: Buffer): Promise<Buffer[]> {
    return this.trustLines.keysOf(accountId);
  }

  stateObjectAt(objectKey: Buffer, ledgerIndex: number, window: StateWindow): Promise<Buffer | undefined> {
    return this.stateObjects.objectAt(objectKey, ledgerIndex, window);
  }

  stateObjectsByKey(objectKeys: readonly Buffer[], ledgerIndex: number, window: StateWindow): Promise<(Buffer | undefined)[]> {
    return this.stateObjects.objectsAt(objectKeys, ledgerIndex, window);
  }

  stateObjectsAt(ledgerIndex: number, window: StateWindow, afterKey: Buffer | undefined, limit: number, beforeKey?: Buffer): Promise<{ objects: KeyedObject[]; nextAfterKey: Buffer | undefined }> {
    return this.stateObjects.listAt(ledgerIndex, window, afterKey, limit, beforeKey);
  }

  stagedStateObjects(afterKey: Buffer | undefined, limit: number, beforeKey?: Buffer): Promise<KeyedObject[]> {
    return this.stagedState.page(afterKey, limit, beforeKey);
  }

  sizeOnDisk(): Promise<number> {
    return this.kv.sizeOnDisk();
  }

  close(): Promise<void> {
    return this.kv.close();
  }
}

/** The version keys a ledger's state changes are written against: each object at the ledger, and at the ledger before for those with a before-image. */
function versionKeysRead(ledgerIndex: number, changes: readonly StateObjectChange[]): Buffer[] {
  return changes.flatMap((change) => [
    StateObjectRepository.versionKey(change.key, ledgerIndex),
    ...(hasPreviousImage(ledgerIndex, change) ? [StateObjectRepository.versionKey(change.key, ledgerIndex - 1)] : []),
  ]);
}

/** The keys without repeats, in first-seen order. */
function uniqueKeys(keys: readonly Buffer[]): Buffer[] {
  return [...new Map(keys.map((key) => [key.toString('hex'), key])).values()];
}
