/**
 * What the LedgerStore contract keeps, as every backend reads and writes it: ledger headers,
 * transactions, account index entries, the state download and window, the counters. Nothing here
 * depends on how a backend lays them out.
 */
import { Direction, type LedgerWrite, type StateObjectChange, type TransactionWrite } from '@ledger-node/contracts';
import type { LedgerRange } from '../ledgers/ranges';

export interface StoredHeader {
  ledgerIndex: number;
  /** The binary header as rippled serializes it (118 bytes, without the 'LWR\0' prefix). */
  header: Buffer;
  ledgerHash: Buffer;
  /** Number of transactions in the ledger. */
  transactionCount: number;
}

/** Offset of close_time in the binary header (rippled `addRaw(LedgerInfo)`). */
const CLOSE_TIME_OFFSET = 112;

/** Close time of a stored header in seconds since the Ripple epoch. */
export function closeTimeOf(header: Buffer): number {
  return header.readUInt32BE(CLOSE_TIME_OFFSET);
}

/**
 * One stored transaction. The ledger hash and close time are not repeated per transaction: they
 * are read from the ledger's header, which every transaction's ledger has (same batch).
 */
export interface StoredTransaction {
  hash: Buffer;
  ledgerIndex: number;
  txIndex: number;
  /** Metadata TransactionResult by name, e.g. "tesSUCCESS" (kept so outcome streams need no decoding). */
  engineResult: string;
  /** TransactionType by name, e.g. "Payment" (kept for type filters on account history). */
  transactionType: string;
  txBlob: Buffer;
  metaBlob: Buffer;
}

/** Side of a transaction an index entry records; the numbers are common.v1.Direction's. */
export const IndexDirection = { in: 1, out: 2 } as const;
export type IndexDirection = (typeof IndexDirection)[keyof typeof IndexDirection];

export interface AccountTransactionEntry {
  accountId: Buffer;
  ledgerIndex: number;
  txIndex: number;
  direction: IndexDirection;
  /** TransactionType by name; undefined in entries written before the index carried it. */
  transactionType?: string;
}

/** A position in an account's history: the (ledger, tx index) of one entry. */
export interface HistoryPosition {
  ledgerIndex: number;
  txIndex: number;
}

/** An NFToken as a stored ledger left it: the last change of the ledger's transactions (each carries the whole state). */
export interface NftStateEntry {
  nftId: Buffer;
  ledgerIndex: number;
  ownerAccountId: Buffer;
  burned: boolean;
  uri: Buffer;
}

/** The NFT transaction index entries of a write: each (token, transaction) once. */
export function nftTransactionsOf(write: LedgerWrite): { nftId: Buffer; txIndex: number }[] {
  return write.transactions.flatMap((tx) => {
    const seen = new Set<string>();
    return tx.nftIds.filter((nftId) => !seen.has(nftId.toString('hex')) && seen.add(nftId.toString('hex'))).map((nftId) => ({ nftId, txIndex: tx.txIndex }));
  });
}

/** The NFT states a write leaves: per token, the change of its last transaction in the ledger (Clio: the highest transaction index wins). */
export function nftStatesOf(write: LedgerWrite): NftStateEntry[] {
  const byToken = new Map<string, { txIndex: number; entry: NftStateEntry }>();
  for (const tx of write.transactions) {
    const change = tx.nftChange;
    if (!change) continue;
    const hex = change.nftId.toString('hex');
    const held = byToken.get(hex);
    if (held && held.txIndex > tx.txIndex) continue;
    byToken.set(hex, { txIndex: tx.txIndex, entry: { nftId: change.nftId, ledgerIndex: write.ledgerIndex, ownerAccountId: change.ownerAccountId, burned: change.burned, uri: change.uri } });
  }
  return [...byToken.values()].map(({ entry }) => entry);
}

/** Where the state is known (see repositories/stateObjects.ts for the model): ledgers [low, high] around the snapshot ledger. */
export interface StateWindow {
  low: number;
  high: number;
  snapshotLedgerIndex: number;
  /**
   * The lowest ledger whose versions a lookup reads; `low` when absent. Bounded history
   * (-ledger_history) raises `low` to the lowest kept ledger and leaves the lookup where it was:
   * the newest version at or below the kept low end is what a lookup there finds, and it is kept.
   */
  versionFloor?: number;
}

/**
 * The state window given the download, the runs of ledgers stored with complete state changes and
 * the stored ranges; undefined while the download is not complete.
 */
export function stateWindow(download: StateDownloadRecord, stateRanges: readonly LedgerRange[]): StateWindow | undefined {
  if (!download.complete || download.ledgerIndex === 0) return undefined;
  const snapshot = download.ledgerIndex;
  const runOf = (ledgerIndex: number) => stateRanges.find((range) => range.first <= ledgerIndex && ledgerIndex <= range.last);
  const above = runOf(snapshot + 1);
  const high = above ? above.last : snapshot;
  const through = runOf(snapshot);
  // The run's lowest ledger may lack before-images its own parent would have given: it is the floor.
  const low = through ? through.first : snapshot;
  return { low, high, snapshotLedgerIndex: snapshot };
}

