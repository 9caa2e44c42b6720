import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader } from '@ledger-node/chain';
import { stopAll, type RunningProcess, waitUntil } from '@ledger-node/test-utils';
import { clientsFor, scratchDir, serving, startDevnet, startLedgerStore, startSync, storedHeaders, WsClient, type Clients } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const randomMs = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

/** Ledgers stored so far. */
async function storedCount(clients: Clients): Promise<number> {
  const status = await clients.store.getStatus({});
  return Number(status.ledgerCount);
}

/** Kills happen while backfill is still under way: the stored chain does not reach genesis yet. */
async function expectBackfillUnderWay(clients: Clients): Promise<void> {
  const status = await clients.store.getStatus({});
  expect(status.lowestLedgerIndex).toBeGreaterThan(1);
}

describe('crash safety during backfill', () => {
  it('after kill -9 of sync and of ledger-store at random moments, restarts finish with no gap, no duplicate and an intact hash chain', async () => {
    const devnet = await startDevnet(['-load', '60', '-load_accounts', '5', '-close_ms', '20']);
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());
    // History to backfill: the devnet closes ledgers for a while before the node starts.
    await waitUntil(async () => {
      const closed = await upstream.request('ledger_closed');
      return closed.result.ledger_index >= 500 ? closed : undefined;
    }, 60_000, 'devnet history', 200);

    const dataDir = scratchDir(cleanups);
    const clients = clientsFor(dataDir);
    cleanups.push(() => clients.close());
    const syncArgs = ['-thread_count', '1'];
    let store: RunningProcess = startLedgerStore(dataDir);
    await serving(store);
    let sync: RunningProcess = startSync(dataDir, devnet.url, syncArgs);
    await serving(sync);

    const waitForProgress = async (beyond: number) =>
      waitUntil(async () => {
        const count = await storedCount(clients);
        return count > beyond ? count : undefined;
      }, 30_000, `backfill beyond ${beyond} ledgers`, 20);

    // 1. sync killed mid-backfill, then restarted.
    let count = await waitForProgress(5);
    await new Promise((resolve) => setTimeout(resolve, randomMs(0, 300)));
    await expectBackfillUnderWay(clients);
    await sync.stop('SIGKILL');
    sync = startSync(dataDir, devnet.url, syncArgs);
    await serving(sync);

    // 2. ledger-store killed mid-backfill (sync keeps running and retries), then restarted.
    count = await waitForProgress(count + 5);
    await new Promise((resolve) => setTimeout(resolve, randomMs(0, 300)));
    await expectBackfillUnderWay(clients);
    await store.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, randomMs(100, 600)));
    store = startLedgerStore(dataDir);
    await serving(store);

    // 3. both killed at once, then both restarted.
    count = await waitForProgress(count + 5);
    await new Promise((resolve) => setTimeout(resolve, randomMs(0, 300)));
    await expectBackfillUnderWay(clients);
    await Promise.all([sync.stop('SIGKILL'), store.stop('SIGKILL')]);
    store = startLedgerStore(dataDir);
    await serving(store);
    sync = startSync(dataDir, devnet.url, syncArgs);
    await serving(sync);

    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      const range = current.completeRanges[0];
      return current.completeRanges.length === 1 && range!.first === 1 && current.backfillRemainingLedgers === 0n && !current.syncing
        ? current
        : undefined;
    }, 90_000, 'backfill complete to genesis', 200);

    const storeStatus = await clients.store.getStatus({});
    const tip = status.currentLedgerIndex;
    expect(storeStatus.completeRanges).toEqual([{ first: 1, last: storeStatus.highestLedgerIndex }]);
    expect(storeStatus.ledgerCount).toBe(BigInt(storeStatus.highestLedgerIndex!));
    const headers = await storedHeaders(clients, 1, tip);
    expect(headers.map((header) => header.ledgerIndex)).toEqual(Array.from({ length: tip }, (_, position) => position + 1));
    for (let position = 1; position < headers.length; position++) {
      const parentHash = decodeLedgerHeader(headers[position]!.headerBlob).parentHash;
      expect(parentHash, `ledger ${headers[position]!.ledgerIndex} links to its parent`).toBe(headers[position - 1]!.ledgerHash.toString('hex').toUpperCase());
    }
    const servedTip = await upstream.request('ledger', { ledger_index: tip });
    expect(headers.at(-1)!.ledgerHash.toString('hex').toUpperCase()).toBe(servedTip.result.ledger_hash);
    expect(status.verificationFailureCount).toBe(0n);
  }, 180_000);
});
