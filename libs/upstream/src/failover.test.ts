import { describe, expect, it } from 'vitest';
import { firstAnswering } from './failover';

const urls = ['ws://a', 'ws://b', 'ws://c'];

/** An attempt that fails on the endpoints named, recording every endpoint tried. */
function attemptFailingOn(down: string[], tried: string[]) {
  return async (url: string) => {
    tried.push(url);
    if (down.includes(url)) throw new Error(`cannot connect to ${url}`);
    return `connected to ${url}`;
  };
}

describe('firstAnswering', () => {
  it('tries the endpoints in order from the first one named, wrapping around, until one answers', async () => {
    const tried: string[] = [];
    const failures: string[] = [];
    const answered = await firstAnswering(urls, attemptFailingOn(['ws://c'], tried), { first: 2, onFailure: (url) => failures.push(url) });
    expect(answered).toEqual({ value: 'connected to ws://a', url: 'ws://a', position: 0 });
    expect(tried).toEqual(['ws://c', 'ws://a']);
    expect(failures).toEqual(['ws://c']);
  });

  it('fails naming every failure when no endpoint answers, and tries no more once aborted', async () => {
    await expect(firstAnswering(urls, attemptFailingOn(urls, []))).rejects.toThrow('no upstream endpoint answers (cannot connect to ws://a; cannot connect to ws://b; cannot connect to ws://c)');
    const abort = new AbortController();
    const tried: string[] = [];
    const attempt = attemptFailingOn(urls, tried);
    await expect(firstAnswering(urls, (url) => attempt(url).finally(() => abort.abort()), { signal: abort.signal })).rejects.toThrow('no upstream endpoint answers');
    expect(tried).toEqual(['ws://a']);
  });
});
