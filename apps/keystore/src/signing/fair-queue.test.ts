import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue';

/** Work that takes a few milliseconds and records its name when it runs. */
const step = (ran: string[], name: string) => () =>
  new Promise<string>((resolve) =>
    setTimeout(() => {
      ran.push(name);
      resolve(name);
    }, 2),
  );

describe('FairQueue', () => {
  it('serves callers in turn: a caller with many requests delays another by one', async () => {
    const queue = new FairQueue(50, 100);
    const ran: string[] = [];
    const many = Array.from({ length: 10 }, (_, index) => queue.run('a', undefined, step(ran, `a${index}`)));
    const other = [queue.run('b', undefined, step(ran, 'b0')), queue.run('b', undefined, step(ran, 'b1'))];
    await Promise.all([...many, ...other]);
    // a0 was running already and a1 was first in line; then the two callers alternate.
    expect(ran.slice(0, 5)).toEqual(['a0', 'a1', 'b0', 'a2', 'b1']);
    expect(ran).toHaveLength(12);
  });

  it('refuses a caller past its share and everyone past the total, at once', async () => {
    // a0 runs at once: a1 and a2 wait, as do b0 and b1.
    const queue = new FairQueue(2, 4);
    const ran: string[] = [];
    const accepted = [queue.run('a', undefined, step(ran, 'a0')), queue.run('a', undefined, step(ran, 'a1')), queue.run('a', undefined, step(ran, 'a2'))];
    await expect(queue.run('a', undefined, step(ran, 'a3'))).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/2 signatures of this caller/) });
    const b = [queue.run('b', undefined, step(ran, 'b0')), queue.run('b', undefined, step(ran, 'b1'))];
    await expect(queue.run('c', undefined, step(ran, 'c0'))).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/4 signatures are waiting/) });
    await Promise.all([...accepted, ...b]);
    expect(ran.sort()).toEqual(['a0', 'a1', 'a2', 'b0', 'b1']);
  });

  it('drops a request whose caller is gone before its work starts', async () => {
    const queue = new FairQueue(10, 10);
    const ran: string[] = [];
    const first = queue.run('a', undefined, step(ran, 'a0'));
    const controller = new AbortController();
    const cancelled = queue.run('b', controller.signal, step(ran, 'b0'));
    const last = queue.run('c', undefined, step(ran, 'c0'));
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/cancelled/) });
    await Promise.all([first, last]);
    expect(ran).toEqual(['a0', 'c0']);
    expect(queue.size).toBe(0);
    await expect(queue.run('d', AbortSignal.abort(), step(ran, 'd0'))).rejects.toMatchObject({ kind: 'unavailable' });
    expect(ran).toEqual(['a0', 'c0']);
  });
});
