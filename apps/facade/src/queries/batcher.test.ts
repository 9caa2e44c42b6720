import { describe, expect, it } from 'vitest';
import { NotFound } from '@ledger-node/errors';
import { Batcher } from './batcher';

/** A batcher over a lookup that doubles numbers (negative ones fail alone), recording each call's keys. */
function doubling(maxKeys = 1000) {
  const calls: number[][] = [];
  const batcher = new Batcher<number, number>('test lookup', maxKeys, async (keys) => {
    calls.push(keys);
    return keys.map((key) => (key < 0 ? new NotFound(`no ${key}`) : key * 2));
  });
  return { batcher, calls };
}

describe('Batcher', () => {
  it('gathers the lookups of one event-loop turn into one call, answering each in order', async () => {
    const { batcher, calls } = doubling();
    const answers = await Promise.all([1, 2, 3, 4, 5].map((key) => batcher.load(key)));
    expect(answers).toEqual([2, 4, 6, 8, 10]);
    expect(calls).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('makes one call per turn: lookups made after an answer go in the next call', async () => {
    const { batcher, calls } = doubling();
    expect(await batcher.load(1)).toBe(2);
    expect(await Promise.all([batcher.load(2), batcher.load(3)])).toEqual([4, 6]);
    expect(calls).toEqual([[1], [2, 3]]);
  });

  it('splits a turn into calls of at most maxKeys keys', async () => {
    const { batcher, calls } = doubling(2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((key) => batcher.load(key)))).toEqual([2, 4, 6, 8, 10]);
    expect(calls).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails only the lookup whose key fails, and every lookup of a call that fails', async () => {
    const { batcher } = doubling();
    const settled = await Promise.allSettled([batcher.load(1), batcher.load(-1), batcher.load(2)]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(NotFound);

    const broken = new Batcher<number, number>('broken lookup', 1000, async () => {
      throw new Error('store unreachable');
    });
    const outcomes = await Promise.allSettled([broken.load(1), broken.load(2)]);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as Error).message)).toEqual(['store unreachable', 'store unreachable']);
  });
});
