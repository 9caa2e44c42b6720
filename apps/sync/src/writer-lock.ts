/**
 * One sync per database (DESIGN §11: sync is a singleton): given -store postgres://…, sync takes
 * the 'sync' writer lock (libs/postgres electWriter) before it follows or backfills. Until then it
 * is a standby: it connects to no upstream and stores nothing, says so in its status and health,
 * and takes over when the holder stops.
 *
 * A sync stores through its own ledger-store, which has a writer lock of its own: a sync whose
 * ledger-store is a standby could store nothing, and holding the sync lock it would keep every other
 * sync from storing too. So a sync contends for the sync lock only once its ledger-store writes,
 * and gives the lock up (exits, to wait again on restart) as soon as its ledger-store stops writing.
 */
import { StoreRole } from '@ledger-node/contracts';
import { electWriter, type WriterLockTarget } from '@ledger-node/postgres';
import type { Logger } from '@ledger-node/telemetry';

/** The writer lock the one following sync holds. */
export const SYNC_WRITER_LOCK = 'sync';

/** Why a standby neither follows nor backfills (its status and health say so). */
export const standbyReason = (location: string) =>
  `standby: another sync service holds the sync writer lock on ${location}; this one connects to no upstream and stores nothing until it takes over`;

/** Whether this sync follows and backfills: `standby` is undefined when it does, else why not. */
export class SyncRole {
  standby: string | undefined;
}

/**
 * Takes the lock: resolves at once when it is free (`takeOver` then runs before this returns),
 * else once waiting, with `role` saying standby; `takeOver` runs when the lock comes. A lost lock
 * calls `onLost`: another sync may write from then on, and this one must stop at once.
 */
export function takeSyncLock(
  target: WriterLockTarget,
  options: { role: SyncRole; logger: Logger; signal: AbortSignal; takeOver(): void; onLost(error: Error): void },
): Promise<{ release(): Promise<void> }> {
  const { role } = options;
  return electWriter(target, {
    name: SYNC_WRITER_LOCK,
    service: 'sync service',
    holderTitle: 'writer',
    activity: 'following and backfilling',
    logger: options.logger,
    signal: options.signal,
    standby: () => (role.standby = standbyReason(target.location)),
    takeOver() {
      role.standby = undefined;
      options.takeOver();
    },
    onLost: options.onLost,
  });
}

/** How often a sync asks its ledger-store's role, before and while it holds the sync lock. */
export const STORE_ROLE_POLL_MS = 1_000;

/** What a sync reads of its ledger-store's role: GetStatus's role and its words. */
export type StoreRoleReader = () => Promise<{ role: StoreRole; detail: string | undefined }>;

/** A ledger-store that takes writes: the writer, or one that does not report a role (older, or RocksDB's one process). */
const writes = (role: StoreRole) => role === StoreRole.WRITER || role === StoreRole.UNSPECIFIED;

/** Why a sync waits before it contends for the sync lock. */
export const storeNotWritingReason = (detail: string | undefined) =>
  `standby: this sync's ledger-store does not write (${detail ?? 'not the writer'}); the sync contends for the sync writer lock once it does`;

/**
 * Resolves once the ledger-store writes (or `signal` aborts), `role.standby` saying why meanwhile.
 * A ledger-store that does not answer is asked again.
 */
export async function untilStoreWrites(readRole: StoreRoleReader, role: SyncRole, signal: AbortSignal, pollMs = STORE_ROLE_POLL_MS): Promise<void> {
  while (!signal.aborted) {
    try {
      const { role: storeRole, detail } = await readRole();
      if (writes(storeRole)) return;
      role.standby = storeNotWritingReason(detail);
    } catch {
      role.standby ??= storeNotWritingReason('it does not answer');
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
  }
}

/**
 * Calls `onNotWriting` once when the ledger-store answers that it no longer writes (a standby or a
 * reader: another ledger-store took its database's writer lock). A store that does not answer for a
 * while is not taken for one that stopped writing: restarted, it answers its role. Returns the stop.
 */
export function watchStoreRole(readRole: StoreRoleReader, onNotWriting: (detail: string | undefined) => void, pollMs = STORE_ROLE_POLL_MS): () => void {
  let stopped = false;
  const timer = setInterval(() => {
    readRole().then(
      ({ role: storeRole, detail }) => {
        if (stopped || writes(storeRole)) return;
        stopped = true;
        clearInterval(timer);
        onNotWriting(detail);
      },
      () => {},
    );
  }, pollMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
