import { afterEach, describe, expect, it } from 'vitest';
import { stopAll, waitUntil } from '@ledger-node/test-utils';
import { scratchDir, startDevnet, startStoreAndSync, storedHeaders, WsClient } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('sync from a live devnet under load', () => {
  it('stores every ledger from genesis to the tip with exactly the header and hash the devnet serves', async () => {
    const devnet = await startDevnet(['-load', '20', '-load_accounts', '5', '-close_ms', '250']);
    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, devnet.url, ['-thread_count', '4'], cleanups);
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());

    // Let the load generator fill some ledgers while sync follows.
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      const range = current.completeRanges[0];
      return current.completeRanges.length === 1 && range!.first === 1 && range!.last >= 25 && !current.syncing ? current : undefined;
    }, 60_000, 'sync level with the devnet, genesis included', 200);
    const tip = status.currentLedgerIndex;
    expect(status.verificationFailureCount).toBe(0n);

    const headers = await storedHeaders(clients, 1, tip);
    expect(headers.map((header) => header.ledgerIndex)).toEqual(Array.from({ length: tip }, (_, position) => position + 1));
    let transactionCount = 0;
    for (const header of headers) {
      const served = await upstream.request('ledger', { ledger_index: header.ledgerIndex, binary: true, transactions: true, expand: false });
      expect(served.status).toBe('success');
      expect(header.ledgerHash.toString('hex').toUpperCase()).toBe(served.result.ledger_hash);
      expect(header.headerBlob.toString('hex').toUpperCase()).toBe(served.result.ledger.ledger_data.toUpperCase());
      expect(header.transactionCount).toBe(served.result.ledger.transactions.length);
      transactionCount += header.transactionCount;
    }
    // The load generator's payments are in the stored ledgers, not only empty closes.
    expect(transactionCount).toBeGreaterThan(20);
  });
});
