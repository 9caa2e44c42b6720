import type { Logger } from 'pino';

/** How long a service may wait for those it calls while the node starts before that is worth a warning. */
export const STARTUP_GRACE_MS = 30_000;

/**
 * The log of something a service calls and retries until it answers: another service, the
 * upstream. Until it has answered once and for the first STARTUP_GRACE_MS, failures are expected
 * (the supervisor starts every service at once, and the devnet or the ledger-store may take a few
 * seconds to listen): each is logged at debug, and a warning comes only once that deadline has
 * passed. After it has answered, an outage is warned about at its first failure. Either way one
 * warning per outage, the rest at debug, and its end said at info. A failure is logged by its
 * reason, never with a stack: a dependency that does not answer is an expected condition.
 */
export class DependencyLog {
  private readonly createdAtMs: number;
  private hasAnswered = false;
  private failingSinceMs: number | undefined;
  private warned = false;

  constructor(
    private readonly logger: Logger,
    /** What is called, as the messages name it ("ledger-store", "the upstream"). */
    private readonly dependency: string,
    private readonly options: { graceMs?: number; now?: () => number } = {},
  ) {
    this.createdAtMs = this.now();
  }

  /** One failed attempt, `message` saying what failed and what happens next. */
  failed(message: string, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    this.failingSinceMs ??= now;
    const due = this.hasAnswered || now - this.createdAtMs >= (this.options.graceMs ?? STARTUP_GRACE_MS);
    if (this.warned || !due) {
      this.logger.debug({ dependency: this.dependency, ...fields }, message);
      return;
    }
    this.warned = true;
    const seconds = Math.round((now - this.failingSinceMs) / 1000);
    const since = this.hasAnswered ? '' : ` (not answered since start-up, ${seconds} s ago)`;
    this.logger.warn({ dependency: this.dependency, ...fields }, `${message}${since}`);
  }

  /** An attempt succeeded: an outage that was warned about is over. */
  answered(): void {
    if (this.warned) {
      const seconds = ((this.now() - this.failingSinceMs!) / 1000).toFixed(1);
      this.logger.info({ dependency: this.dependency }, `${this.dependency} answers again, after ${seconds} s`);
    }
    this.hasAnswered = true;
    this.failingSinceMs = undefined;
    this.warned = false;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
