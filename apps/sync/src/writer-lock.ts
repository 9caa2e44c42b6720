/**
 * One sync per database (DESIGN §11: sync is a singleton): given -store postgres://…, sync takes
 * the 'sync' writer lock (libs/postgres electWriter) before it follows or backfills. Until then it
 * is a standby: it connects to no upstream and stores nothing, says so in its status and health,
 * and takes over when the holder stops.
 */
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
