/**
 * The evidence kept, end to end: a devnet that plays a real network (a publisher site, five
 * validators with manifests, signed validations) and a node (ledger-store with bounded history, and
 * sync trusting only the publisher's key) following it. What GetLedgerEvidence answers must verify
 * offline: each validation's signature, for the ledger's hash, up to the quorum, under manifests
 * the publisher's signed list names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getProfile, listDocumentOf, readManifest, readPublishedList, verifyValidation } from '@ledger-node/chain';
import type { LedgerSelector } from '@ledger-node/contracts';
import { NotFound, type LedgerNodeError } from '@ledger-node/errors';
import { rejectionOf, stopAll, waitUntil } from '@ledger-node/test-utils';
import { scratchDir, startDevnet, startStoreAndSync, type Clients } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const PUBLISHER_LINE = /validator list publisher (ED[0-9A-F]{64}) at /;
/** Ledgers the devnet builds before it listens: sync anchors above them and backfills them. */
const PREBUILT = 6;
/**
 * The ledger-store's -ledger_history: small enough to see ledgers (and their evidence) removed
 * within the test, at the devnet's 4 ledgers a second; large enough that the backfill is read first.
 */
const KEPT = 40;

const profile = getProfile('xrpl');
const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });

/** The checks a client of a transaction proof makes, offline: the validations, the list and the manifests, against the ledger's hash. */
function checkEvidence(answer: Awaited<ReturnType<Clients['store']['getLedgerEvidence']>>, publisher: string) {
  const evidence = answer.evidence!;
  const ledgerHash = answer.ledgerHash.toString('hex').toUpperCase();
  const [list] = evidence.validatorLists;
  expect(evidence.validatorLists).toHaveLength(1);
  expect(list!.publicKey.toString('hex').toUpperCase()).toBe(publisher);
  // The publisher's signature over the list (and its manifest's) verify: readPublishedList refuses anything else.
  const published = readPublishedList(listDocumentOf(list!), new Set([publisher]));
  const listed = new Set(published.blobs.find((blob) => blob.sequence === list!.sequence)!.validators.map((validator) => validator.masterKey));
  const signingKeys = new Map(evidence.manifests.map((bytes) => readManifest(bytes)).map((manifest) => [manifest.signingKey!, manifest.masterKey]));
  const validations = evidence.validations.map((blob) => verifyValidation(profile, blob.toString('hex')));
  for (const validation of validations) {
    expect(validation).toMatchObject({ ledgerIndex: answer.ledgerIndex, ledgerHash, full: true });
    expect(listed.has(signingKeys.get(validation.publicKey)!)).toBe(true);
  }
  expect(new Set(validations.map((validation) => validation.publicKey)).size).toBe(validations.length);
  expect(evidence.quorum).toBe(4);
  expect(validations.length).toBeGreaterThanOrEqual(evidence.quorum);
  return evidence;
}

describe('the evidence of each ledger (GetLedgerEvidence), kept by a node following a devnet that plays a real network', () => {
  it('keeps the validations that proved each ledger followed live, none for a backfilled one, and removes them (and their count) with the ledgers bounded history removes', async () => {
    const devnet = await startDevnet(['-close_ms', '250', '-idle_close_ms', '250'], `${PREBUILT}x1`);
    const [, publisher] = (await devnet.process.waitFor(PUBLISHER_LINE)) as RegExpMatchArray;
    const dataDir = scratchDir(cleanups);
    const { sync, clients } = await startStoreAndSync(dataDir, devnet.url, ['-validator_list_keys', publisher!], cleanups, { kind: 'rocksdb', flags: ['-ledger_history', String(KEPT)], env: {} });
    const anchor = Number((await sync.waitFor(/anchored at validated ledger (\d+)/, 45_000))[1]);
    expect(anchor).toBeGreaterThan(PREBUILT);
    await waitUntil(async () => {
      const [range] = (await clients.store.getStatus({})).completeRanges;
      return range && range.first < anchor && range.last >= anchor + 3 ? true : undefined;
    }, 45_000, 'the backfill and three ledgers above the anchor', 100);

    // A backfilled ledger is proven by its child's parent_hash: it has no evidence.
    const backfilled = await clients.store.getLedgerEvidence({ ledger: atIndex(anchor - 1) });
    expect(backfilled.ledgerIndex).toBe(anchor - 1);
    expect(backfilled.evidence).toBeUndefined();
    // The anchor and the ledgers followed above it each keep theirs, and it verifies.
    for (const ledgerIndex of [anchor, anchor + 1, anchor + 2, anchor + 3]) checkEvidence(await clients.store.getLedgerEvidence({ ledger: atIndex(ledgerIndex) }), publisher!);
    const byHash = await clients.store.getLedgerEvidence({ ledger: { selector: { $case: 'hash', hash: (await clients.store.getLedgerEvidence({ ledger: atIndex(anchor + 1) })).ledgerHash } } });
    expect(byHash.ledgerIndex).toBe(anchor + 1);

    // Bounded history removes the ledgers below the window, their evidence with them.
    await waitUntil(async () => ((await clients.store.getStatus({})).completeRanges[0]!.first > anchor + 3 ? true : undefined), 60_000, 'the anchor and its followers removed', 200);
    const removed = await rejectionOf<LedgerNodeError>(clients.store.getLedgerEvidence({ ledger: atIndex(anchor + 3) }));
    expect(removed).toBeInstanceOf(NotFound);
    const { completeRanges } = await clients.store.getStatus({});
    checkEvidence(await clients.store.getLedgerEvidence({ ledger: atIndex(completeRanges[0]!.last - 1) }), publisher!);

    // The store counts the ledgers it holds with evidence, the removed ones no more: once sync has
    // stopped and the window settled, the count is that of the kept ledgers that answer evidence.
    await sync.stop();
    const settled = await waitUntil(async () => {
      const status = await clients.store.getStatus({});
      return status.completeRanges.length === 1 && status.completeRanges[0]!.first === status.retentionFloor ? status : undefined;
    }, 10_000, 'the window settled', 200);
    const { first, last } = settled.completeRanges[0]!;
    const kept = await Promise.all(Array.from({ length: last - first + 1 }, (_, offset) => clients.store.getLedgerEvidence({ ledger: atIndex(first + offset) })));
    expect(kept).toHaveLength(KEPT);
    expect(settled.evidenceLedgerCount).toBe(BigInt(kept.filter((answer) => answer.evidence !== undefined).length));
    expect(settled.evidenceLedgerCount).toBeGreaterThan(0n);
  });
});
