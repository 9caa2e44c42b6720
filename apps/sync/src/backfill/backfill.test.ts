import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '@ledger-node/test-utils';
import { decodeLedgerHeader, encodeLedgerHeader, type FetchedLedger, getProfile, hashLedgerHeader, signValidation, verifyLedger } from '@ledger-node/chain';
import { createLogger } from '@ledger-node/telemetry';
import { MemoryLedgerStore, RecordedUpstream } from '../../test/support/fakes';
import { recordedFetchedLedger, recordedLedgerFile, recordedRun } from '../../test/support/recorded-ledgers';
import { LiveFollower, type LiveFollowerOptions } from '../follow/live-follower';
import { AnchorProof } from '../verify/anchor-proof';
import { testNetwork } from '../trust/test-network';
import { StoredChain } from '../store/stored-chain';
import { SyncHealth } from '../sync-health';
import { Refusals } from '../refusals';
import { VerificationCounter } from '../verify/verified-fetch';
import { ledgerWriteOf } from '../index/ledger-write';
import { IngestCounts } from '../ingest';
import { Backfill } from './backfill';

/** The endpoint every announcement here comes from. */
const UPSTREAM = 'ws://upstream.test';

const logger = createLogger('sync', 'silent');
const profile = getProfile('xrpl');
const stoppers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stoppers.splice(0)) await stop();
});

function recordedLedgers(change?: (ledger: FetchedLedger) => FetchedLedger): Map<number, FetchedLedger> {
  return new Map(recordedRun.map((ledgerIndex) => {
    const ledger = recordedFetchedLedger(ledgerIndex);
    return [ledgerIndex, change ? change(ledger) : ledger];
  }));
}

/** A follower and a backfill over a fresh chain on `store`, as the engine wires them. */
/** Proves every announced anchor: these tests are about what follows an anchor (anchor-proof.test.ts proves anchors). */
const trustingProof = { prove: async () => ({ text: 'trusted by the test' }) };
/** Stores every ledger without state changes: these tests have no state download (state-prover.ts proves state). */
const noState: LiveFollowerOptions['stateProver'] = { provenWrite: (_ledger, write) => write(undefined) };

async function startSync(
  store: MemoryLedgerStore,
  upstream: RecordedUpstream,
  threadCount = 3,
  anchorProof: LiveFollowerOptions['anchorProof'] = trustingProof,
  ledgerHistory?: number,
  /** What the chain takes before backfill starts (the store's word on its ranges, say). */
  beforeStart?: (chain: StoredChain) => void,
) {
  const health = new SyncHealth(logger);
  const chain = new StoredChain(store, health);
  await chain.load();
  beforeStart?.(chain);
  const refusals = new Refusals();
  const failures = new VerificationCounter(logger, refusals);
  const ingest = new IngestCounts();
  const pipeline = { fetcher: upstream, chain, profile, logger, failures, health, ingest };
  const backfill = new Backfill({ ...pipeline, threadCount, refusals, startLedger: () => 11119599, ledgerHistory });
  const unprovable: Array<[number, string]> = [];
  const follower = new LiveFollower({
    ...pipeline,
    anchorProof,
    stateProver: noState,
    refusals,
    onUnprovable: (count, source) => unprovable.push([count, source]),
    onAnchored: () => backfill.wake(),
  });
  backfill.start();
  stoppers.push(() => follower.stop(), () => backfill.stop());
  return { chain, failures, health, backfill, follower, refusals, unprovable, ingest };
}

const hashOf = (ledgerIndex: number) => recordedLedgerFile(ledgerIndex).ledger_hash;

