import { afterEach, describe, expect, it } from 'vitest';
import { startProcess, stopAll } from '../src/processes';

afterEach(() => stopAll());

/** A process that prints `tick N` every 100 ms `ticks` times, then nothing, and `done` after `doneAfterMs`. */
const ticking = (ticks: number, doneAfterMs: number) =>
  startProcess([
    '-e',
    `let n = 0; const t = setInterval(() => { console.log('tick ' + ++n); if (n === ${ticks}) clearInterval(t); }, 100); setTimeout(() => console.log('done'), ${doneAfterMs});`,
  ]);

describe('waitFor with quietMs', () => {
  it('waits past quietMs for as long as the process keeps printing', async () => {
    const child = ticking(20, 2_100);
    await expect(child.waitFor(/done/, 10_000, { quietMs: 800 })).resolves.toBeTruthy();
  });

  it('fails once the process has printed nothing for quietMs, not at the timeout', async () => {
    const child = ticking(5, 60_000);
    await expect(child.waitFor(/done/, 30_000, { quietMs: 1_000 })).rejects.toThrow(/printed nothing for 1000 ms while waiting for \/done\/; output:\n(tick \d\n)*tick 5/);
  });
});
