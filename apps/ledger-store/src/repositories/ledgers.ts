import type { KeyValue, KvOperation } from '../storage/kv';
import { Bucket, bucketRange, Keys, u32 } from '../storage/buckets';
import type { StoredHeader } from '../backend/records';

const HASH_LENGTH = 32;


/** Ledger headers by index, and the hash → index lookup. */
export class LedgerRepository {
  constructor(private readonly kv: KeyValue) {}

  static headerKey(ledgerIndex: number): Buffer {
    return Keys.ledgerHeader.encode({ ledgerIndex });
  }

  /** The operations that store one header; the caller adds them to the ledger's batch. */
  putOperations(stored: StoredHeader): KvOperation[] {
    return [
      {
        type: 'put',
        key: LedgerRepository.headerKey(stored.ledgerIndex),
        value: Buffer.concat([stored.header, stored.ledgerHash, u32(stored.transactionCount)]),
      },
      { type: 'put', key: Keys.ledgerHashIndex.encode({ ledgerHash: stored.ledgerHash }), value: u32(stored.ledgerIndex) },
    ];
  }

  deleteOperations(stored: StoredHeader): KvOperation[] {
    return [
      { type: 'del', key: LedgerRepository.headerKey(stored.ledgerIndex) },
      { type: 'del', key: Keys.ledgerHashIndex.encode({ ledgerHash: stored.ledgerHash }) },
    ];
  }

  async get(ledgerIndex: number): Promise<StoredHeader | undefined> {
    const value = await this.kv.get(LedgerRepository.headerKey(ledgerIndex));
    return value && decodeHeader(ledgerIndex, value);
  }

  /** The stored headers among `ledgerIndexes` in one read, in the order asked; absent ones are left out. */
  async getMany(ledgerIndexes: number[]): Promise<StoredHeader[]> {
    if (ledgerIndexes.length === 0) return [];
    const values = await this.kv.getMany(ledgerIndexes.map((ledgerIndex) => LedgerRepository.headerKey(ledgerIndex)));
    return values.flatMap((value, position) => (value ? [decodeHeader(ledgerIndexes[position], value)] : []));
  }

  async indexOfHash(ledgerHash: Buffer): Promise<number | undefined> {
    const value = await this.kv.get(Keys.ledgerHashIndex.encode({ ledgerHash }));
    return value?.readUInt32BE(0);
  }

  /** Stored headers with `first <= index <= last`, ascending, at most `limit`. */
  async range(first: number, last: number, limit?: number): Promise<StoredHeader[]> {
    const headers: StoredHeader[] = [];
    const entries = this.kv.entries({ gte: LedgerRepository.headerKey(first), lte: LedgerRepository.headerKey(last), limit });
    for await (const [entryKey, value] of entries) headers.push(decodeHeader(Keys.ledgerHeader.decode(entryKey).ledgerIndex, value));
    return headers;
  }

  /** Every stored ledger index, ascending (consistency checks and rebuilding bookkeeping). */
  async *indexes(): AsyncIterable<number> {
    for await (const [entryKey] of this.kv.entries(bucketRange(Bucket.ledgerHeader))) yield Keys.ledgerHeader.decode(entryKey).ledgerIndex;
  }

  /** The highest (or, with `lowest`, the lowest) stored ledger index. */
  async edge(which: 'highest' | 'lowest'): Promise<number | undefined> {
    for await (const [entryKey] of this.kv.entries({ ...bucketRange(Bucket.ledgerHeader), reverse: which === 'highest', limit: 1 })) {
      return Keys.ledgerHeader.decode(entryKey).ledgerIndex;
    }
    return undefined;
  }
}

export function decodeHeader(ledgerIndex: number, value: Buffer): StoredHeader {
  const hashEnd = value.length - 4;
  return {
    ledgerIndex,
    header: value.subarray(0, hashEnd - HASH_LENGTH),
    ledgerHash: value.subarray(hashEnd - HASH_LENGTH, hashEnd),
    transactionCount: value.readUInt32BE(hashEnd),
  };
}