/** Progress of the one-time state download (ledgerstore.proto StateDownload). */
export interface StateDownloadRecord {
  /** 0 when no download started. */
  ledgerIndex: number;
  marker: Buffer;
  complete: boolean;
  objectCount: bigint;
  /** Versions of a state set aside (DeleteLedger) remain: promoting the next download removes them first. */
  staleVersions?: boolean;
}

export const NO_DOWNLOAD: StateDownloadRecord = { ledgerIndex: 0, marker: Buffer.alloc(0), complete: false, objectCount: 0n };

/** The download record once a state was set aside: no download, and its versions still to remove. */
export const STATE_SET_ASIDE: StateDownloadRecord = { ...NO_DOWNLOAD, staleVersions: true };

/** Totals kept in every ledger's batch, so that they are exact after any crash. */
export interface StoreCounters {
  ledgerCount: bigint;
  transactionCount: bigint;
  stateObjectVersionCount: bigint;
  /** Stored ledgers stored with their evidence. */
  evidenceLedgerCount: bigint;
}

export const ZERO_COUNTERS: StoreCounters = { ledgerCount: 0n, transactionCount: 0n, stateObjectVersionCount: 0n, evidenceLedgerCount: 0n };

/** The counters after a ledger was stored, `newVersions` of its state versions not stored before. */
export function countersAfterAdding(counters: StoreCounters, write: LedgerWrite, newVersions: bigint): StoreCounters {
  return {
    ledgerCount: counters.ledgerCount + 1n,
    transactionCount: counters.transactionCount + BigInt(write.transactions.length),
    stateObjectVersionCount: counters.stateObjectVersionCount + newVersions,
    evidenceLedgerCount: counters.evidenceLedgerCount + (write.evidence ? 1n : 0n),
  };
}

/** The counters after a stored ledger was removed (its state versions stay: a ledger with state is never removed). */
export function countersAfterRemoving(counters: StoreCounters, write: LedgerWrite): StoreCounters {
  return { ...counters, ledgerCount: counters.ledgerCount - 1n, transactionCount: counters.transactionCount - BigInt(write.transactions.length) };
}

/** The counters after ledgers were removed from the low end (-ledger_history), with `removedVersions` superseded state versions. */
export function countersAfterPruning(counters: StoreCounters, writes: readonly LedgerWrite[], removedVersions: bigint): StoreCounters {
  return {
    ...counters,
    ledgerCount: counters.ledgerCount - BigInt(writes.length),
    transactionCount: counters.transactionCount - BigInt(writes.reduce((total, write) => total + write.transactions.length, 0)),
    stateObjectVersionCount: counters.stateObjectVersionCount - removedVersions,
  };
}

/** The counters after the evidence of `removed` removed ledgers went with them. */
export function countersWithoutEvidence(counters: StoreCounters, removed: number): StoreCounters {
  return { ...counters, evidenceLedgerCount: counters.evidenceLedgerCount - BigInt(removed) };
}

/** The counters after `newVersions` state versions not stored before were written. */
export function countersWithNewVersions(counters: StoreCounters, newVersions: bigint): StoreCounters {
  return { ...counters, stateObjectVersionCount: counters.stateObjectVersionCount + newVersions };
}

/** A state object's key and bytes. */
export interface KeyedObject {
  key: Buffer;
  blob: Buffer;
}

/** The accounts a transaction's write indexes it under, one entry each; the sender's side wins when it is also listed as IN. */
export function accountSides(tx: TransactionWrite): { accountId: Buffer; direction: IndexDirection }[] {
  // A transaction names a handful of accounts: compared as bytes, in order of appearance.
  const sides: { accountId: Buffer; direction: IndexDirection }[] = [{ accountId: tx.senderAccountId, direction: IndexDirection.out }];
  for (const affected of tx.affectedAccounts) {
    const direction = affected.direction === Direction.OUT ? IndexDirection.out : IndexDirection.in;
    const known = sides.find((side) => side.accountId.equals(affected.accountId));
    if (!known) sides.push({ accountId: affected.accountId, direction });
    else if (known.direction !== IndexDirection.out) known.direction = direction;
  }
  return sides;
}

/** Transactions each sender sent in the write. */
export function sendersOf(write: LedgerWrite): { accountId: Buffer; sent: number }[] {
  // Keyed by the id's bytes as latin1 text: one character a byte, cheaper to make than hex.
  const sentByAccount = new Map<string, { accountId: Buffer; sent: number }>();
  for (const tx of write.transactions) {
    const key = tx.senderAccountId.toString('latin1');
    const entry = sentByAccount.get(key);
    if (entry) entry.sent++;
    else sentByAccount.set(key, { accountId: tx.senderAccountId, sent: 1 });
  }
  return [...sentByAccount.values()];
}

/** A change whose object's image before its ledger is written too (at the ledger before, unless a version is stored there). */
export function hasPreviousImage(ledgerIndex: number, change: StateObjectChange): boolean {
  return change.previousBlob !== undefined && ledgerIndex > 1;
}

/**
 * The chain a store holds: its chain profile and network, and the ledger it was first given (the
 * first anchor sync proved). A store never takes another chain's ledgers, and sync compares the
 * upstream's chain with it.
 */
export interface ChainIdentity {
  chain: string;
  networkId?: number;
  ledgerIndex: number;
  ledgerHash: Buffer;
}
