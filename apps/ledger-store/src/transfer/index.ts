/**
 * The ledger-store's entry for `ledger-node export` and `ledger-node import` (the CLI loads it as
 * it loads the services): each opens the store the flags select in this process, offline, like
 * the ledger-store service would, and moves its ledgers to or from a ledger stream (format.ts).
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { getProfile } from '@ledger-node/chain';
import { storeTarget, type ParsedFlags, type StoreTarget } from '@ledger-node/config';
import { InvalidParams } from '@ledger-node/errors';
import { openBackend } from '../open';
import { LedgerStore } from '../store';
import { exportStore } from './export';
import { importStream, type ImportSummary } from './import';
import { Progress } from './progress';
import type { StreamTotals } from './format';

export { ImportRefused, type ImportSummary } from './import';
export { MalformedStream, type StreamTotals } from './format';

export interface TransferOptions {
  /** Where progress lines go (stderr). */
  log(line: string): void;
  /** Seconds between progress lines. */
  progressIntervalMs?: number;
}

/** Where a store is, for messages (a PostgreSQL URL carries no password: the flags refuse one). */
function describe(target: StoreTarget): string {
  return target.kind === 'rocksdb' ? `the RocksDB store at ${target.path}` : `the PostgreSQL store ${target.url}`;
}

/** Opens the store offline; a RocksDB store another process holds is refused with what to do. */
async function openStore(target: StoreTarget, command: 'export' | 'import'): Promise<LedgerStore> {
  if (command === 'export' && target.kind === 'rocksdb' && !existsSync(target.path)) {
    throw new InvalidParams(`there is no store at ${target.path}: give the -data_dir and -database_name (or -store / -store_read) the node uses`, 'data_dir');
  }
  try {
    return await LedgerStore.open(await openBackend(target));
  } catch (error) {
    const message = (error as Error).message;
    // RocksDB admits one process: the binding reports the LOCK file another process holds.
    if (target.kind === 'rocksdb' && /\block\b|LOCK/.test(message)) {
      throw new Error(
        `${describe(target)} is in use by another process (a running ledger-node or ledger-store holds its lock): ` +
          `${command} opens the store itself, offline; stop the node, run ${command} again, then start the node`,
      );
    }
    throw error;
  }
}

/** Writes every ledger of the store the flags select to `destination` (a file, or `-` for stdout). */
export async function runExport(flags: ParsedFlags, destination: string, options: TransferOptions): Promise<StreamTotals> {
  const target = storeTarget(flags);
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  const toStdout = destination === '-';
  if (toStdout && process.stdout.isTTY) throw new InvalidParams('export writes a binary stream: redirect stdout to a file or a pipe, or give a file name', 'file');
  if (!toStdout && existsSync(destination)) throw new InvalidParams(`${destination} exists: export writes a new file; remove it or name another`, 'file');
  const store = await openStore(target, 'export');
  // A file is written under a temporary name and renamed once complete: a file of that name is a whole stream.
  const partial = `${destination}.partial`;
  let output: Writable | undefined;
  try {
    output = toStdout ? process.stdout : createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    const progress = new Progress('export', { write: options.log, intervalMs: options.progressIntervalMs });
    const totals = await exportStore(store, output, profile.id, progress);
    if (!toStdout) {
      output.end();
      await finished(output);
      renameSync(partial, destination);
    }
    return totals;
  } catch (error) {
    if (!toStdout) {
      output?.destroy();
      rmSync(partial, { force: true });
    }
    throw error;
  } finally {
    await store.close();
  }
}

/** Verifies the stream in `file` and imports it into the store the flags select (see import.ts). */
export async function runImport(flags: ParsedFlags, file: string, options: TransferOptions): Promise<ImportSummary> {
  const target = storeTarget(flags);
  if (target.kind === 'postgres' && target.role === 'reader') {
    throw new InvalidParams('-store_read opens a PostgreSQL store for reading: import writes, give -store', 'store_read');
  }
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  if (file === '-') {
    throw new InvalidParams('import reads its stream twice (everything verified first, then written), so it needs a file, not stdin: save the stream to a file first', 'file');
  }
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch (error) {
    throw new InvalidParams(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'file');
  }
  if (!isFile) throw new InvalidParams(`${file} is not a regular file`, 'file');
  const store = await openStore(target, 'import');
  try {
    const progress = new Progress('import', { write: options.log, intervalMs: options.progressIntervalMs });
    return await importStream(store, () => createReadStream(file, { highWaterMark: 1 << 20 }), profile, progress);
  } finally {
    await store.close();
  }
}
