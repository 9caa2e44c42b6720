/**
 * One byte per column at the front of every key; numbers in keys are big-endian so that
 * key order is numeric order. A retired id stays listed (commented) and is never reused.
 * Each bucket is read and written by exactly one repository under `src/repositories/`, through its
 * key codec (`Keys` below, storage/keys.ts).
 */
import { accountIdPart, hashPart, KeyCodec, nodeKeyPart, u32Part } from './keys';

export const Bucket = {
  // 0x00 is never a bucket: the RocksDB layer probes whether the database takes writes again after a
  // full disk by deleting the key 0x00 (storage/rocksdb.ts).
  /** ledger index (u32) → header (118 bytes) + ledger hash (32) + transaction count (u32) */
  ledgerHeader: 0x01,
  /** ledger hash (32) → ledger index (u32) */
  ledgerHashIndex: 0x02,
  /** tx hash (32) → ledger index, tx index, engine result, transaction type, blob, meta */
  transaction: 0x03,
  /** ledger index (u32) + tx index (u32) → tx hash */
  ledgerTransaction: 0x04,
  /** account id (20) + ledger index + tx index → direction (1 in, 2 out) */
  accountTransaction: 0x05,
  /** account id (20) + ledger index → number of transactions the account sent in that ledger (u32) */
  accountSentCount: 0x06,
  /** object key (32) + ledger index → object bytes, or an empty value for a deleted object */
  stateObjectVersion: 0x07,
  /** account id (20) + trust line key (32) → nothing (membership) */
  accountTrustLine: 0x08,
  // 0x09 retired: syncMeta (sync metadata name → bytes). Nothing reads or writes it; an older store may still hold its keys.
  /** store bookkeeping name → bytes: complete ranges, counters */
  storeMeta: 0x0a,
  /** account id (20) + block number (ledger index >> 16, u32) → transactions sent in that block (u32) */
  accountSentBlock: 0x0b,
  /** account id (20) + ledger index → nothing: that ledger created the account's AccountRoot */
  accountCreation: 0x0c,
  /** state bookkeeping name → bytes: the state download's progress, the ledgers stored with complete state changes */
  stateMeta: 0x0d,
  /** object key (32) → object bytes: the running state download's pages, read by nothing else until its root verified */
  stateStage: 0x0e,
  /**
   * ledger index (u32) → the evidence that proved the ledger: its validations, the quorum, and the
   * lists and manifests they were checked against by key (repositories/evidence.ts)
   */
  ledgerEvidence: 0x0f,
  /** publisher key (33) + list sequence (u32) → a validator list document (ledgerstore.proto ValidatorListDocument) */
  validatorList: 0x10,
  /** master key (33) + manifest sequence (u32) → the serialized manifest */
  manifest: 0x11,
  /** NFTokenID (32) + ledger index + tx index → nothing: the transaction touched the token (repositories/nfts.ts) */
  nftTransaction: 0x12,
  /** NFTokenID (32) + ledger index → owner (20) + flags (u8, 1: burned) + URI: the token as the ledger left it */
  nftState: 0x13,
} as const;

export type BucketId = (typeof Bucket)[keyof typeof Bucket];

/** The key layout of each bucket of keyed records (the values are described at the bucket ids above). */
export const Keys = {
  ledgerHeader: new KeyCodec(Bucket.ledgerHeader, { ledgerIndex: u32Part }),
  ledgerHashIndex: new KeyCodec(Bucket.ledgerHashIndex, { ledgerHash: hashPart }),
  transaction: new KeyCodec(Bucket.transaction, { hash: hashPart }),
  ledgerTransaction: new KeyCodec(Bucket.ledgerTransaction, { ledgerIndex: u32Part, txIndex: u32Part }),
  accountTransaction: new KeyCodec(Bucket.accountTransaction, { accountId: accountIdPart, ledgerIndex: u32Part, txIndex: u32Part }),
  accountSentCount: new KeyCodec(Bucket.accountSentCount, { accountId: accountIdPart, ledgerIndex: u32Part }),
  stateObjectVersion: new KeyCodec(Bucket.stateObjectVersion, { objectKey: hashPart, ledgerIndex: u32Part }),
  accountTrustLine: new KeyCodec(Bucket.accountTrustLine, { accountId: accountIdPart, objectKey: hashPart }),
  accountSentBlock: new KeyCodec(Bucket.accountSentBlock, { accountId: accountIdPart, block: u32Part }),
  accountCreation: new KeyCodec(Bucket.accountCreation, { accountId: accountIdPart, ledgerIndex: u32Part }),
  stateStage: new KeyCodec(Bucket.stateStage, { objectKey: hashPart }),
  ledgerEvidence: new KeyCodec(Bucket.ledgerEvidence, { ledgerIndex: u32Part }),
  validatorList: new KeyCodec(Bucket.validatorList, { publisherKey: nodeKeyPart, sequence: u32Part }),
  manifest: new KeyCodec(Bucket.manifest, { masterKey: nodeKeyPart, sequence: u32Part }),
  nftTransaction: new KeyCodec(Bucket.nftTransaction, { nftId: hashPart, ledgerIndex: u32Part, txIndex: u32Part }),
  nftState: new KeyCodec(Bucket.nftState, { nftId: hashPart, ledgerIndex: u32Part }),
} as const;

/** A bookkeeping record of the store (storeMeta, stateMeta): the bucket byte and its ASCII name. */
export function namedKey(bucket: BucketId, name: string): Buffer {
  return Buffer.concat([Buffer.of(bucket), Buffer.from(name, 'ascii')]);
}

export function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

export function u64(value: bigint): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(value);
  return buffer;
}

/** The range covering every key of one bucket. */
export function bucketRange(bucket: BucketId): { gte: Buffer; lt: Buffer } {
  return { gte: Buffer.of(bucket), lt: Buffer.of(bucket + 1) };
}

/** The range covering every key that starts with `prefix` (a bucket id and leading key parts). */
export function prefixRange(prefix: Buffer): { gte: Buffer; lt: Buffer } {
  return { gte: prefix, lt: prefixEnd(prefix) };
}

/** The smallest key greater than every key starting with `prefix`. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let position = end.length - 1; position >= 0; position--) {
    if (end[position] < 0xff) {
      end[position]++;
      return end.subarray(0, position + 1);
    }
  }
  throw new Error('a key prefix of only 0xff bytes has no upper bound');
}
