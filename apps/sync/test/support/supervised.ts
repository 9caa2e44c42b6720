/** A service process restarted whenever it exits, as the node's supervisor or Kubernetes restarts it. */
import { afterEach } from 'vitest';
import { stopAll, type RunningProcess } from '@ledger-node/test-utils';

/** A process started again whenever it exits, until stopped. */
export class Supervised {
  current: RunningProcess;
  private stopped = false;
  /** Every run, the current one last. */
  readonly runs: RunningProcess[] = [];

  constructor(private readonly start: () => RunningProcess) {
    this.current = start();
    this.runs.push(this.current);
    this.restartOnExit();
  }

  /** What a restart waits for first (a supervisor's backoff, here a condition of the test). */
  private beforeRestart: () => Promise<unknown> = async () => {};

  private restartOnExit(): void {
    const running = this.current;
    void running.exited.then(async () => {
      await this.beforeRestart();
      this.beforeRestart = async () => {};
      if (this.stopped || running !== this.current) return;
      this.current = this.start();
      this.runs.push(this.current);
      this.restartOnExit();
    });
  }

  /** What every run printed. */
  output(): string {
    return this.runs.map((run) => run.output()).join('\n');
  }

  /** SIGKILL; it comes back by itself, once `beforeRestart` resolves. */
  kill(beforeRestart?: () => Promise<unknown>): Promise<unknown> {
    if (beforeRestart !== undefined) this.beforeRestart = beforeRestart;
    return this.current.stop('SIGKILL', 5_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.current.stop('SIGKILL', 5_000);
  }
}

/**
 * What the tests of a file started and must undo: after each test, whatever its outcome, the
 * supervised processes are stopped by their pids, then every other process, then the cleanups run
 * (last pushed first).
 */
export function stoppedAfterEach(): { cleanups: (() => Promise<unknown> | void)[]; supervised: Supervised[] } {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  const supervised: Supervised[] = [];
  afterEach(async () => {
    await Promise.all(supervised.splice(0).map((each) => each.stop()));
    await stopAll();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return { cleanups, supervised };
}
