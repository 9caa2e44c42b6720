import { afterEach, describe, expect, it } from 'vitest';
import { encodeLedgerHeader, hashLedgerHeader, type StoredLink } from '@ledger-node/chain';
import type { LedgerWrite } from '@ledger-node/contracts';
import { NotImplemented, Unavailable } from '@ledger-node/errors';
import { createLogger } from '@ledger-node/telemetry';
import { waitUntil } from '@ledger-node/test-utils';
import { MemoryLedgerStore, ScriptedStoreRanges } from '../../test/support/fakes';
import { SyncHealth } from '../sync-health';
import type { StoreRangesChange } from './ledger-store';
import { StoreRangeFollower } from './range-follower';
import { StoredChain } from './stored-chain';

const logger = createLogger('sync', 'silent');
const stoppers: (() => void)[] = [];
afterEach(() => {
  for (const stop of stoppers.splice(0)) stop();
});

/** A stored ledger of its own hash (a decodable header: removing one reads it back). */
function ledgerAt(ledgerIndex: number): { write: LedgerWrite; link: StoredLink } {
  const header = {
    ledgerIndex,
    totalCoins: 99_999_999_999_000_000n,
    parentHash: ledgerIndex.toString(16).padStart(64, '0'),
    transactionHash: '0'.repeat(64),
    accountHash: '0'.repeat(64),
    parentCloseTime: 800_000_000,
    closeTime: 800_000_004,
    closeTimeResolution: 10,
    closeFlags: 0,
  };
  const ledgerHash = Buffer.from(hashLedgerHeader(header), 'hex');
  return {
    write: { ledgerIndex, ledgerHash, headerBlob: encodeLedgerHeader(header), transactions: [], stateChanges: [], stateChangesComplete: false },
    link: { ledgerIndex, ledgerHash, parentHash: Buffer.from(header.parentHash, 'hex') },
  };
}

/** A chain over a store holding `first`..`last`, and a follower of the store's word on it. */
async function following(first: number, last: number, options: { initialDelayMs?: number; maxDelayMs?: number; logger?: typeof logger } = {}) {
  const store = new MemoryLedgerStore();
  for (let ledgerIndex = first; ledgerIndex <= last; ledgerIndex++) store.ledgers.set(ledgerIndex, ledgerAt(ledgerIndex).write);
  const chain = new StoredChain(store, new SyncHealth(logger));
  await chain.load();
  const ranges = new ScriptedStoreRanges();
  ranges.held = { completeRanges: await store.completeRanges() };
  let resynced = 0;
  const follower = new StoreRangeFollower({ store: ranges, chain, logger: options.logger ?? logger, onResynced: () => resynced++, initialDelayMs: options.initialDelayMs ?? 10, maxDelayMs: options.maxDelayMs });
  stoppers.push(() => follower.stop());
  return { store, chain, ranges, follower, resynced: () => resynced };
}

const retention = (completeRanges: StoreRangesChange['completeRanges'], removedRanges: StoreRangesChange['removedRanges'], retentionFloor: number): StoreRangesChange => ({
  change: 'retention',
  completeRanges,
  removedRanges,
  retentionFloor,
});

