/** The `rocksdb` binding (leveldown over RocksDB 6.17), typed as this folder uses it. */
import rocksdb from 'rocksdb';
import type { KvOperation, KvRange } from './kv';

export type Callback<T = void> = (error: Error | undefined | null, value?: T) => void;

export interface RocksIterator {
  next(callback: (error: Error | undefined, key?: Buffer, value?: Buffer) => void): void;
  end(callback: Callback): void;
}

export interface RocksDb {
  open(options: object, callback: Callback): void;
  close(callback: Callback): void;
  get(key: Buffer, options: object, callback: Callback<Buffer>): void;
  getMany(keys: Buffer[], options: object, callback: Callback<(Buffer | undefined)[]>): void;
  batch(operations: KvOperation[], options: object, callback: Callback): void;
  iterator(options: object): RocksIterator;
  getProperty(property: string): string;
}

export const promised = <T>(run: (callback: Callback<T>) => void): Promise<T> =>
  new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));

export async function openHandle(location: string, options: { readOnly: boolean; writeBufferSize: number }): Promise<RocksDb> {
  const db = (rocksdb as unknown as (location: string) => RocksDb)(location);
  await promised((cb) => db.open({ createIfMissing: !options.readOnly, errorIfExists: false, ...options }, cb));
  return db;
}

/** RocksDB's RepairDB: a MANIFEST rebuilt from the table files found in `location`. */
export function repair(location: string): Promise<void> {
  return promised((cb) => (rocksdb as unknown as { repair(location: string, callback: Callback): void }).repair(location, cb));
}

/** Entries of the range, in key order, as the binding's iterator gives them. */
export async function* iterate(db: RocksDb, range: KvRange & { values?: boolean }): AsyncIterable<[Buffer, Buffer]> {
  const iterator = db.iterator({ ...range, limit: range.limit ?? -1, keyAsBuffer: true, valueAsBuffer: true });
  try {
    for (;;) {
      const entry = await new Promise<[Buffer, Buffer] | undefined>((resolve, reject) =>
        iterator.next((error, key, value) => (error ? reject(error) : resolve(key === undefined ? undefined : [key, value!]))),
      );
      if (!entry) return;
      yield entry;
    }
  } finally {
    await promised((cb) => iterator.end(cb));
  }
}
