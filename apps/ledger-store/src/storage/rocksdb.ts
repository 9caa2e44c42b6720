import { mkdirSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import rocksdb from 'rocksdb';
import { writeFailure, type KeyValue, type KvOperation, type KvRange } from './kv';

type Callback<T = void> = (error: Error | undefined | null, value?: T) => void;

interface RocksIterator {
  next(callback: (error: Error | undefined, key?: Buffer, value?: Buffer) => void): void;
  end(callback: Callback): void;
}

interface RocksDb {
  open(options: object, callback: Callback): void;
  close(callback: Callback): void;
  get(key: Buffer, options: object, callback: Callback<Buffer>): void;
  getMany(keys: Buffer[], options: object, callback: Callback<(Buffer | undefined)[]>): void;
  batch(operations: KvOperation[], options: object, callback: Callback): void;
  iterator(options: object): RocksIterator;
}

const promised = <T>(run: (callback: Callback<T>) => void): Promise<T> =>
  new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));

/** RocksDB at `location` (created when missing), through the `rocksdb` binding. */
export async function openRocksDb(location: string): Promise<KeyValue> {
  mkdirSync(path.dirname(location), { recursive: true });
  const db = (rocksdb as unknown as (location: string) => RocksDb)(location);
  await promised((cb) => db.open({ createIfMissing: true, errorIfExists: false }, cb)).catch((error: Error) => {
    throw new Error(`cannot open the database at ${location}: ${error.message}`);
  });
  return {
    async get(key) {
      try {
        return await promised<Buffer>((cb) => db.get(key, { asBuffer: true, fillCache: true }, cb));
      } catch (error) {
        if (/NotFound/i.test((error as Error).message)) return undefined;
        throw error;
      }
    },
    getMany: (keys) => promised((cb) => db.getMany(keys, { asBuffer: true }, cb)),
    batch: (operations) =>
      promised<void>((cb) => db.batch(operations, {}, cb)).catch((error: unknown) => {
        throw writeFailure(error, location);
      }),
    entries: (range) => iterate(db, range),
    sizeOnDisk: () => directorySize(location),
    close: () => promised((cb) => db.close(cb)),
  };
}

async function* iterate(db: RocksDb, range: KvRange): AsyncIterable<[Buffer, Buffer]> {
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

async function directorySize(location: string): Promise<number> {
  const names = await readdir(location);
  const sizes = await Promise.all(names.map((name) => stat(path.join(location, name)).then((s) => (s.isFile() ? s.size : 0), () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}
