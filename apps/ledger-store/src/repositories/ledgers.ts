import type { KeyValue, KvOperation } from '../storage/kv';
import { Bucket, bucketRange, key, u32 } from '../storage/buckets';

export interface StoredHeader {
  ledgerIndex: number;
  /** The binary header as rippled serializes it. */
  header: Buffer;
  ledgerHash: Buffer;
}

/** Ledger headers by index, and the hash → index lookup. */
export class LedgerRepository {
  constructor(private readonly kv: KeyValue) {}

  /** The operations that store one header; the caller adds them to the ledger's batch. */
  putOperations(stored: StoredHeader): KvOperation[] {
    return [
      { type: 'put', key: key(Bucket.ledgerHeader, u32(stored.ledgerIndex)), value: Buffer.concat([stored.header, stored.ledgerHash]) },
      { type: 'put', key: key(Bucket.ledgerHashIndex, stored.ledgerHash), value: u32(stored.ledgerIndex) },
    ];
  }

  async get(ledgerIndex: number): Promise<StoredHeader | undefined> {
    const value = await this.kv.get(key(Bucket.ledgerHeader, u32(ledgerIndex)));
    return value && decode(ledgerIndex, value);
  }

  async indexOfHash(ledgerHash: Buffer): Promise<number | undefined> {
    const value = await this.kv.get(key(Bucket.ledgerHashIndex, ledgerHash));
    return value?.readUInt32BE(0);
  }

  /** The highest (or, with `lowest`, the lowest) stored ledger index. */
  async edge(which: 'highest' | 'lowest'): Promise<number | undefined> {
    for await (const [entryKey] of this.kv.entries({ ...bucketRange(Bucket.ledgerHeader), reverse: which === 'highest', limit: 1 })) {
      return entryKey.readUInt32BE(1);
    }
    return undefined;
  }
}

function decode(ledgerIndex: number, value: Buffer): StoredHeader {
  return { ledgerIndex, header: value.subarray(0, value.length - 32), ledgerHash: value.subarray(value.length - 32) };
}
