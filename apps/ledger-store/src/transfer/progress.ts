/** Progress of a long export or import: one line every few seconds, and one at the end of each phase. */

export interface ProgressOptions {
  /** Where lines go (stderr, so that an export to stdout stays a clean stream). */
  write(line: string): void;
  /** How often a line is printed; the default suits a terminal and a log alike. */
  intervalMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Prints `<what>: <phase> <done>/<total> ledgers (<rate> ledgers/s)` at most once per interval. */
export class Progress {
  private phase = '';
  private total: number | undefined;
  private done = 0;
  private started = 0;
  private lastLine = 0;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly what: string,
    private readonly options: ProgressOptions,
  ) {
    this.intervalMs = options.intervalMs ?? 3_000;
    this.now = options.now ?? Date.now;
  }

  /** A new phase (e.g. `verifying`, `writing`) of `total` ledgers, when known. */
  begin(phase: string, total: number | undefined): void {
    this.phase = phase;
    this.total = total;
    this.done = 0;
    this.started = this.lastLine = this.now();
  }

  /** One more ledger done; a line when the interval has passed. */
  tick(): void {
    this.done++;
    const now = this.now();
    if (now - this.lastLine >= this.intervalMs) {
      this.lastLine = now;
      this.options.write(this.line(now));
    }
  }

  /** The phase's closing line, with `summary` (e.g. what was skipped). */
  finish(summary = ''): void {
    this.options.write(`${this.line(this.now())}${summary ? `; ${summary}` : ''}, done`);
  }

  private line(now: number): string {
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = this.done / seconds;
    const count = this.total === undefined ? `${this.done}` : `${this.done}/${this.total}`;
    return `${this.what}: ${this.phase} ${count} ledgers (${rate >= 100 ? Math.round(rate) : rate.toFixed(1)} ledgers/s, ${seconds.toFixed(0)} s)`;
  }
}