describe('an anchor must be proven the network\'s', () => {
  const network = testNetwork(profile, 1);
  const validations = (ledgerIndex: number, ledgerHash: string) => network.validation(0, ledgerIndex, ledgerHash);
  const proofTrusting = () =>
    new AnchorProof({
      profile,
      logger,
      lists: network.lists(),
      endpoints: ['ws://one'],
      ledgerHashFrom: async () => ({ hash: '', server: '' }),
      fetchManifest: async () => undefined,
      negativeUnl: async () => ({ keys: new Set(), source: 'state' }),
      onRefused: () => undefined,
      validationWaitMs: 300,
    });

  /** Ledger 11119604 with its close time moved: a self-consistent header (it hashes to what it is announced as) the network never validated. */
  function forgedTip(): { ledgers: Map<number, FetchedLedger>; hash: string } {
    const ledgers = recordedLedgers();
    const real = ledgers.get(11119604)!;
    const header = decodeLedgerHeader(real.headerBlob);
    const forged = { ...header, closeTime: header.closeTime + 10 };
    const hash = hashLedgerHeader(forged);
    ledgers.set(11119604, { ...real, headerBlob: encodeLedgerHeader(forged), ledgerHash: hash });
    return { ledgers, hash };
  }

  it('refuses a forged self-consistent tip that no trusted validator signed: nothing is stored', async () => {
    const { ledgers, hash } = forgedTip();
    const store = new MemoryLedgerStore();
    const proof = proofTrusting();
    // The real ledger is validated; the forged one is announced.
    proof.onValidation(validations(11119604, hashOf(11119604)));
    const sync = await startSync(store, new RecordedUpstream(ledgers), 3, proof);
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hash, source: UPSTREAM });
    await waitUntil(() => proof.state.includes('not proven') || undefined, 5_000, 'the forged tip refused');
    expect(proof.state).toBe(`ledger 11119604 ${hash} not proven: 0 of the 1 trusted validations needed came`);
    expect(store.ledgers.size).toBe(0);
    await waitUntil(() => sync.refusals.toRecord().unproven_ledger === 1n || undefined, 5_000, 'the unproven ledger counted');
    // Announced again and again: after three in a row from one endpoint, that endpoint is to be left.
    const other = 'ws://other.test';
    for (const [round, source] of [[2, other], [3, UPSTREAM], [4, UPSTREAM], [5, UPSTREAM]] as const) {
      sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hash, source });
      await waitUntil(() => sync.refusals.toRecord().unproven_ledger === BigInt(round) || undefined, 5_000, `unproven ${round} times`);
      if (round === 4) expect(sync.unprovable).toEqual([]);
    }
    expect(sync.unprovable).toEqual([[3, UPSTREAM]]);
  });

  it('refuses a fork at the tip: a forged ledger naming the stored tip as its parent, which no trusted validator signed', async () => {
    const { ledgers, hash } = forgedTip();
    const store = new MemoryLedgerStore();
    const proof = proofTrusting();
    proof.onValidation(validations(11119603, hashOf(11119603)));
    const sync = await startSync(store, new RecordedUpstream(ledgers), 3, proof);
    sync.follower.announce({ ledgerIndex: 11119603, ledgerHash: hashOf(11119603), source: UPSTREAM });
    await waitUntil(() => sync.chain.tip === 11119603 || undefined, 10_000, 'anchored at 11119603');
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hash, source: UPSTREAM });
    await waitUntil(() => proof.state.includes('not proven') || undefined, 5_000, 'the fork refused');
    expect(sync.chain.tip).toBe(11119603);
    expect([...store.ledgers.keys()].includes(11119604)).toBe(false);
  });

  it('anchors at a ledger a trusted validator signed, and not on an untrusted key\'s word', async () => {
    const untrusted = profile.keys.deriveKeypair(profile.keys.generateSeed({ entropy: new Uint8Array(16).fill(3) }));
    const store = new MemoryLedgerStore();
    const proof = proofTrusting();
    proof.onValidation({ data: signValidation(profile, untrusted, { ledgerIndex: 11119604, ledgerHash: hashOf(11119604), signingTime: 1 }) });
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()), 3, proof);
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => proof.state.includes('not proven') || undefined, 5_000, 'no trusted validation yet');
    expect(store.ledgers.size).toBe(0);
    proof.onValidation(validations(11119604, hashOf(11119604)));
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => store.ledgers.size === 6 || undefined, 10_000, 'anchored and backfilled');
    expect(proof.state).toBe('ledger 11119604 validated by 1 of 1 trusted validators (quorum 1)');
  });
});

