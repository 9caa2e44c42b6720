/**
 * One writer per database, elected with PostgreSQL's own lock (as Clio elects its writer): a
 * session-level advisory lock held on a dedicated connection. The server releases it when that
 * session ends — the holder stopped, crashed or lost its connection — and the next process asking
 * for it takes over.
 *
 * Advisory locks work on a standby too, and die with the server that held them: so the lock is
 * only ever taken on a writable primary (findHost 'read-write', among the database's hosts), and a
 * holder whose server turns read-only (a primary demoted, or made read-only) has lost it. A writer
 * that lost its lock wins it again on the new primary before it writes.
 */
import type pg from 'pg';
import { findHost, type DatabaseHost } from './hosts';

/** How often a waiting process asks for the lock again. */
export const LOCK_POLL_MS = 1_000;
/** How often the holder checks that its lock session is alive and still holds the lock. */
export const LOCK_CHECK_MS = 1_000;
/** A check (or a poll) unanswered this long counts as a lost session: a dead TCP peer never answers. */
export const LOCK_QUERY_TIMEOUT_MS = 5_000;
/** TCP keepalive on the lock's connection, so that the server also notices a holder that vanished. */
const KEEPALIVE_DELAY_MS = 5_000;
/**
 * The first key of every ledger-node writer lock (pg_try_advisory_lock(int, int)); the second is the
 * lock's name. Two keys keep these locks apart from single-key ones such as the schema lock.
 */
export const LOCK_NAMESPACE = 'ledger-node writer';

const SQL = {
  tryLock: 'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS acquired',
  unlock: 'SELECT pg_advisory_unlock(hashtext($1), hashtext($2)) AS released',
  // pg_locks shows a two-key advisory lock as classid (first key), objid (second key), objsubid 2.
  holder: `SELECT activity.pid, activity.application_name, host(activity.client_addr) AS client_address
    FROM pg_locks AS locks JOIN pg_stat_activity AS activity ON activity.pid = locks.pid
    WHERE locks.locktype = 'advisory' AND locks.granted AND locks.classid = hashtext($1)::oid AND locks.objid = hashtext($2)::oid AND locks.objsubid = 2
      AND locks.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  // Held, and on a server that still takes writes (a lock held on a standby elects nobody).
  stillHeld: `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()
    AND classid = hashtext($1)::oid AND objid = hashtext($2)::oid AND objsubid = 2) AS held,
    pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' AS read_only`,
};

/** The session that holds a lock, as pg_stat_activity shows it. */
export interface LockHolder {
  pid: number;
  applicationName: string;
  clientAddress: string | undefined;
}

export interface AcquireOptions {
  /** Called once, when the lock is first found held by another session (with that session when it can be read). */
  onWaiting?: (holder: LockHolder | undefined) => void;
  /** Called when the database cannot be reached while waiting; the wait goes on. */
  onUnreachable?: (error: Error) => void;
  /** Ends the wait: acquire() rejects with the signal's reason. */
  signal?: AbortSignal;
  pollMs?: number;
  checkMs?: number;
  /** The database as messages name it (never with its password). */
  location?: string;
}

