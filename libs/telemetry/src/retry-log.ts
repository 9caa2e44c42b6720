import type { Logger } from 'pino';

/** Errors that are the node's own bugs, not a condition it retries through: logged with their stack. */
const PROGRAMMING_ERRORS = [TypeError, ReferenceError, RangeError, SyntaxError];

/**
 * The log of work retried until it succeeds (a state download, state proofs): a failure is warned
 * about once for each new reason, then repeated at debug while the reason stays the same, and the
 * end of the failures is said at info. An upstream that refuses, a store that is away, a page that
 * does not verify are conditions, logged by their reason alone; only an error of the node's own
 * code (a TypeError and the like) carries its stack.
 */
export class RetryLog {
  private lastReason: string | undefined;

  constructor(
    private readonly logger: Logger,
    /** The work, as the messages name it ("state download"). */
    private readonly work: string,
  ) {}

  /** One failed attempt, tried again after `delayMs`. */
  failed(error: unknown, delayMs: number, fields: Record<string, unknown> = {}): void {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `${this.work}: ${reason}; trying again in ${delayMs} ms`;
    if (reason === this.lastReason) {
      this.logger.debug({ delayMs, ...fields }, message);
      return;
    }
    this.lastReason = reason;
    const stack = PROGRAMMING_ERRORS.some((kind) => error instanceof kind) ? { err: error } : {};
    this.logger.warn({ ...stack, delayMs, ...fields }, `${message} (while it fails for this reason, at debug level)`);
  }

  /** An attempt succeeded: failures warned about are over. */
  succeeded(): void {
    if (this.lastReason === undefined) return;
    this.logger.info(`${this.work} goes on: the failure "${this.lastReason}" is over`);
    this.lastReason = undefined;
  }
}
