import type { KeyValue, KvOperation } from '../storage/kv';
import { Bucket, key, prefixRange, u32 } from '../storage/buckets';

/** A state object as of some ledger: its bytes, or `deleted` (a tombstone). */
export type StateObjectVersion = { ledgerIndex: number; deleted: false; blob: Buffer } | { ledgerIndex: number; deleted: true };

/**
 * Versioned state objects: (object key, ledger index) → the object after that ledger, or an
 * empty value when the ledger deleted it (an object is never empty: it holds at least its type).
 */
export class StateObjectRepository {
  constructor(private readonly kv: KeyValue) {}

  static versionKey(objectKey: Buffer, ledgerIndex: number): Buffer {
    return key(Bucket.stateObjectVersion, objectKey, u32(ledgerIndex));
  }

  /** `blob` undefined stores a tombstone. */
  putOperation(objectKey: Buffer, ledgerIndex: number, blob: Buffer | undefined): KvOperation {
    return { type: 'put', key: StateObjectRepository.versionKey(objectKey, ledgerIndex), value: blob ?? Buffer.alloc(0) };
  }

  /** The newest stored version at or below `ledgerIndex`, if any. */
  async at(objectKey: Buffer, ledgerIndex: number): Promise<StateObjectVersion | undefined> {
    const entries = this.kv.entries({
      gte: StateObjectRepository.versionKey(objectKey, 0),
      lte: StateObjectRepository.versionKey(objectKey, ledgerIndex),
      reverse: true,
      limit: 1,
    });
    for await (const [entryKey, value] of entries) return decodeVersion(entryKey.readUInt32BE(33), value);
    return undefined;
  }

  /** Every stored version of an object, ascending. */
  async *versions(objectKey: Buffer): AsyncIterable<StateObjectVersion> {
    for await (const [entryKey, value] of this.kv.entries(prefixRange(key(Bucket.stateObjectVersion, objectKey)))) {
      yield decodeVersion(entryKey.readUInt32BE(33), value);
    }
  }
}

function decodeVersion(ledgerIndex: number, value: Buffer): StateObjectVersion {
  return value.length === 0 ? { ledgerIndex, deleted: true } : { ledgerIndex, deleted: false, blob: value };
}

/**
 * Which trust lines each account is a side of: (account, object key) → nothing. Membership is
 * never removed; whether the line exists at a ledger is answered by its versions.
 */
export class TrustLineRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(accountId: Buffer, objectKey: Buffer): KvOperation {
    return { type: 'put', key: key(Bucket.accountTrustLine, accountId, objectKey), value: Buffer.alloc(0) };
  }

  async keysOf(accountId: Buffer): Promise<Buffer[]> {
    const keys: Buffer[] = [];
    for await (const [entryKey] of this.kv.entries(prefixRange(key(Bucket.accountTrustLine, accountId)))) keys.push(entryKey.subarray(21));
    return keys;
  }
}
