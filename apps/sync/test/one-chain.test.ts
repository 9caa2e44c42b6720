/**
 * One chain, one owner, end to end: a store that holds one devnet's chain is never followed by
 * another devnet's ledgers (sync stops, naming both hashes, and never says it is in sync), and an
 * upstream that never answers `ledger` costs seconds before a healthy endpoint stores the next
 * ledger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TxDetail } from '@ledger-node/contracts';
import { stopAll, waitUntil } from '@ledger-node/test-utils';
import { ForgingProxy } from './support/forging-proxy';
import { clientsFor, opened, scratchDir, serving, startDevnet, startLedgerStore, startStoreAndSync, startSync } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('a store that holds another chain than the upstream', () => {
  it("stops sync loudly, naming the ledger and both hashes; nothing of the other chain is stored, and it is not in sync", async () => {
    const first = await startDevnet(['-close_ms', '100', '-idle_close_ms', '100']);
    const dataDir = scratchDir(cleanups);
    const store = startLedgerStore(dataDir);
    await serving(store);
    await opened(store);
    const clients = clientsFor(dataDir);
    cleanups.push(() => clients.close());
    let sync = startSync(dataDir, first.url);
    await serving(sync);
    const before = await waitUntil(async () => {
      const status = await clients.sync.getSyncStatus({});
      return status.completeRanges.length === 1 && status.completeRanges[0]!.first === 1 && status.currentLedgerIndex >= 30 ? status : undefined;
    }, 60_000, 'ledgers 1-30 of the first devnet', 200);
    const identity = (await clients.store.getStatus({})).chainIdentity!;
    expect(identity.ledgerIndex).toBeGreaterThan(1);
    await sync.stop();
    await first.process.stop();

    // A new devnet: a new chain from genesis (its payments make its ledgers others than the first's
    // empty ones), with the same validators (public-entropy keys), behind the store.
    const second = await startDevnet(['-close_ms', '100', '-idle_close_ms', '100', '-load', '5', '-load_accounts', '3']);
    sync = startSync(dataDir, second.url);
    await serving(sync);
    const stopped = await waitUntil(async () => {
      const status = await clients.sync.getSyncStatus({});
      return status.stopped !== undefined ? status : undefined;
    }, 30_000, 'sync stopped', 200).catch((error: Error) => {
      throw new Error(`${error.message}\n${sync.output().split('\n').filter((line) => !line.includes('behind the upstream')).join('\n').slice(-6000)}`);
    });
    expect(stopped.stopped).toMatch(/^stored chain is not the upstream's: ledger (\d+) is ([0-9A-F]{64}) here and ([0-9A-F]{64}) there$/);
    const [, ledgerIndex, ours, theirs] = /ledger (\d+) is ([0-9A-F]{64}) here and ([0-9A-F]{64}) there/.exec(stopped.stopped!)!;
    const storedThere = await clients.store.getLedger({ ledger: { selector: { $case: 'index', index: Number(ledgerIndex) } }, txDetail: TxDetail.NONE });
    expect(Buffer.from(storedThere.ledger!.ledgerHash).toString('hex').toUpperCase()).toBe(ours);
    expect(theirs).not.toBe(ours);
    expect(stopped.syncing).toBe(true);
    expect(stopped.verificationFailuresByReason.foreign_chain).toBe(1n);
    // Nothing of the second chain is stored, while it runs on.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await clients.sync.getSyncStatus({});
    expect(after.completeRanges).toEqual(before.completeRanges.length === 1 ? [{ first: 1, last: after.completeRanges[0]!.last }] : after.completeRanges);
    expect(after.currentLedgerIndex).toBeLessThanOrEqual(before.currentLedgerIndex + 5);
    expect(after.stopped).toBe(stopped.stopped);
    expect(after.lagLedgers).toBeGreaterThan(0);
    expect((await clients.store.getStatus({})).chainIdentity).toEqual(identity);
  });
});

describe('an upstream that never answers ledger', () => {
  it('costs seconds, not three request timeouts: a healthy second endpoint stores the next ledgers', async () => {
    const devnet = await startDevnet(['-close_ms', '200', '-idle_close_ms', '200']);
    // The first endpoint streams and answers everything but a ledger with its transactions.
    const silent = await ForgingProxy.start(devnet.url, {
      onMessage: (message) => message.request?.command === 'ledger' && message.request.transactions === true,
    });
    cleanups.push(() => void silent.close());
    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, `${silent.url},${devnet.url}`, [], cleanups);
    // Each ledger waits the 4 s deadline at most on the silent endpoint, then comes from the other at
    // once (three unanswered requests in a row then leave the silent one): well inside three 20 s timeouts.
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.completeRanges.length > 0 && current.currentLedgerIndex - current.completeRanges[0]!.first >= 3 ? current : undefined;
    }, 25_000, 'ledgers stored through the second endpoint', 200);
    expect(status.verificationFailureCount).toBe(0n);
  });
});
