/**
 * One sending submission service per database (DESIGN §11: submission is a singleton): given
 * -store postgres://…, it takes the 'submission' writer lock (libs/postgres electWriter) before it
 * sends or tracks anything. Until then it is a standby: it refuses to sign or send, says so in its
 * health, and takes over when the holder stops.
 */
import { Unavailable } from '@ledger-node/errors';
import { electWriter } from '@ledger-node/postgres';
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
export function takeSenderLock(
  target: SenderLockTarget,
  options: { gate: SendingGate; logger: Logger; signal: AbortSignal; takeOver(): void; onLost(error: Error): void },
): Promise<{ release(): Promise<void> }> {
  const { gate } = options;
  return electWriter(target, {
    name: SUBMISSION_WRITER_LOCK,
    service: 'submission service',
    holderTitle: 'sender',
    activity: 'sending',
    logger: options.logger,
    signal: options.signal,
    standby: () => (gate.refusal = standbyRefusal(target.location)),
    takeOver() {
      gate.refusal = undefined;
      options.takeOver();
    },
    onLost: options.onLost,
  });
}
