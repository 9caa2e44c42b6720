/**
 * One sending submission service per database (DESIGN §11: submission is a singleton): given
 * -store postgres://…, it takes the 'submission' writer lock (libs/postgres) before it sends or
 * tracks anything. Until then it is a standby: it refuses to sign or send, says so in its health,
 * and takes over when the holder stops.
 */
import { Unavailable } from '@ledger-node/errors';
import { WriterLock, type LockHolder } from '@ledger-node/postgres';
import type { Logger } from '@ledger-node/telemetry';
import type { SenderLockTarget } from './config';

/** The writer lock the sending submission service holds. */
export const SUBMISSION_WRITER_LOCK = 'submission';

/** Whether this process may send: undefined when it may, else why not. */
export class SendingGate {
  refusal: string | undefined;

  /** Throws Unavailable, with the reason, unless this process is the sender. */
  requireSender(): void {
    if (this.refusal !== undefined) throw new Unavailable(this.refusal);
  }
}

/** Why a standby refuses to send (and its health says so). */
export const standbyRefusal = (location: string) =>
  `this submission service is a standby waiting for the submission writer lock on ${location}: it signs and sends nothing, and takes over when the holder stops`;

/**
 * Takes the lock: resolves at once when it is free (`takeOver` then runs before this returns),
 * else once waiting, with `gate` refusing; `takeOver` runs when the lock comes. A lost lock calls
 * `onLost`: another process may send from then on, and this one must stop at once.
 */
export async function takeSenderLock(
  target: SenderLockTarget,
  options: { gate: SendingGate; logger: Logger; signal: AbortSignal; takeOver(): void; onLost(error: Error): void },
): Promise<{ release(): Promise<void> }> {
  const { gate, logger } = options;
  let lock: WriterLock | undefined;
  let reportWaiting: (holder: LockHolder | undefined) => void = () => undefined;
  const waiting = new Promise<'waiting'>((resolve) => (reportWaiting = () => resolve('waiting')));
  let unreachableLogged = false;
  const locked = WriterLock.acquire(target.connection, SUBMISSION_WRITER_LOCK, {
    location: target.location,
    signal: options.signal,
    onWaiting: (holder) => {
      gate.refusal = standbyRefusal(target.location);
      logger.warn({ database: target.location, holder }, `standby: another submission service holds the submission writer lock on ${target.location}; waiting to take over`);
      reportWaiting(holder);
    },
    onUnreachable: (error) => {
      gate.refusal ??= standbyRefusal(target.location);
      reportWaiting(undefined);
      if (unreachableLogged) return;
      unreachableLogged = true;
      logger.warn({ database: target.location, reason: error.message }, `the submission writer lock on ${target.location} cannot be asked for: ${error.message}; trying again`);
    },
  });
  const takeOver = (held: WriterLock) => {
    lock = held;
    held.onLost(options.onLost);
    gate.refusal = undefined;
    logger.info({ database: target.location }, `sender: holds the submission writer lock on ${target.location}; sending from now on`);
    options.takeOver();
  };
  // A wait stopped at shutdown is nobody's failure.
  const taken = locked.then(takeOver, () => undefined);
  if ((await Promise.race([locked.catch(() => undefined), waiting])) instanceof WriterLock) await taken;
  return {
    async release() {
      await lock?.release();
    },
  };
}
