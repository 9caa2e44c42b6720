/**
 * `rocksdb` 5.2.1 (RocksDB 6.17, what the ledger-store runs on) beside its maintained fork
 * `@nxtedition/rocksdb` (current RocksDB), same machine, same run, same raw workload: `keys` sorted
 * 32-byte keys with 200-byte values written in batches, read back by `get` and `getMany` in random
 * order, then scanned in key order. Each figure is the fork's keys/s beside the current package's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import rocksdb from 'rocksdb';
import { ratioOf, type Figure } from './figures';

const require = createRequire(import.meta.url);

const KEY_BYTES = 32;
const VALUE_BYTES = 200;
const WRITE_BATCH = 1000;
const GET_MANY_SIZE = 100;
const SCAN_CHUNK = 1000;

type Entry = [key: Buffer, value: Buffer];

/** What the stage asks of either package: open a fresh database, write, read, scan, close. */
interface RawStore {
  batch(entries: readonly Entry[]): Promise<void>;
  get(key: Buffer): Promise<Buffer | undefined>;
  getMany(keys: readonly Buffer[]): Promise<(Buffer | undefined)[]>;
  /** Every entry in key order, counted and their bytes summed. */
  scan(): Promise<{ keys: number; bytes: number }>;
  close(): Promise<void>;
}

interface PackageRun {
  writeKeysPerSecond: number;
  getKeysPerSecond: number;
  getManyKeysPerSecond: number;
  scanKeysPerSecond: number;
}

export interface RocksDbPackagesResult {
  keys: number;
  current: PackageRun;
  fork: PackageRun;
  /** The fork's version as installed (package.json). */
  forkVersion: string;
}

function callback<T>(run: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
}

/** `rocksdb` 5.2.1: abstract-leveldown, callbacks. */
async function openCurrent(location: string): Promise<RawStore> {
  const db = (rocksdb as unknown as (location: string) => any)(location);
  await callback<void>((done) => db.open({ createIfMissing: true, errorIfExists: true }, done));
  const bufferOptions = { asBuffer: true };
  return {
    batch: (entries) => callback<void>((done) => db.batch(entries.map(([key, value]) => ({ type: 'put', key, value })), {}, done)),
    get: (key) =>
      new Promise((resolve, reject) =>
        db.get(key, bufferOptions, (error: (Error & { type?: string }) | null, value?: Buffer) => {
          if (error && error.type !== 'NotFoundError' && !/NotFound/.test(error.message)) reject(error);
          else resolve(error ? undefined : value);
        }),
      ),
    getMany: (keys) => callback<(Buffer | undefined)[]>((done) => db.getMany(keys, bufferOptions, done)),
    async scan() {
      const iterator = db.iterator({ keyAsBuffer: true, valueAsBuffer: true });
      let keys = 0;
      let bytes = 0;
      try {
        for (;;) {
          const entry = await new Promise<Entry | undefined>((resolve, reject) =>
            iterator.next((error: Error | null, key?: Buffer, value?: Buffer) => (error ? reject(error) : resolve(key === undefined ? undefined : [key, value!]))),
          );
          if (!entry) break;
          keys += 1;
          bytes += entry[0].length + entry[1].length;
        }
      } finally {
        await callback<void>((done) => iterator.end(done));
      }
      return { keys, bytes };
    },
    close: () => callback<void>((done) => db.close(done)),
  };
}

