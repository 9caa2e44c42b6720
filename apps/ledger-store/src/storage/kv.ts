/**
 * The one key-value interface every repository is written against. Keys are binary and
 * ordered bytewise; writes go through atomic batches so that a crash never leaves half a ledger.
 * RocksDB is the production implementation; an in-memory one serves unit tests.
 */
export type KvOperation = { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

export interface KvRange {
  /** Inclusive lower bound. */
  gte?: Buffer;
  /** Exclusive lower bound. */
  gt?: Buffer;
  /** Exclusive upper bound. */
  lt?: Buffer;
  /** Inclusive upper bound. */
  lte?: Buffer;
  reverse?: boolean;
  limit?: number;
}

export interface KeyValue {
  get(key: Buffer): Promise<Buffer | undefined>;
  getMany(keys: Buffer[]): Promise<(Buffer | undefined)[]>;
  /** Applies every operation or none. */
  batch(operations: KvOperation[]): Promise<void>;
  /** Entries in key order (or reverse) within the range. */
  entries(range: KvRange): AsyncIterable<[Buffer, Buffer]>;
  /** Approximate bytes on disk. */
  sizeOnDisk(): Promise<number>;
  close(): Promise<void>;
}