describe('an announcement the upstream does not back', () => {
  it('a ledger 4 000 000 000 announced and not served neither wedges the highest ledger nor stops following', async () => {
    const store = new MemoryLedgerStore();
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    sync.follower.announce({ ledgerIndex: 11119603, ledgerHash: hashOf(11119603), source: UPSTREAM });
    await waitUntil(() => sync.chain.tip === 11119603 || undefined, 10_000, 'anchored at 11119603');
    sync.follower.announce({ ledgerIndex: 4_000_000_000, ledgerHash: 'AB'.repeat(32), source: UPSTREAM });
    expect(sync.follower.highestAnnounced).toBe(4_000_000_000);
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => sync.chain.tip === 11119604 || undefined, 10_000, 'followed to 11119604');
    await waitUntil(() => sync.follower.highestAnnounced === 11119604 || undefined, 20_000, 'the unbacked announcement dropped');
  });
});

describe('anchor and backfill over the recorded mainnet run', () => {
  it('anchors at the announced validated ledger and fills down to the start ledger, newest first, in descending batches', async () => {
    const store = new MemoryLedgerStore();
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => store.ledgers.size === 6, 10_000, 'six ledgers stored', 10);
    expect(store.putCalls[0]).toEqual([11119604]);
    const backfilled = store.putCalls.slice(1).flat();
    expect(backfilled).toEqual([11119603, 11119602, 11119601, 11119600, 11119599]);
    for (const ledgerIndex of recordedRun) {
      expect(store.ledgers.get(ledgerIndex)!.ledgerHash.toString('hex').toUpperCase()).toBe(hashOf(ledgerIndex));
    }
    expect(sync.chain.ranges.toArray()).toEqual([{ first: 11119599, last: 11119604 }]);
    expect(sync.failures.count).toBe(0n);
    expect(sync.backfill.remainingLedgers()).toBe(0);
    // Counted apart: the anchor followed live, the five below it backfilled.
    expect([sync.ingest.total('live'), sync.ingest.total('backfill')]).toEqual([1, 5]);
    // Done: backfill's rate is 0 at once, not a 10 s average fading out.
    await waitUntil(() => !sync.backfill.active || undefined, 10_000, 'backfill complete', 10);
    expect(sync.backfill.ledgersPerSecond()).toBe(0);
    expect(sync.ingest.rates.backfill.ledgersPerSecond()).toBe(0);
    expect(sync.backfill.etaSeconds()).toBeUndefined();
  });

  it('resumes from the stored ranges: only the missing ledgers are fetched, a gap between ranges included', async () => {
    const store = new MemoryLedgerStore();
    const first = await startSync(store, new RecordedUpstream(recordedLedgers()));
    first.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => store.ledgers.size === 6, 10_000, 'six ledgers stored', 10);
    for (const stop of stoppers.splice(0)) await stop();
    // As after a crash that lost nothing but these two.
    store.ledgers.delete(11119602);
    store.ledgers.delete(11119603);
    const upstream = new RecordedUpstream(recordedLedgers());
    const second = await startSync(store, upstream);
    expect(second.backfill.gaps()).toEqual([{ top: 11119603, bottom: 11119602, linksBelow: true }]);
    await waitUntil(() => store.ledgers.size === 6, 10_000, 'six ledgers stored', 10);
    expect([...upstream.fetchCounts.keys()].sort()).toEqual([11119602, 11119603]);
    expect(second.chain.ranges.toArray()).toEqual([{ first: 11119599, last: 11119604 }]);
  });

  it('backfills no lower than the tip minus -ledger_history plus one: what the ledger-store removed is not fetched again', async () => {
    const store = new MemoryLedgerStore();
    const first = await startSync(store, new RecordedUpstream(recordedLedgers()));
    first.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => store.ledgers.size === 6, 10_000, 'six ledgers stored', 10);
    for (const stop of stoppers.splice(0)) await stop();
    // As a ledger-store keeping the newest 3 leaves them.
    for (const ledgerIndex of [11119599, 11119600, 11119601]) store.ledgers.delete(ledgerIndex);
    const kept = await startSync(store, new RecordedUpstream(recordedLedgers()), 3, trustingProof, 3);
    expect(kept.backfill.gaps()).toEqual([]);
    for (const stop of stoppers.splice(0)) await stop();
    // Keeping 4, one ledger below the stored ones is wanted, and fetched.
    const upstream = new RecordedUpstream(recordedLedgers());
    const wider = await startSync(store, upstream, 3, trustingProof, 4);
    expect(wider.backfill.gaps()).toEqual([{ top: 11119601, bottom: 11119601, linksBelow: false }]);
    await waitUntil(() => store.ledgers.size === 4, 10_000, 'ledger 11119601 stored', 10);
    expect([...upstream.fetchCounts.keys()]).toEqual([11119601]);
  });

  it('backfills no lower than the retention floor the ledger-store announced, and drops what lies below it', async () => {
    const store = new MemoryLedgerStore();
    const first = await startSync(store, new RecordedUpstream(recordedLedgers()));
    first.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => store.ledgers.size === 6, 10_000, 'six ledgers stored', 10);
    for (const stop of stoppers.splice(0)) await stop();
    for (const ledgerIndex of [11119599, 11119600, 11119601, 11119602]) store.ledgers.delete(ledgerIndex);

    // No -ledger_history of sync's own: the store's word bounds the backfill.
    const floorAt = (retentionFloor: number) => (chain: StoredChain) =>
      chain.takeStoreChange({ change: 'retention', completeRanges: [{ first: 11119603, last: 11119604 }], removedRanges: [], retentionFloor });
    const quiet = new RecordedUpstream(recordedLedgers());
    const kept = await startSync(store, quiet, 3, trustingProof, undefined, floorAt(11119603));
    expect(kept.backfill.gaps()).toEqual([]);
    expect(kept.backfill.remainingLedgers()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quiet.fetchCounts.size).toBe(0);
    for (const stop of stoppers.splice(0)) await stop();

    // A floor one lower: that one ledger is fetched, and nothing below it.
    const upstream = new RecordedUpstream(recordedLedgers());
    const wider = await startSync(store, upstream, 3, trustingProof, undefined, floorAt(11119602));
    expect(wider.backfill.gaps()).toEqual([{ top: 11119602, bottom: 11119602, linksBelow: false }]);
    await waitUntil(() => store.ledgers.size === 3, 10_000, 'ledger 11119602 stored', 10);
    expect([...upstream.fetchCounts.keys()]).toEqual([11119602]);

    // The floor rises past a gap being filled: the fill stops there.
    wider.chain.takeStoreChange({ change: 'retention', completeRanges: [{ first: 11119602, last: 11119604 }], removedRanges: [], retentionFloor: 11119604 });
    expect(wider.chain.ranges.toArray()).toEqual([{ first: 11119604, last: 11119604 }]);
    expect(wider.backfill.gaps()).toEqual([]);
  });

  it('extends the tip with the next announced ledger when it names the tip as parent', async () => {
    const store = new MemoryLedgerStore();
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    sync.follower.announce({ ledgerIndex: 11119603, ledgerHash: hashOf(11119603), source: UPSTREAM });
    await waitUntil(() => store.ledgers.size === 5, 10_000, 'five ledgers stored', 10);
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => store.ledgers.has(11119604), 10_000, 'ledger 11119604 stored', 10);
    expect(sync.chain.ranges.toArray()).toEqual([{ first: 11119599, last: 11119604 }]);
  });

  it('never stores a ledger whose transaction was changed, nor anything below it, and counts the failures', async () => {
    const store = new MemoryLedgerStore();
    const tampered = recordedLedgers((ledger) => {
      if (ledger.ledgerIndex !== 11119602) return ledger;
      const [first, ...rest] = ledger.transactions;
      const blob = Buffer.from(first!.txBlob);
      blob[blob.length - 1] = blob[blob.length - 1]! ^ 1;
      return { ...ledger, transactions: [{ ...first!, txBlob: blob }, ...rest] };
    });
    const upstream = new RecordedUpstream(tampered);
    const sync = await startSync(store, upstream);
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    // The verified ledger above is written while the tampered one is fetched again and again.
    await waitUntil(() => sync.failures.count >= 2n && store.ledgers.has(11119603), 10_000, 'two failures counted and ledger 11119603 stored', 10);
    expect(sync.failures.last).toMatchObject({ ledgerIndex: 11119602, reason: 'transaction_tree_mismatch' });
    expect([...store.ledgers.keys()].sort()).toEqual([11119603, 11119604]);
    expect(upstream.fetchCounts.get(11119602)).toBeGreaterThanOrEqual(2);
  });

  it('never stores a self-consistent ledger that is not its stored child parent', async () => {
    const store = new MemoryLedgerStore();
    // 11119601 served in place of 11119602's content would fail the index check; instead the header of 11119602 is
    // served with a different parent_hash and its ledger_hash recomputed, so it verifies alone but not as a parent.
    const { encodeLedgerHeader, decodeLedgerHeader, hashLedgerHeader } = await import('@ledger-node/chain');
    const forged = recordedLedgers((ledger) => {
      if (ledger.ledgerIndex !== 11119602) return ledger;
      const header = { ...decodeLedgerHeader(ledger.headerBlob), parentHash: 'AB'.repeat(32) };
      return { ...ledger, headerBlob: encodeLedgerHeader(header), ledgerHash: hashLedgerHeader(header) };
    });
    const sync = await startSync(store, new RecordedUpstream(forged));
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => sync.failures.count >= 2n && store.ledgers.has(11119603), 10_000, 'two failures counted and ledger 11119603 stored', 10);
    expect(sync.failures.last).toMatchObject({ ledgerIndex: 11119602, reason: 'child_link_mismatch', expected: hashOf(11119602) });
    expect([...store.ledgers.keys()].sort()).toEqual([11119603, 11119604]);
  });

  /** The recorded ledger with its close time moved (and its parent, when given): self-consistent, not the network's. */
  function forgedWrite(ledgerIndex: number, parentHash?: string) {
    const real = recordedFetchedLedger(ledgerIndex);
    const header = decodeLedgerHeader(real.headerBlob);
    const forgedHeader = { ...header, closeTime: header.closeTime + 10, parentHash: parentHash ?? header.parentHash };
    const forged = verifyLedger({ ...real, headerBlob: encodeLedgerHeader(forgedHeader), ledgerHash: hashLedgerHeader(forgedHeader) });
    if (!forged.ok) throw new Error(forged.failure.message);
    return ledgerWriteOf(forged.ledger, profile, new SyncHealth(logger));
  }

  it.each([
    ['inside the stored range, found by backfill', 11119601],
    ['at the stored tip, found by the next proven ledger', 11119603],
  ])('removes a stored ledger that does not chain to the proven ledgers (%s) and fetches the network\'s', async (_where, forgedIndex) => {
    const store = new MemoryLedgerStore();
    await store.putLedgers([forgedWrite(forgedIndex)]);
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    // Above 11119601 a gap, which backfill fills down to it; above 11119603 the next ledger.
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => (store.ledgers.size === 6 && sync.backfill.remainingLedgers() === 0) || undefined, 15_000, 'the run stored, the forged ledger replaced');
    for (const ledgerIndex of recordedRun) expect([ledgerIndex, store.ledgers.get(ledgerIndex)!.ledgerHash.toString('hex').toUpperCase()]).toEqual([ledgerIndex, hashOf(ledgerIndex)]);
    expect(sync.refusals.toRecord()).toMatchObject({ parent_hash_mismatch: 1n, stored_ledger_unproven: 1n });
    // The repair said while it ran is over once the chain below the removed ledger is linked.
    expect(sync.health.stopText()).toBeUndefined();
  });

  it('replaces a stored ledger with the proven one announced at its index, with the stored ledgers linked above it', async () => {
    const store = new MemoryLedgerStore();
    const realWrite = (ledgerIndex: number) => {
      const verified = verifyLedger(recordedFetchedLedger(ledgerIndex));
      if (!verified.ok) throw new Error(verified.failure.message);
      return ledgerWriteOf(verified.ledger, profile, new SyncHealth(logger));
    };
    const forged = forgedWrite(11119602);
    await store.putLedgers([realWrite(11119599), realWrite(11119600), realWrite(11119601), forged, forgedWrite(11119603, forged.ledgerHash.toString('hex').toUpperCase())]);
    const announced = { ledgerIndex: 11119602, ledgerHash: hashOf(11119602), source: UPSTREAM };

    // A contest the upstream cannot prove removes nothing.
    const unproven = await startSync(store, new RecordedUpstream(recordedLedgers()), 3, { prove: async () => undefined });
    unproven.follower.announce(announced, true);
    await waitUntil(() => unproven.refusals.toRecord().unproven_ledger || undefined, 10_000, 'the contest refused');
    expect(store.ledgers.get(11119602)!.ledgerHash).toEqual(forged.ledgerHash);
    expect(store.ledgers.has(11119603)).toBe(true);

    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    // The network's 11119602, announced where the store holds another (ChainCheck's contest).
    sync.follower.announce(announced, true);
    await waitUntil(() => store.ledgers.get(11119602)?.ledgerHash.toString('hex').toUpperCase() === hashOf(11119602) || undefined, 10_000, "the network's 11119602 stored");
    expect(store.ledgers.has(11119603)).toBe(false);
    // Linked to the stored 11119601: nothing is left to repair.
    expect(sync.health.stopText()).toBeUndefined();
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => (store.ledgers.size === 6 && sync.backfill.remainingLedgers() === 0) || undefined, 10_000, 'the run stored');
    for (const ledgerIndex of recordedRun) expect([ledgerIndex, store.ledgers.get(ledgerIndex)!.ledgerHash.toString('hex').toUpperCase()]).toEqual([ledgerIndex, hashOf(ledgerIndex)]);
    expect(sync.refusals.toRecord()).toMatchObject({ stored_ledger_unproven: 2n });
  });

  it('does not store an announced ledger whose header does not hash to the announced hash', async () => {
    const store = new MemoryLedgerStore();
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119603), source: UPSTREAM });
    await waitUntil(() => sync.failures.count >= 1n, 10_000, 'a failure counted', 10);
    expect(sync.failures.last).toMatchObject({ ledgerIndex: 11119604, reason: 'header_hash_mismatch' });
    expect(store.ledgers.size).toBe(0);
  });

  it('stops loudly while the store refuses a verified ledger, retries, and resumes once the store takes it', async () => {
    const store = new MemoryLedgerStore();
    let refusing = true;
    const put = store.putLedgers.bind(store);
    store.putLedgers = async (ledgers) => {
      if (refusing) throw new Error('disk full');
      return put(ledgers);
    };
    const sync = await startSync(store, new RecordedUpstream(recordedLedgers()));
    sync.follower.announce({ ledgerIndex: 11119604, ledgerHash: hashOf(11119604), source: UPSTREAM });
    await waitUntil(() => sync.health.stop, 10_000, 'sync stopped', 10);
    expect(sync.health.stopText()).toBe('stopped at ledger 11119604: disk full');
    expect(store.ledgers.size).toBe(0);
    refusing = false;
    await waitUntil(() => store.ledgers.size === 6, 20_000, 'the run stored once the store takes it', 10);
    expect(sync.health.stop).toBeUndefined();
    expect(sync.failures.count).toBe(0n);
  });
});
