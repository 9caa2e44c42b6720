import { describe, expect, it } from 'vitest';
import { inOrder } from './in-order';

/** Requests pushed by the test, read by inOrder as a stream's requests are. */
function requestQueue<T>() {
  const queued: T[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  return {
    push(request: T) {
      queued.push(request);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queued.length > 0) yield queued.shift()!;
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('inOrder', () => {
  it('answers in order, checking the next request while the one before finishes', async () => {
    const requests = requestQueue<number>();
    const events: string[] = [];
    const finishing = new Map<number, () => void>();
    const answers = inOrder(requests, 2, new AbortController().signal, (request) => {
      events.push(`start ${request}`);
      return () =>
        new Promise<number>((resolve) => {
          events.push(`finish ${request}`);
          finishing.set(request, () => resolve(request * 10));
        });
    });
    const read: number[] = [];
    const reading = (async () => {
      for await (const answer of answers) read.push(answer);
    })();
    requests.push(1);
    requests.push(2);
    requests.push(3);
    await tick();
    // The second request is started while the first finishes; the third waits for room (two held).
    expect(events).toEqual(['start 1', 'finish 1', 'start 2']);
    finishing.get(1)!();
    await tick();
    expect(read).toEqual([10]);
    expect(events).toEqual(['start 1', 'finish 1', 'start 2', 'finish 2', 'start 3']);
    finishing.get(2)!();
    await tick();
    finishing.get(3)!();
    requests.end();
    await reading;
    expect(read).toEqual([10, 20, 30]);
  });

  it('ends with the first failure after the answers before it, and finishes nothing after it', async () => {
    const requests = requestQueue<number>();
    const finished: number[] = [];
    const answers = inOrder(requests, 2, new AbortController().signal, (request) => {
      if (request === 2) throw new Error('request 2 is malformed');
      return async () => {
        finished.push(request);
        return request;
      };
    });
    requests.push(1);
    requests.push(2);
    requests.push(3);
    const read: number[] = [];
    await expect(
      (async () => {
        for await (const answer of answers) read.push(answer);
      })(),
    ).rejects.toThrow('request 2 is malformed');
    expect(read).toEqual([1]);
    expect(finished).toEqual([1]);
  });

  it('answers a request whose sender waits for the answer before it sends more', async () => {
    const requests = requestQueue<number>();
    const answers = inOrder(requests, 2, new AbortController().signal, (request) => async () => request);
    const iterator = answers[Symbol.asyncIterator]();
    requests.push(7);
    await expect(iterator.next()).resolves.toEqual({ value: 7, done: false });
    requests.push(8);
    await expect(iterator.next()).resolves.toEqual({ value: 8, done: false });
    requests.end();
    await expect(iterator.next()).resolves.toMatchObject({ done: true });
  });

  it('stops reading once stopped, and ends after the answers of the requests read', async () => {
    const requests = requestQueue<number>();
    const stop = new AbortController();
    const answers = inOrder(requests, 2, stop.signal, (request) => async () => request);
    const iterator = answers[Symbol.asyncIterator]();
    requests.push(1);
    await expect(iterator.next()).resolves.toEqual({ value: 1, done: false });
    stop.abort();
    requests.push(2);
    await expect(iterator.next()).resolves.toMatchObject({ done: true });
  });
});
