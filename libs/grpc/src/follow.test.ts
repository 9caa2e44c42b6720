import { describe, expect, it } from 'vitest';
import { followStream } from './follow';

describe('followStream', () => {
  it('reopens a stream that failed, after a backoff, until stopped', async () => {
    const received: number[] = [];
    const interruptions: [string, number][] = [];
    let opened = 0;
    const follower = followStream<number>({
      async *open() {
        opened++;
        yield opened * 10;
        yield opened * 10 + 1;
        throw new Error(`stream ${opened} broke`);
      },
      onMessage: (message) => received.push(message),
      onInterrupted: (error, retryInMs) => interruptions.push([(error as Error).message, retryInMs]),
      initialDelayMs: 5,
      maxDelayMs: 20,
    });
    while (opened < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    follower.stop();
    expect(received.slice(0, 6)).toEqual([10, 11, 20, 21, 30, 31]);
    // Every message resets the backoff: each reopening waits the initial delay.
    expect(interruptions.slice(0, 2)).toEqual([
      ['stream 1 broke', 5],
      ['stream 2 broke', 5],
    ]);
  });

  it('backs off exponentially while the stream cannot even open', async () => {
    const delays: number[] = [];
    const follower = followStream<number>({
      open: () => {
        throw new Error('refused');
      },
      onMessage: () => {},
      onInterrupted: (_error, retryInMs) => delays.push(retryInMs),
      initialDelayMs: 2,
      maxDelayMs: 8,
    });
    while (delays.length < 5) await new Promise((resolve) => setTimeout(resolve, 2));
    follower.stop();
    expect(delays.slice(0, 5)).toEqual([2, 4, 8, 8, 8]);
  });
});
