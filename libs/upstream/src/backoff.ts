/** Exponential backoff with full jitter: a random delay in [base·2^attempt / 2, base·2^attempt], capped. */
export function backoffDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  // Half fixed, half random: spreads reconnecting clients apart without ever retrying at once.
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A pause that ends early when woken (new work arrived) — the idle wait of worker loops. */
export class WakeablePause {
  private readonly waiting = new Set<() => void>();

  /** Resolves after `ms`, or at once on `wake`. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  /** Ends every wait in progress. */
  wake(): void {
    for (const done of [...this.waiting]) done();
  }
}
