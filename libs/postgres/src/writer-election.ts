/**
 * A singleton service elected with a writer lock (DESIGN §11: sync and submission are singletons,
 * as Clio elects its writer): given -store postgres://…, the service takes its lock before it
 * writes anything. Until then it is a standby that says so once, and takes over when the holder
 * stops. Shared by submission (the sender) and sync (the writer).
 */
import type pg from 'pg';
import type { Logger } from '@ledger-node/telemetry';
import type { DatabaseHost } from './hosts';
import { WriterLock, type LockHolder } from './writer-lock';

/** The database whose writer lock elects the one active process of a service. */
export interface WriterLockTarget {
  /** Its hosts (the lock is taken on the one that is the writable primary), or one host's settings. */
  connection: pg.ClientConfig | readonly DatabaseHost[];
  /** The database as messages name it (describeDatabase: no password). */
  location: string;
}

export interface ElectionOptions {
  /** The lock's name (one per service): 'submission', 'sync'. */
  name: string;
  /** The service as the waiting message names the holder: 'submission service'. */
  service: string;
  /** What the holder is called, and what it does from the takeover on: 'sender', 'sending'. */
  holderTitle: string;
  activity: string;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Ends the wait (at shutdown): nothing more happens, and nobody is told of a failure. */
  signal: AbortSignal;
  /** This process must wait (the lock is held elsewhere, or cannot be asked for): it writes nothing until takeOver. May be called more than once. */
  standby(): void;
  /** The lock is held: this process writes from now on. */
  takeOver(): void;
  /** The lock was lost: another process may write from now on, and this one must stop at once. */
  onLost(error: Error): void;
  pollMs?: number;
  checkMs?: number;
}

/** The server session holding a lock as logs show it: ` (server pid 123 from 10.0.0.7)`, or nothing when unknown. */
export function holderText(holder: LockHolder | undefined): string {
  if (holder === undefined) return '';
  return ` (server pid ${holder.pid}${holder.clientAddress ? ` from ${holder.clientAddress}` : ''})`;
}

/**
 * Takes the lock: resolves at once when it is free (`takeOver` then runs before this returns),
 * else once waiting, after `standby`; `takeOver` runs when the lock comes. `release` gives the
 * lock up, or stops waiting for it (abort `signal` first).
 */
export async function electWriter(target: WriterLockTarget, options: ElectionOptions): Promise<{ release(): Promise<void>; readonly host: string | undefined }> {
  const { logger, name } = options;
  let lock: WriterLock | undefined;
  let reportWaiting: () => void = () => undefined;
  const waiting = new Promise<'waiting'>((resolve) => (reportWaiting = () => resolve('waiting')));
  let unreachableLogged = false;
  const locked = WriterLock.acquire(target.connection, name, {
    location: target.location,
    signal: options.signal,
    pollMs: options.pollMs,
    checkMs: options.checkMs,
    onWaiting: (holder) => {
      options.standby();
      logger.warn(
        { database: target.location, holder },
        `standby: another ${options.service} holds the ${name} writer lock on ${target.location}${holderText(holder)}; waiting to take over`,
      );
      reportWaiting();
    },
    onUnreachable: (error) => {
      options.standby();
      reportWaiting();
      if (unreachableLogged) return;
      unreachableLogged = true;
      logger.warn({ database: target.location, reason: error.message }, `the ${name} writer lock on ${target.location} cannot be asked for: ${error.message}; trying again`);
    },
  });
  const takeOver = (held: WriterLock) => {
    lock = held;
    held.onLost(options.onLost);
    logger.info({ database: target.location, host: held.host }, `${options.holderTitle}: holds the ${name} writer lock on ${target.location} (primary ${held.host}); ${options.activity} from now on`);
    options.takeOver();
  };
  // A wait stopped at shutdown is nobody's failure.
  const taken = locked.then(takeOver, () => undefined);
  if ((await Promise.race([locked.catch(() => undefined), waiting])) instanceof WriterLock) await taken;
  return {
    async release() {
      await lock?.release();
    },
    /** The host the lock is held on (the primary when it was taken), once held. */
    get host() {
      return lock?.host;
    },
  };
}
