import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Keys } from '../src/storage/buckets';
import type { KeyValue } from '../src/storage/kv';
import { openRocksDb, TEST_WRITE_BUFFER_ENV } from '../src/storage/rocksdb';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledger-node-rocksdb-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const run = (command: string, ...args: string[]) => execFileSync(command, args, { stdio: 'pipe' });

/** Whether this machine lets the test mount (root, or CAP_SYS_ADMIN): the disk faults below need it. */
function canMount(): boolean {
  const dir = scratch();
  try {
    run('mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir);
    run('umount', dir);
    return true;
  } catch {
    return false;
  }
}
const mounts = canMount();

function mount(dir: string, ...args: string[]): void {
  run('mount', ...args, dir);
  cleanups.push(() => {
    // The test may have unmounted it already.
    if (readFileSync('/proc/self/mounts', 'utf8').split('\n').some((line) => line.split(' ')[1] === dir)) run('umount', '-l', dir);
  });
}

const headerKey = (ledgerIndex: number) => Keys.ledgerHeader.encode({ ledgerIndex });
const value = (ledgerIndex: number, bytes: number) => Buffer.from(Array.from({ length: bytes }, (_, position) => (ledgerIndex * 7 + position * 13) % 251));

/** Writes ledgerIndex from..to-1 one batch each; returns the first that failed, or `to`. */
async function writeUntilFailure(kv: KeyValue, from: number, to: number, bytes: number): Promise<{ failedAt: number; error?: Error }> {
  for (let ledgerIndex = from; ledgerIndex < to; ledgerIndex++) {
    try {
      await kv.batch([{ type: 'put', key: headerKey(ledgerIndex), value: value(ledgerIndex, bytes) }]);
    } catch (error) {
      return { failedAt: ledgerIndex, error: error as Error };
    }
  }
  return { failedAt: to };
}

async function storedAmong(kv: KeyValue, ledgerIndexes: number[]): Promise<number[]> {
  const values = await kv.getMany(ledgerIndexes.map(headerKey));
  return ledgerIndexes.filter((_, position) => values[position] !== undefined);
}

/** Retries a write until it is taken: RocksDB resumes after a full disk on its own clock (it polls every 5 s). */
async function writeOnceTaken(kv: KeyValue, ledgerIndex: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await kv.batch([{ type: 'put', key: headerKey(ledgerIndex), value: value(ledgerIndex, 1000) }]);
    } catch (error) {
      if (attempt === 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(!mounts)('openRocksDb on a disk that fills up or turns read-only', () => {
  it('says "disk full", serves reads meanwhile, and keeps every write taken once space returns across a reopen', async () => {
    const disk = scratch();
    mount(disk, '-t', 'tmpfs', '-o', 'size=8m', 'tmpfs');
    const location = path.join(disk, 'node.db');
    const kv = await openRocksDb(location);
    await writeUntilFailure(kv, 1, 50, 20_000);
    const { bavail, bsize } = statfsSync(disk);
    writeFileSync(path.join(disk, 'ballast'), Buffer.alloc(bavail * bsize - 600_000));
    const { failedAt, error } = await writeUntilFailure(kv, 50, 1000, 20_000);
    expect(error?.message).toMatch(/^disk full: the store at .* cannot write/);
    expect(await storedAmong(kv, [1, failedAt - 1, failedAt])).toEqual([1, failedAt - 1]);

    rmSync(path.join(disk, 'ballast'));
    const after = Array.from({ length: 20 }, (_, offset) => 2000 + offset);
    for (const ledgerIndex of after) await writeOnceTaken(kv, ledgerIndex);
    await kv.close();

    // RocksDB 6.17 alone appends these after the torn WAL record the failure left, and loses them here.
    const reopened = await openRocksDb(location);
    cleanups.push(() => void reopened.close());
    expect(await storedAmong(reopened, [1, failedAt - 1, failedAt, ...after])).toEqual([1, failedAt - 1, ...after]);
  });

  it('says read-only, serves reads meanwhile, and takes writes again once the directory is writable, without a restart', async () => {
    process.env[TEST_WRITE_BUFFER_ENV] = String(64 << 10);
    cleanups.push(() => delete process.env[TEST_WRITE_BUFFER_ENV]);
    const location = path.join(scratch(), 'node.db');
    const kv = await openRocksDb(location);
    await writeUntilFailure(kv, 1, 20, 3000);
    // Open files stay writable under a read-only bind mount; the next file RocksDB creates is EROFS.
    mount(location, '--bind', '-o', 'ro', location);
    const { failedAt, error } = await writeUntilFailure(kv, 20, 5000, 3000);
    expect(error?.message).toMatch(/^the store at .* cannot write: its directory is read-only/);
    expect(await storedAmong(kv, [1, failedAt - 1])).toEqual([1, failedAt - 1]);

    run('umount', '-l', location);
    await writeOnceTaken(kv, 9000);
    await kv.close();
    const reopened = await openRocksDb(location);
    cleanups.push(() => void reopened.close());
    expect(await storedAmong(reopened, [1, failedAt - 1, failedAt, 9000])).toEqual([1, failedAt - 1, 9000]);
  });
});

describe('openRocksDb on a damaged database', () => {
  /** A database of 600 ledger headers over many table files (a small memtable), closed cleanly. */
  async function storeWithManyTables(): Promise<string> {
    process.env[TEST_WRITE_BUFFER_ENV] = String(64 << 10);
    cleanups.push(() => delete process.env[TEST_WRITE_BUFFER_ENV]);
    const location = path.join(scratch(), 'node.db');
    const kv = await openRocksDb(location);
    expect((await writeUntilFailure(kv, 1, 601, 2000)).error).toBeUndefined();
    await kv.close();
    return location;
  }

  it('refuses a table file cut short, naming it', async () => {
    const location = await storeWithManyTables();
    const table = readdirSync(location).filter((name) => name.endsWith('.sst')).sort()[0]!;
    truncateSync(path.join(location, table), 1000);
    await expect(openRocksDb(location)).rejects.toThrow(
      new RegExp(`^cannot open the database at ${location}: it is damaged, its table file ${table} is 1000 bytes where its MANIFEST records \\d+ `),
    );
  });

  it('refuses a MANIFEST older than its table files (ledgers only unlisted files hold), and opens it whole otherwise', async () => {
    const location = await storeWithManyTables();
    const manifest = readdirSync(location).find((name) => name.startsWith('MANIFEST-'))!;
    const size = statSync(path.join(location, manifest)).size;
    let refused = 0;
    for (const fraction of [0.25, 0.5, 0.75, 0.95, 1]) {
      const copy = path.join(scratch(), 'node.db');
      cpSync(location, copy, { recursive: true });
      truncateSync(path.join(copy, manifest), Math.floor(size * fraction));
      const opened = await openRocksDb(copy).catch((error: Error) => error);
      if (opened instanceof Error) {
        expect(opened.message).toMatch(/it is damaged, (its MANIFEST is older than its table files: \d+ ledger headers|its table file \d+\.sst is missing)/);
        refused++;
        continue;
      }
      // Served only when whole: every ledger written is there.
      const all = Array.from({ length: 600 }, (_, offset) => 1 + offset);
      expect((await storedAmong(opened, all)).length).toBe(600);
      await opened.close();
    }
    expect(refused).toBeGreaterThan(0);
  });
});