/** `@nxtedition/rocksdb`: abstract-level, promises. */
async function openFork(location: string): Promise<RawStore> {
  const { RocksLevel } = require('@nxtedition/rocksdb') as { RocksLevel: new (location: string, options: object) => any };
  const db = new RocksLevel(location, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open({ createIfMissing: true, errorIfExists: true });
  return {
    batch: (entries) => db.batch(entries.map(([key, value]) => ({ type: 'put', key, value }))),
    get: (key) => db.get(key),
    getMany: (keys) => db.getMany(keys),
    async scan() {
      const iterator = db.iterator();
      let keys = 0;
      let bytes = 0;
      try {
        for (;;) {
          const rows = (await iterator.nextv(SCAN_CHUNK)) as Entry[];
          if (rows.length === 0) break;
          for (const [key, value] of rows) {
            keys += 1;
            bytes += key.length + value.length;
          }
        }
      } finally {
        await iterator.close();
      }
      return { keys, bytes };
    },
    close: () => db.close(),
  };
}

const perSecond = (count: number, startedAt: number) => count / ((performance.now() - startedAt) / 1000);

/** Fisher–Yates over a copy: the read order, the same for both packages. */
function shuffled<T>(list: readonly T[]): T[] {
  const copy = [...list];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

async function measure(store: RawStore, entries: readonly Entry[], readOrder: readonly Buffer[], label: string): Promise<PackageRun> {
  const expectedBytes = entries.length * (KEY_BYTES + VALUE_BYTES);
  let startedAt = performance.now();
  for (let first = 0; first < entries.length; first += WRITE_BATCH) await store.batch(entries.slice(first, first + WRITE_BATCH));
  const writeKeysPerSecond = perSecond(entries.length, startedAt);

  // Single gets over a tenth of the keys: one native call each.
  const getKeys = readOrder.slice(0, Math.max(1, Math.floor(readOrder.length / 10)));
  startedAt = performance.now();
  for (const key of getKeys) if ((await store.get(key))?.length !== VALUE_BYTES) throw new Error(`${label}: get of a written key came back wrong`);
  const getKeysPerSecond = perSecond(getKeys.length, startedAt);

  startedAt = performance.now();
  for (let first = 0; first < readOrder.length; first += GET_MANY_SIZE) {
    const values = await store.getMany(readOrder.slice(first, first + GET_MANY_SIZE));
    if (values.some((value) => value?.length !== VALUE_BYTES)) throw new Error(`${label}: getMany of written keys came back wrong`);
  }
  const getManyKeysPerSecond = perSecond(readOrder.length, startedAt);

  startedAt = performance.now();
  const scanned = await store.scan();
  const scanKeysPerSecond = perSecond(scanned.keys, startedAt);
  if (scanned.keys !== entries.length || scanned.bytes !== expectedBytes) throw new Error(`${label}: the scan saw ${scanned.keys} keys, ${entries.length} were written`);
  return { writeKeysPerSecond, getKeysPerSecond, getManyKeysPerSecond, scanKeysPerSecond };
}

/** Both packages over the same entries, each in a fresh database under `scratch`, removed afterwards. */
export async function compareRocksDbPackages(scratch: string, keys: number): Promise<RocksDbPackagesResult> {
  const entries: Entry[] = Array.from({ length: keys }, (): Entry => [randomBytes(KEY_BYTES), randomBytes(VALUE_BYTES)]).sort(([a], [b]) => Buffer.compare(a, b));
  const readOrder = shuffled(entries.map(([key]) => key));
  const folder = mkdtempSync(path.join(scratch, 'rocksdb-packages-'));
  try {
    const run = async (open: (location: string) => Promise<RawStore>, name: string) => {
      const store = await open(path.join(folder, name));
      try {
        return await measure(store, entries, readOrder, name);
      } finally {
        await store.close();
      }
    };
    const current = await run(openCurrent, 'rocksdb');
    const fork = await run(openFork, 'nxtedition-rocksdb');
    const forkVersion = (require('@nxtedition/rocksdb/package.json') as { version: string }).version;
    return { keys, current, fork, forkVersion };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** One figure per operation: the fork's keys/s, the current package's as its same-run baseline, fork ÷ current. */
export function rocksDbPackageFigures(result: RocksDbPackagesResult | undefined): Figure[] {
  const fork = `@nxtedition/rocksdb ${result?.forkVersion ?? ''}`.trim();
  const operations: { key: keyof PackageRun; name: string; note: string }[] = [
    { key: 'writeKeysPerSecond', name: 'write', note: `sorted 32-byte keys, 200-byte values, batches of ${WRITE_BATCH}` },
    { key: 'getKeysPerSecond', name: 'get', note: 'get, random order, a tenth of the keys' },
    { key: 'getManyKeysPerSecond', name: 'getmany', note: `getMany of ${GET_MANY_SIZE}, random order` },
    { key: 'scanKeysPerSecond', name: 'scan', note: 'iterator over every key in order' },
  ];
  return operations.map(({ key, name, note }) => ({
    name: `rocksdb_pkg_${name}_keys_per_s{package="${fork}"}`,
    value: result?.fork[key],
    unit: 'keys/s',
    baselineName: 'rocksdb 5.2.1',
    baseline: result?.current[key],
    ratio: ratioOf(result?.fork[key], result?.current[key]),
    note: result ? `${note}; ${result.keys} keys` : note,
  }));
}
