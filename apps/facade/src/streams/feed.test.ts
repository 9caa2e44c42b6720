import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { CatchUpBudget } from './catch-up';
import { Feed, type FeedOptions, type FollowedLedgers, type PublishListener } from './feed';

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
  /** Store reads made (each ledger a catch-up read, whether or not anything was sent of it). */
  readCount = 0;
  /** The node-wide catch-up budget the reads wait for; none: every read goes at once. */
  budget: CatchUpBudget | undefined;

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
    this.readCount++;
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

  waitToRead(_ledgerIndex: number, signal: AbortSignal): Promise<void> {
    return this.budget ? this.budget.take(signal) : Promise.resolve();
  }

  get followers(): number {
    return this.listeners.size;
  }
}

const logger = createLogger('feed-test', 'silent');

function feedOn(chain: MemoryChain, drained: () => Promise<void> = async () => {}, options: Partial<FeedOptions<TestLedger>> = {}) {
  const delivered: number[] = [];
  const feed = new Feed<TestLedger>(chain, { deliver: (ledger) => delivered.push(ledger.ledgerIndex), drained, logger, retryDelayMs: 1, ...options });
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

describe('Feed catching up within the node-wide budget', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A chain holding ledgers 1 to `last`, all published, whose store reads take tokens of a budget of `ledgersPerSecond`. */
  function budgetedChain(last: number, ledgersPerSecond: number): MemoryChain {
    vi.useFakeTimers();
    const chain = new MemoryChain();
    chain.store(...range(1, last));
    chain.lastPublished = last;
    chain.budget = new CatchUpBudget(ledgersPerSecond, () => Date.now());
    return chain;
  }

  it('reads no faster than the budget even when it sends nothing (an account filter matching nothing), and misses no ledger', async () => {
    const chain = budgetedChain(40, 10);
    const read: number[] = [];
    const { feed } = feedOn(chain, async () => {}, { deliver: (ledger) => void read.push(ledger.ledgerIndex) });
    feed.start(0);
    await vi.advanceTimersByTimeAsync(0);
    // A second's worth at once, then one each tenth of a second.
    expect(chain.readCount).toBe(10);
    await vi.advanceTimersByTimeAsync(1_050);
    expect(chain.readCount).toBe(20);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(read).toEqual(range(1, 40));
    chain.publish(41);
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toEqual(range(1, 41));
    feed.stop();
  });

  it('shares the budget among feeds catching up at once, in turn', async () => {
    const chain = budgetedChain(100, 4);
    const feeds = [feedOn(chain), feedOn(chain), feedOn(chain)];
    for (const { feed } of feeds) feed.start(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(chain.readCount).toBe(4);
    await vi.advanceTimersByTimeAsync(3_100);
    expect(chain.readCount).toBe(16);
    const counts = feeds.map(({ delivered }) => delivered.length);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    for (const { feed, delivered } of feeds) {
      expect(delivered).toEqual(range(1, delivered.length));
      feed.stop();
    }
  });

  it('releases its resume once caught up, and only once', async () => {
    const chain = budgetedChain(5, 100);
    const release = vi.fn();
    const { feed, delivered } = feedOn(chain, async () => {}, { resume: { release } });
    feed.start(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual(range(1, 5));
    expect(release).toHaveBeenCalledTimes(1);
    // Falling behind again later is a catch-up of a live feed, not the resume.
    chain.store(6, 7);
    chain.publish(8);
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual(range(1, 8));
    feed.stop();
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('releases a resume with nothing to catch up at its start', () => {
    const chain = new MemoryChain();
    chain.publish(9);
    const release = vi.fn();
    const { feed } = feedOn(chain, async () => {}, { resume: { release } });
    feed.start(9);
    expect(release).toHaveBeenCalledTimes(1);
    feed.stop();
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('stopped while it waits for the budget, reads nothing more, leaves the line and releases its resume', async () => {
    const chain = budgetedChain(10, 1);
    const release = vi.fn();
    const { feed, delivered } = feedOn(chain, async () => {}, { resume: { release } });
    feed.start(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual([1]);
    expect(chain.budget!.waiters).toBe(1);
    feed.stop();
    expect(release).toHaveBeenCalledTimes(1);
    expect(chain.budget!.waiters).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(chain.readCount).toBe(1);
    expect(release).toHaveBeenCalledTimes(1);
  });
});
