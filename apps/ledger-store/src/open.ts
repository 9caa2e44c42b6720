import type { StoreTarget } from '@ledger-node/config';
import { describeDatabase, electWriter, findHost, NoHostError, parseDatabaseUrl, type FoundHost } from '@ledger-node/postgres';
import { counter, type Logger } from '@ledger-node/telemetry';
import type { LedgerBackend } from './backend/backend';
import { KvLedgerBackend } from './backend/kv-backend';
import { PgLedgerBackend } from './backend/pg-backend';
import { openRocksDb } from './storage/rocksdb';
import { LedgerStore, type ChainOfStore, type FollowOptions, type HistoryOptions, type StoreOptions } from './store';

/** The writer lock of a PostgreSQL ledger database (libs/postgres): its holder is the one ledger-store that writes it. */
export const STORE_WRITER_LOCK = 'ledger-store';

/** How long a writer waits at open for one of its database's hosts to be a writable primary (a standby being promoted). */
export const PRIMARY_WAIT_MS = 60_000;
const PRIMARY_POLL_MS = 250;

/**
 * The backend the flags select (config.ts): RocksDB under -data_dir, or PostgreSQL (read-only for
 * -store_read). A PostgreSQL writer (or standby writer) connects to the host of the URL's list that
 * is the writable primary, waiting up to PRIMARY_WAIT_MS for one (saying so once); a reader to the
 * first host the URL's target_session_attrs admits (a standby reads, with its lag), and to another
 * when that one cannot be reached.
 */
export async function openBackend(target: StoreTarget, logger?: Pick<Logger, 'warn'>): Promise<LedgerBackend> {
  if (target.kind === 'rocksdb') return new KvLedgerBackend(await openRocksDb(target.path), `the database at ${target.path}`);
  const location = describeDatabase(target.url);
  const { hosts, sessionAttrs } = parseDatabaseUrl(target.url, target.password);
  const wanted = target.role === 'reader' ? sessionAttrs : 'read-write';
  const deadline = Date.now() + PRIMARY_WAIT_MS;
  let found: FoundHost | undefined;
  let waitingLogged = false;
  while (found === undefined) {
    try {
      found = await findHost(hosts, wanted, { connectionTimeoutMillis: 5_000 });
    } catch (error) {
      // One host: its own failure, as PgLedgerBackend.open reports it.
      if (!(error instanceof NoHostError) || hosts.length === 1 || Date.now() > deadline) {
        if (hosts.length === 1) break;
        throw new Error(`cannot open ${location}: ${(error as Error).message}`, { cause: error });
      }
      if (!waitingLogged) logger?.warn({ database: location, reason: error.message }, `${location}: ${error.message}; waiting for one (a standby being promoted)`);
      waitingLogged = true;
      await new Promise((resolve) => setTimeout(resolve, PRIMARY_POLL_MS));
    }
  }
  await found?.client.end().catch(() => undefined);
  const host = found?.host ?? hosts[0]!;
  // A reader of several hosts moves to another when its host cannot be reached.
  const findAgain = async () => {
    const again = await findHost(hosts, wanted, { connectionTimeoutMillis: 5_000 });
    await again.client.end().catch(() => undefined);
    return again.host;
  };
  return PgLedgerBackend.open(host.config, location, { readOnly: target.role === 'reader', host: host.name, ...(hosts.length > 1 ? { findHost: findAgain } : {}) });
}

/** Times a writer found that the database's primary had moved to another host since the writer before it (a failover). */
const primaryMoves = () => counter('ledger_node_store_postgres_failovers_total', "Times this ledger-store became the writer on another host of its database than the one the writer before it wrote through (the primary moved: a failover)");

/**
 * After a fence: logs the failover once, and counts it, when the writer before this one wrote
 * through another host of the database.
 */
function reportPrimaryMove(backend: LedgerBackend, logger: Logger): void {
  if (!(backend instanceof PgLedgerBackend) || backend.primaryMovedFrom === undefined) return;
  primaryMoves().inc();
  logger.warn(
    { database: backend.location, from: backend.primaryMovedFrom, to: backend.host },
    `failover: the primary of ${backend.location} moved from ${backend.primaryMovedFrom} to ${backend.host}; writing there from now on, from the ranges it holds`,
  );
}

/**
 * Why a writer lock held on `lockHost` cannot make `backend` the writer: its sessions go to another
 * host (the primary moved between the store's open and the lock). Restarted, the store opens on the primary.
 */
function hostMismatch(backend: LedgerBackend, lockHost: string | undefined): Error | undefined {
  if (!(backend instanceof PgLedgerBackend) || lockHost === undefined || backend.host === undefined || backend.host === lockHost) return undefined;
  return new Error(`took the writer lock on ${lockHost}, the primary of ${backend.location} now, but this ledger-store's sessions go to ${backend.host}`);
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
  const backend = await openBackend(target, options.logger);
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
    const mismatch = hostMismatch(backend, election.host);
    if (mismatch) {
      options.onFatal(mismatch);
      return;
    }
    try {
      await follower.promote();
      reportPrimaryMove(backend, logger);
    } catch (error) {
      options.onFatal(new Error(`took the writer lock on ${backend.location} but could not take over: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
      return;
    }
    logger.info({ database: backend.location, completeRanges: follower.ranges }, `writer: took over the writer lock on ${backend.location}; writing from now on`);
  };
  const election = await electWriter(
    { connection: parseDatabaseUrl(target.url, target.password).hosts, location: backend.location },
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
    const store = await Promise.resolve()
      .then(() => {
        const mismatch = hostMismatch(backend, election.host);
        if (mismatch) throw mismatch;
        return backend.fence();
      })
      .then(() => reportPrimaryMove(backend, logger))
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
