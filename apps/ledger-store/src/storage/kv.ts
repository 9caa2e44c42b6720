/**
 * The one key-value interface every repository is written against. Keys are binary and
 * ordered bytewise; writes go through atomic batches so that a crash never leaves half a ledger.
 * RocksDB is the production implementation; an in-memory one serves unit tests.
 */
import { Unavailable } from '@ledger-node/errors';

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

/**
 * A failed write as the caller should hear it: a full disk or a read-only data directory is the
 * operator's to fix and says so (Unavailable: the write is retried and succeeds once it is fixed);
 * anything else is passed on as it is.
 */
export function writeFailure(error: unknown, location: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/no space left on device|ENOSPC/i.test(message)) return new Unavailable(`disk full: the store at ${location} cannot write (${message})`);
  if (/read-only file system|EROFS|permission denied|EACCES/i.test(message)) {
    return new Unavailable(`the store at ${location} cannot write: its directory is read-only (${message})`);
  }
  return error;
}
