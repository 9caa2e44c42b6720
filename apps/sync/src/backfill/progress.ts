/** Backfill speed over a sliding window, and the time left at that speed. */
export class BackfillProgress {
  private samples: { atMs: number; ledgers: number }[] = [];

  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `ledgers` were stored by backfill just now. */
  record(ledgers: number): void {
    const atMs = this.now();
    this.samples.push({ atMs, ledgers });
    this.samples = this.samples.filter((sample) => sample.atMs > atMs - this.windowMs);
  }

  ledgersPerSecond(): number {
    const nowMs = this.now();
    const recent = this.samples.filter((sample) => sample.atMs > nowMs - this.windowMs);
    if (recent.length === 0) return 0;
    const total = recent.reduce((sum, sample) => sum + sample.ledgers, 0);
    // Over the window, or over the time since the first sample when backfill started recently.
    const spanMs = Math.max(1_000, Math.min(this.windowMs, nowMs - recent[0]!.atMs));
    return (total * 1000) / spanMs;
  }

  /** Seconds until `remaining` ledgers are stored; undefined with no speed yet or nothing left. */
  etaSeconds(remaining: number): number | undefined {
    const speed = this.ledgersPerSecond();
    if (remaining <= 0 || speed <= 0) return undefined;
    return remaining / speed;
  }
}
