import { describe, expect, it } from 'vitest';
import { backoffDelayMs, sleep } from './backoff';

describe('backoffDelayMs', () => {
  it('doubles per attempt between half and all of the ceiling, up to the cap', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelayMs(attempt, 250, 10_000, () => 0))).toEqual([125, 250, 500, 1000]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelayMs(attempt, 250, 10_000, () => 1))).toEqual([250, 500, 1000, 2000]);
    expect(backoffDelayMs(40, 250, 10_000, () => 1)).toBe(10_000);
    expect(backoffDelayMs(40, 250, 10_000, () => 0)).toBe(5_000);
  });
});

describe('sleep', () => {
  it('ends at once when its signal aborts', async () => {
    const abort = new AbortController();
    const startedAt = Date.now();
    const slept = sleep(10_000, abort.signal);
    abort.abort();
    await slept;
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });
});
