import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeNodePublicKey, getProfile } from '@ledger-node/chain';
import { stopAll, waitUntil } from '@ledger-node/test-utils';
import { scratchDir, startDevnet, startStoreAndSync, storedHeaders, WsClient } from './support/cluster';
import { TcpProxy } from './support/tcp-proxy';

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

describe('an anchor the configured trust cannot prove', () => {
  const xrpl = getProfile('xrpl');

  it.each([
    ['a -validators list naming another key', (dataDir: string) => {
      const other = xrpl.keys.deriveKeypair(xrpl.keys.generateSeed({ entropy: new Uint8Array(16).fill(9) }));
      const file = path.join(dataDir, 'others.txt');
      writeFileSync(file, `${encodeNodePublicKey(other.publicKey, xrpl)}\n`);
      return ['-validators', file];
    }, /not proven: 0 of the 1 trusted validations needed came/],
    ['no list and a single endpoint', () => ['-validators='], /not proven: nothing proves an anchor with no -validators list and a single -endpoint/],
  ])('stores nothing with %s, and says why in the status', async (_what, trust, reason) => {
    const devnet = await startDevnet(['-close_ms', '200']);
    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, devnet.url, trust(dataDir), cleanups);
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return reason.test(current.anchorProof) ? current : undefined;
    }, 30_000, 'the anchor refused', 200);
    expect(status.completeRanges).toEqual([]);
    expect((await clients.store.getStatus({})).completeRanges).toEqual([]);
  });
});

describe('an anchor proven by endpoints that agree', () => {
  it('with no -validators list, anchors once two endpoints (the devnet and a proxy to it) name the same ledger', async () => {
    const devnet = await startDevnet(['-close_ms', '200']);
    const devnetUrl = new URL(devnet.url);
    const proxy = await TcpProxy.start(devnetUrl.hostname, Number(devnetUrl.port));
    cleanups.push(() => proxy.close());
    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, `${devnet.url},ws://127.0.0.1:${proxy.port}`, ['-validators='], cleanups);
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.completeRanges.length > 0 ? current : undefined;
    }, 30_000, 'anchored', 200);
    expect(status.anchorProof).toMatch(/^ledger \d+ named by 2 of 2 endpoints$/);
  });
});
