import type { StoreTarget } from '@ledger-node/config';
import { connectionConfig, describeDatabase, electWriter } from '@ledger-node/postgres';
import type { Logger } from '@ledger-node/telemetry';
import type { LedgerBackend } from './backend/backend';
import { KvLedgerBackend } from './backend/kv-backend';
import { PgLedgerBackend } from './backend/pg-backend';
import { openRocksDb } from './storage/rocksdb';
import { LedgerStore, type ChainOfStore, type FollowOptions, type HistoryOptions, type StoreOptions } from './store';

/** The writer lock of a PostgreSQL ledger database (libs/postgres): its holder is the one ledger-store that writes it. */
export const STORE_WRITER_LOCK = 'ledger-store';

/** The backend the flags select (config.ts): RocksDB under -data_dir, or PostgreSQL (read-only for -store_read). */
export async function openBackend(target: StoreTarget): Promise<LedgerBackend> {
  if (target.kind === 'rocksdb') return new KvLedgerBackend(await openRocksDb(target.path), `the database at ${target.path}`);
  return PgLedgerBackend.open(connectionConfig(target.url, target.password), describeDatabase(target.url), { readOnly: target.role === 'reader' });
}

/** Why a standby refuses writes (and its status says so). */
export const standbyRefusal = (location: string) =>
  `this ledger-store is a standby writer waiting for the writer lock on ${location}: it takes no writes, and takes over when the holder stops`;

/** Why a reader refuses writes (and its status says so). */
export const readerRefusal = (location: string) =>
  `this ledger-store reads ${location} (-store_read) and takes no writes; writes go to the ledger-store started with -store`;

export interface OpenedStore {
  store: LedgerStore;
  /** Closes the store, then gives the writer lock up (or stops waiting for it). */
  close(): Promise<void>;
}

export interface OpenOptions {
  logger: Logger;
  /**
   * The writer lock was lost, or taking over failed: from now on another process may write, and
   * this one must stop writing at once (main.ts exits, and its supervisor starts it again as a standby).
   */
  onFatal(error: Error): void;
  /** Bounded history (-ledger_history; RocksDB only). */
  history?: HistoryOptions;
  /** The chain the writer must hold (-chain, -network_id): another one's store is refused. */
  chain?: ChainOfStore;
  /** What a writer needs to settle the ledgers an import left unproven (store/unproven.ts). */
  unproven?: Pick<StoreOptions, 'indexOf' | 'onUnproven'>;
}

/**
 * Opens the store the flags select in its role. RocksDB: the writer (one process owns the files).
 * PostgreSQL with -store: the writer once it holds the writer lock; until then a standby that
 * serves reads, follows the database and takes over when the lock comes. With -store_read: a
 * reader that follows its database and takes no writes.
 */
export async function openLedgerStore(target: StoreTarget, options: OpenOptions): Promise<OpenedStore> {
  const backend = await openBackend(target);
  if (target.kind === 'rocksdb') {
    const store = await LedgerStore.open(backend, { history: options.history, chain: options.chain, ...options.unproven });
    return { store, close: () => store.close() };
  }
  const { logger } = options;
  const follow = (role: FollowOptions['role'], refusal: string): FollowOptions => ({ role, refusal, onError: followFailures(logger, backend.location) });
  if (target.role === 'reader') {
    const store = await LedgerStore.open(backend, { follow: follow('reader', readerRefusal(backend.location)) });
    return { store, close: () => store.close() };
  }

  // Elected like sync and submission (libs/postgres electWriter): the writer at once when the lock is
  // free, else a standby that follows the database and takes over when the lock comes.
  const stopWaiting = new AbortController();
  let lockTaken = false;
  let standby: LedgerStore | undefined;
  const takeOver = async (follower: LedgerStore) => {
    try {
      await follower.promote();
    } catch (error) {
      options.onFatal(new Error(`took the writer lock on ${backend.location} but could not take over: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
      return;
    }
    logger.info({ database: backend.location, completeRanges: follower.ranges }, `writer: took over the writer lock on ${backend.location}; writing from now on`);
  };
  const election = await electWriter(
    { connection: connectionConfig(target.url, target.password), location: backend.location },
    {
      name: STORE_WRITER_LOCK,
      service: 'ledger-store',
      holderTitle: 'writer',
      activity: 'writing',
      logger,
      signal: stopWaiting.signal,
      standby: () => undefined,
      takeOver() {
        lockTaken = true;
        if (standby) void takeOver(standby);
      },
      onLost: options.onFatal,
    },
  ).catch(async (error: unknown) => {
    await backend.close();
    throw error;
  });
  const close = async (store: LedgerStore) => {
    stopWaiting.abort();
    await store.close();
    await election.release();
  };

  if (lockTaken) {
    const store = await backend
      .fence()
      .then(() => LedgerStore.open(backend, { chain: options.chain, ...options.unproven }))
      .catch(async (error: unknown) => {
        await election.release();
        throw error;
      });
    return { store, close: () => close(store) };
  }
  standby = await LedgerStore.open(backend, { follow: follow('standby', standbyRefusal(backend.location)), ...options.unproven });
  // The lock may have come while the standby opened.
  if (lockTaken) void takeOver(standby);
  const store = standby;
  return { store, close: () => close(store) };
}

/** Logs a follower's failed look at its database once per distinct reason, and its recovery. */
function followFailures(logger: Logger, location: string): (error: unknown) => void {
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  return (error) => {
    const reason = error instanceof Error ? error.message : String(error);
    if (reason !== last) logger.warn({ database: location, reason }, `cannot follow ${location}: ${reason}; trying again`);
    last = reason;
    // No failure for a while: the next one is logged again.
    clearTimeout(timer);
    timer = setTimeout(() => (last = undefined), 60_000);
    timer.unref();
  };
}
