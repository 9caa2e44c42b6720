import type { Logger } from '@ledger-node/telemetry';
import type { ServiceName } from '../services';
import { ServiceChild } from './child';

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** A child that stayed up this long is healthy again: its next restart starts from the initial delay. */
  stableAfterMs: number;
  /** Give up (stop everything, exit 1) after this many exits in a row before becoming ready. */
  maxFailedStarts: number;
  /** How long children get to stop on SIGINT/SIGTERM before they are killed. */
  stopGraceMs: number;
}

/**
 * A service whose ready line waits for the services it calls: the facade answers every method only
 * once they serve too (a send right after "facade ready" would otherwise find no submission).
 */
const readyAfter: Partial<Record<ServiceName, readonly ServiceName[]>> = {
  facade: ['ledger-store', 'keystore', 'submission', 'sync'],
};

export const defaultRestartPolicy: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  stableAfterMs: 30_000,
  maxFailedStarts: 5,
  stopGraceMs: 9_000,
};

/** How a status is logged: a crash or a kill is a warning, giving up an error. */
const statusLevels: Record<string, 'info' | 'warn' | 'error'> = { crashed: 'warn', killed: 'warn', failed: 'error' };

/**
 * Starts each service as a child process, restarts a crashed child with exponential backoff,
 * logs one status line per change (in the services' format: the children write to the same
 * stdout), and on SIGINT/SIGTERM stops every child, last started first, each once those started
 * after it have stopped: a service never loses what it calls while it stops.
 */
export class Supervisor {
  private readonly children: ServiceChild[];
  private stopping = false;
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private readonly delays = new Map<ServiceName, number>();
  /** Ready children whose ready line waits for their dependencies, with the address to print. */
  private readonly awaitingDependencies = new Map<ServiceChild, string | undefined>();
  private finish: (code: number) => void = () => {};
  private readonly startedAt = Date.now();
  private allReadyOnce = false;

  constructor(
    plan: readonly ServiceName[],
    args: string[],
    private readonly logger: Logger,
    private readonly policy: RestartPolicy = defaultRestartPolicy,
  ) {
    this.children = plan.map(
      (name) =>
        new ServiceChild(name, args, {
          onReady: (child, address) => this.onReady(child, address),
          onExit: (child, code, signal) => this.onExit(child, code, signal),
        }),
    );
  }

  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stopping) return;
      this.logger.info({ signal }, `${signal} received, stopping ${this.children.length} services`);
      void this.stop(0);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    this.logger.info({ services: this.children.map((c) => c.name) }, `starting ${this.children.map((c) => c.name).join(', ')}`);
    for (const child of this.children) {
      child.start();
      this.status(child, 'starting');
    }
    return done.finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
  }

  /** One line per change: `<service> <state> pid <pid> <detail>`, in columns, and as fields. */
  private status(child: ServiceChild, state: string, detail?: string, fields: Record<string, unknown> = {}): void {
    const pid = child.pid === undefined ? '' : `pid ${child.pid}`;
    const line = `${child.name.padEnd(12)} ${state.padEnd(10)} ${pid.padEnd(10)} ${detail ?? ''}`.trimEnd();
    this.logger[statusLevels[state] ?? 'info']({ child: child.name, state, childPid: child.pid, ...fields }, line);
  }

  private onReady(child: ServiceChild, address: string | undefined): void {
    this.awaitingDependencies.set(child, address);
    // The child that just became ready first, then any that waited for it.
    for (const waiting of [child, ...this.awaitingDependencies.keys()]) {
      if (!this.awaitingDependencies.has(waiting) || !this.dependenciesReady(waiting)) continue;
      const address = this.awaitingDependencies.get(waiting);
      const startSeconds = Number(((Date.now() - waiting.startedAt) / 1000).toFixed(1));
      this.status(waiting, 'ready', `${address ?? ''} (started in ${startSeconds} s)`.trimStart(), { address, startSeconds });
      this.awaitingDependencies.delete(waiting);
    }
    if (!this.allReadyOnce && this.children.every((each) => each.ready) && this.awaitingDependencies.size === 0) {
      this.allReadyOnce = true;
      const startSeconds = Number(((Date.now() - this.startedAt) / 1000).toFixed(1));
      this.logger.info({ startSeconds }, `all ${this.children.length} services ready, ${startSeconds} s after start`);
    }
  }

  private dependenciesReady(child: ServiceChild): boolean {
    return this.children.every((other) => !readyAfter[child.name]?.includes(other.name) || other.ready);
  }

  private onExit(child: ServiceChild, code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    this.awaitingDependencies.delete(child);
    if (this.stopping) {
      this.status(child, 'stopped', how);
      return;
    }
    if (child.failedStarts >= this.policy.maxFailedStarts) {
      this.status(child, 'failed', `${how}; it exited ${child.failedStarts} times before becoming ready, giving up`);
      void this.stop(1);
      return;
    }
    const upMs = Date.now() - child.startedAt;
    const previous = this.delays.get(child.name);
    const delay =
      previous === undefined || upMs >= this.policy.stableAfterMs
        ? this.policy.initialDelayMs
        : Math.min(previous * 2, this.policy.maxDelayMs);
    this.delays.set(child.name, delay);
    child.restarts++;
    this.status(child, 'crashed', `${how}; restart #${child.restarts} in ${(delay / 1000).toFixed(1)} s`);
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.stopping) return;
      child.start();
      this.status(child, 'restarted');
    }, delay);
    this.restartTimers.add(timer);
  }

  private async stop(code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const timer of this.restartTimers) clearTimeout(timer);
    // Last started first, one after the other: the facade stops taking requests before the services
    // it calls stop, sync before the ledger-store and the devnet it reads from.
    const order = [...this.children].reverse();
    const killTimer = setTimeout(() => {
      for (const child of order) {
        if (child.signal('SIGKILL')) this.status(child, 'killed', `did not stop within ${this.policy.stopGraceMs} ms`);
      }
    }, this.policy.stopGraceMs);
    for (const child of order) {
      child.signal('SIGTERM');
      await child.exited();
    }
    clearTimeout(killTimer);
    this.logger.info('all services stopped');
    this.finish(code);
  }
}