describe('StoreRangeFollower', () => {
  it('drops what each announced removal names and everything below the retention floor, asking the store nothing between announcements', async () => {
    const { chain, ranges, follower } = await following(100, 120);
    follower.start();
    await waitUntil(() => ranges.streaming, 5_000, 'the stream to open', 5);
    expect(ranges.statusCalls).toBe(1);

    // A batch removed, the floor below what is left.
    ranges.announce(retention([{ first: 103, last: 120 }], [{ first: 100, last: 102 }], 101));
    await waitUntil(() => chain.ranges.lowest === 103, 5_000, 'the batch to leave', 5);
    expect(chain.ranges.toArray()).toEqual([{ first: 103, last: 120 }]);
    expect(chain.storeFloor).toBe(101);

    // A floor above the lowest stored: the store removes those next, and sync reads none of them from now on.
    ranges.announce(retention([{ first: 106, last: 120 }], [{ first: 103, last: 105 }], 110));
    await waitUntil(() => chain.ranges.lowest === 110, 5_000, 'the ledgers below the floor to leave', 5);
    expect(chain.ranges.toArray()).toEqual([{ first: 110, last: 120 }]);

    // A DeleteLedger in the middle.
    ranges.announce({ change: 'ledger_deleted', completeRanges: [{ first: 110, last: 114 }, { first: 116, last: 120 }], removedRanges: [{ first: 115, last: 115 }], retentionFloor: 110 });
    await waitUntil(() => !chain.ranges.has(115), 5_000, 'the deleted ledger to leave', 5);
    expect(chain.ranges.toArray()).toEqual([{ first: 110, last: 114 }, { first: 116, last: 120 }]);

    // No timer: the store is asked nothing more while the stream is open.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ranges.statusCalls).toBe(1);
    expect(ranges.streamsOpenedAtMs).toHaveLength(1);
  });

  it('leaves changes that remove nothing (state changes, ledgers stored below the tip) to sync\'s own account of its writes', async () => {
    const { chain, ranges, follower } = await following(100, 110);
    follower.start();
    await waitUntil(() => ranges.streaming, 5_000, 'the stream to open', 5);
    // The store says it holds less than sync counts (its word was given before sync's last write reached it): nothing leaves.
    ranges.announce({ change: 'state_changes_added', completeRanges: [{ first: 100, last: 108 }], stateRange: { first: 100, last: 105 }, removedRanges: [] });
    ranges.announce({ change: 'stored_below_tip', completeRanges: [{ first: 99, last: 108 }], removedRanges: [] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chain.ranges.toArray()).toEqual([{ first: 100, last: 110 }]);
    expect(chain.storeFloor).toBeUndefined();
  });

  it("takes the store's whole word when the stream opens, with the ledgers written and removed here while it answered", async () => {
    const { store, chain, ranges, follower } = await following(100, 120);
    let answer!: () => void;
    ranges.statusGate = new Promise((resolve) => (answer = resolve));
    follower.start();
    await waitUntil(() => ranges.statusCalls === 1, 5_000, 'GetStatus to be asked', 5);
    // While the store's answer is on its way: 121 written, 110 removed (the answer names neither change).
    await chain.write([ledgerAt(121)]);
    await chain.remove(110, () => store.ledgers.get(110)!);
    answer();
    await waitUntil(() => ranges.streaming, 5_000, 'the stream to open', 5);
    expect(chain.ranges.toArray()).toEqual([{ first: 100, last: 109 }, { first: 111, last: 121 }]);
  });

  it('opens a lost stream again with backoff and takes what the store holds then: ledgers it lost leave, ledgers it holds join', async () => {
    const { chain, ranges, follower, resynced } = await following(100, 120, { initialDelayMs: 20, maxDelayMs: 1_000 });
    follower.start();
    await waitUntil(() => ranges.streaming, 5_000, 'the stream to open', 5);
    expect(resynced()).toBe(0);

    // The store restarts: it lost 118-120 (a WAL cut short), and holds 95-99 sync never counted.
    ranges.failStreamsWith = new Unavailable('ledger-store unavailable: cannot connect');
    ranges.dropStream(new Unavailable('ledger-store unavailable: cannot connect'));
    await waitUntil(() => ranges.streamsOpenedAtMs.length >= 4, 5_000, 'three reopenings', 5);
    ranges.held = { completeRanges: [{ first: 95, last: 117 }] };
    ranges.failStreamsWith = undefined;
    await waitUntil(() => ranges.streaming, 5_000, 'the stream to open again', 5);
    expect(chain.ranges.toArray()).toEqual([{ first: 95, last: 117 }]);
    expect(resynced()).toBeGreaterThan(0);
    // Each reopening asked the store's word first, and waited longer than the one before.
    expect(ranges.statusCalls).toBe(ranges.streamsOpenedAtMs.length);
    const waits = ranges.streamsOpenedAtMs.slice(1).map((openedAtMs, position) => openedAtMs - ranges.streamsOpenedAtMs[position]!);
    expect(waits[0]).toBeGreaterThanOrEqual(15);
    expect(waits[2]!).toBeGreaterThan(waits[0]!);
  });

  it('does not take back a ledger written here after the store removed it, when the removal is announced late', async () => {
    const { store, chain, ranges, follower } = await following(100, 110);
    follower.start();
    await waitUntil(() => ranges.streaming, 5_000, 'the stream to open', 5);
    // Removed, written again, and only then the store's word on the removal arrives.
    await chain.remove(105, () => store.ledgers.get(105)!);
    await chain.write([ledgerAt(105)]);
    ranges.announce({ change: 'ledger_deleted', completeRanges: [{ first: 100, last: 104 }, { first: 106, last: 110 }], removedRanges: [{ first: 105, last: 105 }] });
    ranges.announce({ change: 'stored_below_tip', completeRanges: [{ first: 100, last: 110 }], removedRanges: [] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chain.ranges.toArray()).toEqual([{ first: 100, last: 110 }]);
  });

  it('says once that a ledger-store without WatchRanges is read again at each reopening, with no warning after', async () => {
    const lines: { level: string; msg: string }[] = [];
    const capturing = createLogger('sync', 'debug', { format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    const { chain, ranges, follower } = await following(100, 110, { initialDelayMs: 5, maxDelayMs: 20, logger: capturing });
    ranges.failStreamsWith = new NotImplemented('the method WatchRanges is not implemented');
    ranges.held = { completeRanges: [{ first: 103, last: 110 }], retentionFloor: 103 };
    follower.start();
    await waitUntil(() => ranges.streamsOpenedAtMs.length >= 5, 5_000, 'several reopenings', 5);
    expect(chain.ranges.toArray()).toEqual([{ first: 103, last: 110 }]);
    const warnings = lines.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringContaining('the ledger-store does not announce its ranges')]);
  });
});
