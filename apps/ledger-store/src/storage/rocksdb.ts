import { constants, mkdirSync } from 'node:fs';
import { access, readdir, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { damageOf } from './damage';
import { writeFailure, type KeyValue } from './kv';
import { iterate, openHandle, promised } from './rocksdbBinding';

/** Written (deleted) by nothing but the probe after a full disk: bucket 0x00 is never a bucket (buckets.ts). */
const WRITE_PROBE_KEY = Buffer.of(0x00);

/** The binding's default memtable size (binding.cc `writeBufferSize`). */
const DEFAULT_WRITE_BUFFER_BYTES = 4 << 20;

/**
 * TEST HOOK, for the disk-fault suite only (apps/ledger-store/test/disk-faults.test.ts): a memtable
 * of this many bytes instead of 4 MiB, so that RocksDB flushes and creates files every few ledgers
 * and a directory made read-only is met within seconds. It changes no result, only how often
 * RocksDB writes files; unset in every deployment.
 */
export const TEST_WRITE_BUFFER_ENV = 'LEDGER_NODE_TEST_ROCKSDB_WRITE_BUFFER_BYTES';

function writeBufferBytes(): number {
  const configured = process.env[TEST_WRITE_BUFFER_ENV];
  if (configured === undefined || configured === '') return DEFAULT_WRITE_BUFFER_BYTES;
  const bytes = Number(configured);
  if (!Number.isInteger(bytes) || bytes < 64 << 10 || bytes > 64 << 20) {
    throw new Error(`${TEST_WRITE_BUFFER_ENV} (a test hook) must be a byte count from 65536 to 67108864, got ${configured}`);
  }
  return bytes;
}

/**
 * RocksDB at `location` (created when missing), through the `rocksdb` binding; a damaged database
 * (damage.ts) is refused with what is wrong, before anything is written to it.
 *
 * A failed write retires the handle for writing. RocksDB 6.17 keeps taking writes on it once space
 * returns, appended after the torn WAL record the failure left, and the next open stops replaying
 * at that record, losing every later write; a directory that was read-only leaves the handle in its
 * background-error state for good. So the next write, once the directory takes writes again,
 * reopens the database first (the replay ends at the torn record: every acknowledged write is
 * before it). Until then writes fail with the failure's reason (kv.ts `writeFailure`: "disk full",
 * "read-only") and reads are served by the old handle, or by a read-only one when the reopen itself
 * could not write.
 */
export async function openRocksDb(location: string): Promise<KeyValue> {
  mkdirSync(path.dirname(location), { recursive: true });
  const writeBufferSize = writeBufferBytes();
  const damage = await damageOf(location);
  if (damage !== undefined) {
    throw new Error(
      `cannot open the database at ${location}: it is damaged, ${damage} (a file cut, or copied while it was written); ` +
        'restore a copy taken while ledger-store was stopped, or move it aside and sync again',
    );
  }
  let db = await openHandle(location, { readOnly: false, writeBufferSize }).catch((error: Error) => {
    throw new Error(`cannot open the database at ${location}: ${error.message}`);
  });
  const gate = new HandleGate();
  /** Why writes fail, from the last failed write until a reopen succeeds. */
  let writeFailed: unknown;
  /** The handle: read-write, read-only (a reopen could not write), or none (not even that opened; reads fail until a later write reopens it). */
  let handle: 'read-write' | 'read-only' | 'closed' = 'read-write';
  /** A write on this handle met a full disk: RocksDB is recovering from it by itself (below). */
  let metFullDisk = false;

  const reopen = (batchBytes: number) =>
    gate.exclusive(async () => {
      if (writeFailed === undefined) return;
      const notWritable = await whyNotWritable(location, batchBytes + writeBufferSize);
      if (notWritable !== undefined) throw (writeFailed = writeFailure(notWritable, location));
      if (handle === 'read-write' && metFullDisk) {
        // RocksDB resumes after a full disk by itself (its SstFileManager polls for space every 5 s),
        // and closing it while that recovery is under way hangs (RocksDB 6.17): close only once it
        // takes a write again. The probe, a delete of a key no bucket uses, is lost with the torn WAL.
        await promised<void>((cb) => db.batch([{ type: 'del', key: WRITE_PROBE_KEY }], {}, cb)).catch((error: unknown) => {
          throw (writeFailed = writeFailure(error, location));
        });
      }
      if (handle !== 'closed') await promised((cb) => db.close(cb));
      handle = 'closed';
      try {
        db = await openHandle(location, { readOnly: false, writeBufferSize });
        handle = 'read-write';
        metFullDisk = false;
        writeFailed = undefined;
      } catch (error) {
        // The replay could not be written: reads go on from a read-only handle (which writes nothing).
        writeFailed = writeFailure(error, location);
        db = await openHandle(location, { readOnly: true, writeBufferSize });
        handle = 'read-only';
        throw writeFailed;
      }
    });

  return {
    get: (key) =>
      gate.shared(async () => {
        try {
          return await promised<Buffer>((cb) => db.get(key, { asBuffer: true, fillCache: true }, cb));
        } catch (error) {
          if (/NotFound/i.test((error as Error).message)) return undefined;
          throw error;
        }
      }),
    getMany: (keys) => (keys.length === 0 ? Promise.resolve([]) : gate.shared(() => promised((cb) => db.getMany(keys, { asBuffer: true }, cb)))),
    async batch(operations) {
      if (writeFailed !== undefined) await reopen(operations.reduce((sum, op) => sum + op.key.length + (op.type === 'put' ? op.value.length : 0), 0));
      await gate.shared(() => promised<void>((cb) => db.batch(operations, {}, cb))).catch((error: unknown) => {
        if (/no space left on device|ENOSPC/i.test(String(error))) metFullDisk = true;
        throw (writeFailed = writeFailure(error, location));
      });
    },
    async *entries(range) {
      await gate.enter();
      try {
        yield* iterate(db, range);
      } finally {
        gate.leave();
      }
    },
    sizeOnDisk: () => directorySize(location),
    close: () =>
      gate.exclusive(async () => {
        if (handle !== 'closed') await promised((cb) => db.close(cb));
        handle = 'closed';
      }),
  };
}

/**
 * Why the directory would not take a reopen and the failed write now: not writable (EROFS, EACCES),
 * or less free space than the write and a memtable flush need; undefined when it would.
 */
async function whyNotWritable(location: string, neededBytes: number): Promise<Error | undefined> {
  try {
    await access(location, constants.W_OK);
    const { bavail, bsize } = await statfs(location);
    if (bavail * bsize < neededBytes) return new Error(`No space left on device: ${bavail * bsize} bytes free, ${neededBytes} needed`);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** Calls on a handle share it; a reopen (or close) waits for the calls under way and holds new ones back until it is done. */
class HandleGate {
  private active = 0;
  private idle: (() => void) | undefined;
  private exclusiveRun: Promise<void> | undefined;

  async enter(): Promise<void> {
    while (this.exclusiveRun) await this.exclusiveRun;
    this.active++;
  }

  leave(): void {
    this.active--;
    if (this.active === 0) this.idle?.();
  }

  async shared<T>(use: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await use();
    } finally {
      this.leave();
    }
  }

  async exclusive<T>(task: () => Promise<T>): Promise<T> {
    while (this.exclusiveRun) await this.exclusiveRun;
    let release!: () => void;
    this.exclusiveRun = new Promise<void>((resolve) => (release = resolve));
    try {
      while (this.active > 0) await new Promise<void>((resolve) => (this.idle = resolve));
      this.idle = undefined;
      return await task();
    } finally {
      this.exclusiveRun = undefined;
      release();
    }
  }
}

async function directorySize(location: string): Promise<number> {
  const names = await readdir(location);
  const sizes = await Promise.all(names.map((name) => stat(path.join(location, name)).then((s) => (s.isFile() ? s.size : 0), () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}