/** A writer lock this process holds. */
export class WriterLock {
  private lost: Error | undefined;
  private released = false;
  private readonly lostListeners: ((error: Error) => void)[] = [];
  private checkTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly client: pg.Client,
    readonly name: string,
    readonly location: string,
    /** The host the lock is held on (`host:port`): the primary when it was taken. */
    readonly host: string,
    checkMs: number,
  ) {
    const onGone = (error?: Error) => this.lose(error?.message ?? 'the server closed the connection');
    client.on('error', onGone);
    client.on('end', () => onGone());
    const check = async () => {
      try {
        const { rows } = await client.query<{ held: boolean; read_only: boolean }>(SQL.stillHeld, [LOCK_NAMESPACE, name]);
        if (!rows[0]?.held) return this.lose('the lock is no longer held by this session');
        if (rows[0].read_only) return this.lose(`its host ${host} no longer takes writes (a standby now, or read-only)`);
      } catch (error) {
        return this.lose(error instanceof Error ? error.message : String(error));
      }
      if (!this.released && !this.lost) this.checkTimer = setTimeout(() => void check(), checkMs);
    };
    this.checkTimer = setTimeout(() => void check(), checkMs);
  }

  /**
   * Waits until this process holds the lock `name` on the database, asking about once every
   * `pollMs` on a dedicated connection to the host that is its writable primary (found again among
   * `connection`'s hosts whenever the connection breaks or no host is one). Resolves with the lock
   * held; rejects only when `signal` aborts.
   */
  static async acquire(connection: pg.ClientConfig | readonly DatabaseHost[], name: string, options: AcquireOptions = {}): Promise<WriterLock> {
    const hosts = hostsOf(connection);
    const pollMs = options.pollMs ?? LOCK_POLL_MS;
    const location = options.location ?? 'the PostgreSQL database';
    let waitingReported = false;
    for (;;) {
      options.signal?.throwIfAborted();
      // Until the lock is held a broken connection is only a reason to connect again (heard by the query that fails).
      const ignore = () => undefined;
      let client: pg.Client | undefined;
      try {
        const found = await findHost(hosts, 'read-write', {
          keepAlive: true,
          keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
          query_timeout: LOCK_QUERY_TIMEOUT_MS,
          connectionTimeoutMillis: LOCK_QUERY_TIMEOUT_MS,
          application_name: `ledger-node ${name} writer lock`,
        });
        client = found.client;
        client.on('error', ignore);
        for (;;) {
          options.signal?.throwIfAborted();
          const { rows } = await client.query<{ acquired: boolean }>(SQL.tryLock, [LOCK_NAMESPACE, name]);
          if (rows[0]?.acquired) {
            client.off('error', ignore);
            return new WriterLock(client, name, location, found.host.name, options.checkMs ?? LOCK_CHECK_MS);
          }
          if (!waitingReported) {
            waitingReported = true;
            options.onWaiting?.(await lockHolder(client, name).catch(() => undefined));
          }
          await sleep(pollMs, options.signal);
        }
      } catch (error) {
        await client?.end().catch(ignore);
        if (options.signal?.aborted) throw options.signal.reason;
        options.onUnreachable?.(error instanceof Error ? error : new Error(String(error)));
        await sleep(pollMs, options.signal);
      }
    }
  }

  /** True until the lock is released or lost. */
  get held(): boolean {
    return !this.released && this.lost === undefined;
  }

  /**
   * Calls `listener` once when the lock is lost (its session ended, or stopped answering): from
   * then on another process may hold it, and this one must not write. A lock already lost calls
   * it at once. A release is not a loss.
   */
  onLost(listener: (error: Error) => void): void {
    if (this.lost) listener(this.lost);
    else this.lostListeners.push(listener);
  }

  /** Gives the lock up (the next waiting process takes it) and closes its connection. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.checkTimer);
    if (!this.lost) await this.client.query(SQL.unlock, [LOCK_NAMESPACE, this.name]).catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }

  private lose(reason: string): void {
    if (this.released || this.lost) return;
    this.lost = new Error(`lost the ${this.name} writer lock on ${this.location}: ${reason}`);
    clearTimeout(this.checkTimer);
    // The session may still be open (a check that timed out): ending it frees the lock for the next writer.
    void this.client.end().catch(() => undefined);
    for (const listener of this.lostListeners.splice(0)) listener(this.lost);
  }
}

/** The session holding the lock `name`, when the server shows it. */
export async function lockHolder(client: pg.ClientBase, name: string): Promise<LockHolder | undefined> {
  const { rows } = await client.query<{ pid: number; application_name: string; client_address: string | null }>(SQL.holder, [LOCK_NAMESPACE, name]);
  const row = rows[0];
  return row && { pid: row.pid, applicationName: row.application_name, clientAddress: row.client_address ?? undefined };
}

/** One host, or a database's hosts, as a list. */
function hostsOf(connection: pg.ClientConfig | readonly DatabaseHost[]): readonly DatabaseHost[] {
  if (Array.isArray(connection)) return connection;
  const config = connection as pg.ClientConfig;
  return [{ name: `${config.host ?? 'localhost'}:${config.port ?? 5432}`, config }];
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
