import { describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { Feed, type FollowedLedgers, type PublishListener } from './feed';

interface TestLedger {
  readonly ledgerIndex: number;
}

/**
 * A chain in memory behind the follower's interface: ledgers are stored, then published (or not:
 * a follower that falls behind publishes a later one without the earlier), and store reads resolve
 * only when the test lets them, so that publications can come in the middle of a replay.
 */
class MemoryChain implements FollowedLedgers<TestLedger> {
  readonly stored = new Set<number>();
  lastPublished: number | undefined;
  private readonly listeners = new Set<PublishListener<TestLedger>>();
  /** Reads waiting for `release`. */
  readonly reads: { ledgerIndex: number; release: () => void }[] = [];
  holdReads = false;
  failNextReads = 0;

  store(...ledgerIndexes: number[]): void {
    for (const ledgerIndex of ledgerIndexes) this.stored.add(ledgerIndex);
  }

  publish(ledgerIndex: number, withLedger = true): void {
    this.store(ledgerIndex);
    this.lastPublished = ledgerIndex;
    for (const listener of [...this.listeners]) listener(ledgerIndex, withLedger ? { ledgerIndex } : undefined);
  }

  follow(listener: PublishListener<TestLedger>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async ledger(ledgerIndex: number): Promise<TestLedger | undefined> {
    if (this.failNextReads > 0) {
      this.failNextReads--;
      throw new Error('the store is unavailable');
    }
    if (this.holdReads) await new Promise<void>((release) => this.reads.push({ ledgerIndex, release }));
    return this.stored.has(ledgerIndex) ? { ledgerIndex } : undefined;
  }

  async nextStoredAfter(ledgerIndex: number): Promise<number | undefined> {
    const above = [...this.stored].filter((candidate) => candidate > ledgerIndex);
    return above.length === 0 ? undefined : Math.min(...above);
  }

  get followers(): number {
    return this.listeners.size;
  }
}

const logger = createLogger('feed-test', 'silent');

function feedOn(chain: MemoryChain, drained: () => Promise<void> = async () => {}) {
  const delivered: number[] = [];
  const feed = new Feed<TestLedger>(chain, { deliver: (ledger) => delivered.push(ledger.ledgerIndex), drained, logger, retryDelayMs: 1 });
  return { feed, delivered };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, offset) => first + offset);

describe('Feed', () => {
  it('without a resume point, delivers each ledger published after the newest one', async () => {
    const chain = new MemoryChain();
    chain.publish(10);
    const { feed, delivered } = feedOn(chain);
    feed.start(undefined);
    chain.publish(11);
    chain.publish(12);
    await settle();
    expect(delivered).toEqual([11, 12]);
  });

  it('resumes after the last ledger seen: the stored ones, then the live ones, none missing and none twice, while ledgers are published mid-replay', async () => {
    const chain = new MemoryChain();
    chain.store(...range(1, 20));
    chain.lastPublished = 20;
    chain.holdReads = true;
    const { feed, delivered } = feedOn(chain);
    feed.start(5);
    // Each store read is let through only after a new ledger was published.
    for (let next = 21; next <= 30; next++) {
      await settle();
      chain.publish(next);
      chain.reads.shift()?.release();
    }
    chain.holdReads = false;
    for (const read of chain.reads.splice(0)) read.release();
    await settle();
    chain.publish(31);
    await settle();
    expect(delivered).toEqual(range(6, 31));
  });

  it('reads a ledger the follower published without reading it, then goes on live', async () => {
    const chain = new MemoryChain();
    chain.publish(1);
    const { feed, delivered } = feedOn(chain);
    feed.start(1);
    chain.publish(2, false);
    await settle();
    chain.publish(3);
    await settle();
    expect(delivered).toEqual([2, 3]);
  });

  it('catches up when the follower jumps ahead of it', async () => {
    const chain = new MemoryChain();
    chain.publish(1);
    const { feed, delivered } = feedOn(chain);
    feed.start(1);
    chain.store(2, 3);
    chain.publish(4);
    await settle();
    expect(delivered).toEqual([2, 3, 4]);
  });

  it('skips ledgers the store does not hold (a gap sync has not filled yet) and goes on at the next stored one', async () => {
    const chain = new MemoryChain();
    chain.publish(1);
    const { feed, delivered } = feedOn(chain);
    feed.start(1);
    chain.publish(5);
    await settle();
    chain.publish(6);
    await settle();
    expect(delivered).toEqual([5, 6]);
  });

  it('retries a store read that failed, losing nothing', async () => {
    const chain = new MemoryChain();
    chain.store(1, 2, 3);
    chain.lastPublished = 3;
    chain.failNextReads = 2;
    const { feed, delivered } = feedOn(chain);
    feed.start(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('replays at the pace its client reads: the next ledger waits until the last is drained', async () => {
    const chain = new MemoryChain();
    chain.store(1, 2, 3);
    chain.lastPublished = 3;
    const waiting: (() => void)[] = [];
    const { feed, delivered } = feedOn(chain, () => new Promise<void>((resolve) => waiting.push(resolve)));
    feed.start(0);
    await settle();
    expect(delivered).toEqual([1]);
    waiting.shift()!();
    await settle();
    expect(delivered).toEqual([1, 2]);
    waiting.shift()!();
    await settle();
    waiting.shift()!();
    await settle();
    expect(delivered).toEqual([1, 2, 3]);
  });

  it('delivers nothing once stopped, and stops following', async () => {
    const chain = new MemoryChain();
    chain.publish(1);
    const { feed, delivered } = feedOn(chain);
    feed.start(undefined);
    chain.publish(2);
    feed.stop();
    chain.publish(3);
    await settle();
    expect(delivered).toEqual([2]);
    expect(chain.followers).toBe(0);
  });

  it('does not start when stopped before its start (a connection closed before its answer was sent)', async () => {
    const chain = new MemoryChain();
    chain.publish(1);
    const { feed, delivered } = feedOn(chain);
    feed.stop();
    feed.start(0);
    chain.publish(2);
    await settle();
    expect(delivered).toEqual([]);
    expect(chain.followers).toBe(0);
  });
});
