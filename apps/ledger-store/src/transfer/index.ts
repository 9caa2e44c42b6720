/**
 * The ledger-store's entry for `ledger-node export` and `ledger-node import` (the CLI loads it as
 * it loads the services): each opens the store the flags select in this process, offline, as the
 * ledger-store service would (openLedgerStore), and moves its ledgers to or from a ledger stream
 * (format.ts). Export reads a PostgreSQL store as a reader; import writes it as its one writer,
 * holding the writer lock, and refuses a database another process writes.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { chainNetwork, getProfile, nodePublicKeyHex, readValidatorList, XRPL_ALPHABET, type ChainProfile } from '@ledger-node/chain';
import { listValue, storeTarget, TRUST_FLAGS, type ParsedFlags, type StoreTarget } from '@ledger-node/config';
import { Conflict, InvalidParams } from '@ledger-node/errors';
import { createLogger } from '@ledger-node/telemetry';
import { openLedgerStore, STORE_WRITER_LOCK, type OpenedStore } from '../open';
import { exportStore } from './export';
import { importStream, type ImportSummary } from './import';
import { Progress } from './progress';
import type { ImportTrust } from './proven';
import type { StreamTotals } from './format';

export { ImportRefused, type ImportSummary } from './import';
export { MalformedStream, type StreamTotals } from './format';

export interface TransferOptions {
  /** Where progress lines go (stderr). */
  log(line: string): void;
  /** Seconds between progress lines. */
  progressIntervalMs?: number;
}

/** openLedgerStore logs its role changes for a service's log; export and import say what they need on stderr themselves. */
const silent = () => createLogger('ledger-node transfer', 'silent');

/** Where a store is, for messages (a PostgreSQL URL carries no password: the flags refuse one). */
function describe(target: StoreTarget): string {
  return target.kind === 'rocksdb' ? `the RocksDB store at ${target.path}` : `the PostgreSQL store ${target.url}`;
}

/** Opens the store offline with `open`; a RocksDB store another process holds is refused with what to do. */
async function openOffline(target: StoreTarget, command: 'export' | 'import', open: () => Promise<OpenedStore>): Promise<OpenedStore> {
  try {
    return await open();
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

/**
 * Opens the store to read it. A PostgreSQL store is opened as a reader (-store_read's role) whether
 * -store or -store_read names it: export only reads, so it takes no writer lock and writes nothing,
 * and reads a replica as well as the primary.
 */
async function openForExport(target: StoreTarget): Promise<OpenedStore> {
  if (target.kind === 'rocksdb' && !existsSync(target.path)) {
    throw new InvalidParams(`there is no store at ${target.path}: give the -data_dir and -database_name (or -store / -store_read) the node uses`, 'data_dir');
  }
  const readTarget: StoreTarget = target.kind === 'postgres' ? { ...target, role: 'reader' } : target;
  // A reader holds no lock, so nothing is ever fatal to it.
  return await openOffline(target, 'export', () => openLedgerStore(readTarget, { logger: silent(), onFatal: () => undefined }));
}

/**
 * Opens the store to write it, as its one writer: a PostgreSQL store through the ledger-store's
 * writer lock, so that a ledger-store started during the import waits as a standby. A database
 * whose lock another process holds is refused at once rather than waited for: that process writes
 * it. `lost` is aborted, with the reason, when the lock is lost during the import.
 */
async function openForImport(target: StoreTarget, lost: AbortController, options: TransferOptions): Promise<OpenedStore> {
  const opened = await openOffline(target, 'import', () =>
    openLedgerStore(target, {
      logger: silent(),
      onFatal: (error) =>
        lost.abort(
          new Error(
            `${error.message}; import stopped writing at once, as another process may write the database from now on: ` +
              'the ledgers written so far are stored whole; run import again (it skips them) once no ledger-store writes the database',
            { cause: error },
          ),
        ),
    }),
  );
  const { role, backend } = opened.store;
  if (role === 'writer') {
    if (target.kind === 'postgres') options.log(`import: holds the ${STORE_WRITER_LOCK} writer lock on ${backend.location}; a ledger-store started on it meanwhile waits as a standby`);
    return opened;
  }
  // A standby: the lock is held elsewhere.
  await opened.close();
  throw new Conflict(
    `a ledger-store writes ${backend.location} (it holds the database's ${STORE_WRITER_LOCK} writer lock): import does not write beside it; ` +
      'stop the node first (every ledger-store given this -store, or the other import), run import again, then start the node',
  );
}

/** Writes every ledger of the store the flags select to `destination` (a file, or `-` for stdout). */
export async function runExport(flags: ParsedFlags, destination: string, options: TransferOptions): Promise<StreamTotals> {
  const target = storeTarget(flags);
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  const toStdout = destination === '-';
  if (toStdout && process.stdout.isTTY) throw new InvalidParams('export writes a binary stream: redirect stdout to a file or a pipe, or give a file name', 'file');
  if (!toStdout && existsSync(destination)) throw new InvalidParams(`${destination} exists: export writes a new file; remove it or name another`, 'file');
  const opened = await openForExport(target);
  const { store } = opened;
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
    await opened.close();
  }
}

/**
 * Who an import trusts to have validated a ledger, as sync reads it from the flags: with any trust
 * flag given, exactly what the flags say; else the published lists of the network (-network_id,
 * else the chain's default) the profile knows.
 */
function importTrust(flags: ParsedFlags, profile: ChainProfile): ImportTrust {
  if (TRUST_FLAGS.some((flag) => flags.given(flag))) {
    const keys = flags.string('validator_list_keys');
    const validatorsFile = flags.string('validators');
    return { publisherKeys: (keys === 'none' ? [] : listValue(keys)).map((key) => nodePublicKeyHex(key, { addressAlphabet: XRPL_ALPHABET })), ...(validatorsFile ? { validators: readValidatorList(validatorsFile) } : {}) };
  }
  return { publisherKeys: [...(chainNetwork(profile, flags.integer('network_id'))?.validatorListKeys ?? [])] };
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
  const trust = importTrust(flags, profile);
  const lost = new AbortController();
  const opened = await openForImport(target, lost, options);
  try {
    const progress = new Progress('import', { write: options.log, intervalMs: options.progressIntervalMs });
    return await importStream(opened.store, () => createReadStream(file, { highWaterMark: 1 << 20 }), profile, progress, { trust, signal: lost.signal });
  } finally {
    await opened.close();
  }
}
