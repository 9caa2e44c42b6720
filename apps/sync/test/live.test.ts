import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeLedgerHeader, encodeLedgerHeader, encodeNodePublicKey, getProfile, hashLedgerHeader, verifyLedger } from '@ledger-node/chain';
import { fixturesDir, stopAll, STORE_KINDS, storedHeaders, storeServer, waitUntil } from '@ledger-node/test-utils';
import { createLogger } from '@ledger-node/telemetry';
import { ledgerWriteOf } from '../src/index/ledger-write';
import { SyncHealth } from '../src/sync-health';
import { clientsFor, opened, scratchDir, serving, startDevnet, startLedgerStore, startStoreAndSync, startSync, WsClient } from './support/cluster';
import { TcpProxy } from '@ledger-node/test-utils';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

// Following, storing and replacing ledgers on each ledger-store backend.
describe.each(STORE_KINDS)('on %s', (kind) => {
  const stores = storeServer(kind);
  afterAll(() => stores.stop());

  describe('sync from a live devnet under load', () => {
    it('stores every ledger from genesis to the tip with exactly the header and hash the devnet serves', async () => {
      const devnet = await startDevnet(['-load', '20', '-load_accounts', '5', '-close_ms', '250']);
      const dataDir = scratchDir(cleanups);
      const { clients } = await startStoreAndSync(dataDir, devnet.url, ['-thread_count', '4'], cleanups, await stores.fresh());
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

      const headers = await storedHeaders(clients.store, 1, tip);
      expect(headers.map((header) => header.ledgerIndex)).toEqual(Array.from({ length: tip }, (_, position) => position + 1));
      let transactionCount = 0;
      for (const header of headers) {
        const served = await upstream.request('ledger', { ledger_index: header.ledgerIndex, binary: true, transactions: true, expand: false });
        expect(served.status).toBe('success');
        expect(header.ledgerHash.toString('hex').toUpperCase()).toBe(served.result.ledger_hash);
        // The client decodes the header from the answer's hex.
        expect(header.headerBlob.toString('hex')).toBe(served.result.ledger.ledger_data.toString('hex'));
        expect(header.transactionCount).toBe(served.result.ledger.transactions.length);
        transactionCount += header.transactionCount;
      }
      // The load generator's payments are in the stored ledgers, not only empty closes.
      expect(transactionCount).toBeGreaterThan(20);
    });
  });

  describe('a stored ledger that is not the network\'s', () => {
    it('is found when the proven chain reaches it, removed and fetched again: the store ends equal to the devnet', async () => {
      const devnet = await startDevnet(['-load', '10', '-load_accounts', '4', '-close_ms', '200']);
      const upstream = await WsClient.open(devnet.url);
      cleanups.push(() => upstream.close());
      await waitUntil(async () => ((await upstream.request('ledger_closed')).result.ledger_index >= 15 ? true : undefined), 60_000, 'devnet history', 200);

      // Ledger 10 as a forger would have had it stored: its close time moved, the header re-hashed.
      const served = await upstream.request('ledger', { ledger_index: 10, binary: true, transactions: true, expand: true });
      const header = decodeLedgerHeader(served.result.ledger.ledger_data);
      const forgedHeader = { ...header, closeTime: header.closeTime + 10 };
      const forged = verifyLedger({
        ledgerIndex: 10,
        headerBlob: encodeLedgerHeader(forgedHeader),
        ledgerHash: hashLedgerHeader(forgedHeader),
        transactions: served.result.ledger.transactions.map((tx: { tx_blob: Buffer; meta: Buffer }) => ({ txBlob: tx.tx_blob, metaBlob: tx.meta })),
      });
      if (!forged.ok) throw new Error(forged.failure.message);
      const dataDir = scratchDir(cleanups);
      const store = await stores.fresh();
      const storeProcess = startLedgerStore(dataDir, store);
      await serving(storeProcess);
      await opened(storeProcess, store);
      const clients = clientsFor(dataDir);
      cleanups.push(() => clients.close());
      const profile = getProfile('xrpl');
      // The store's first ledger (its chain identity) is the devnet's ledger 5, as a proven anchor would be; then the forgery.
      const real5 = await upstream.request('ledger', { ledger_index: 5, binary: true, transactions: true, expand: true });
      const anchor = verifyLedger({
        ledgerIndex: 5,
        headerBlob: real5.result.ledger.ledger_data,
        ledgerHash: real5.result.ledger_hash,
        transactions: real5.result.ledger.transactions.map((tx: { tx_blob: Buffer; meta: Buffer }) => ({ txBlob: tx.tx_blob, metaBlob: tx.meta })),
      });
      if (!anchor.ok) throw new Error(anchor.failure.message);
      const health = new SyncHealth(createLogger('sync', 'silent'));
      await clients.store.putLedgers({ ledgers: [ledgerWriteOf(anchor.ledger, profile, health)] });
      await clients.store.putLedgers({ ledgers: [ledgerWriteOf(forged.ledger, profile, health)] });

      await serving(startSync(dataDir, devnet.url, ['-thread_count', '2']));
      const status = await waitUntil(async () => {
        const current = await clients.sync.getSyncStatus({});
        const range = current.completeRanges[0];
        return current.completeRanges.length === 1 && range!.first === 1 && range!.last >= 20 ? current : undefined;
      }, 60_000, 'one range from genesis', 200);
      expect(status.verificationFailuresByReason.stored_ledger_unproven).toBe(1n);
      for (const stored of await storedHeaders(clients.store, 1, status.completeRanges[0]!.last)) {
        const hash = (await upstream.request('ledger', { ledger_index: stored.ledgerIndex })).result.ledger_hash;
        expect([stored.ledgerIndex, stored.ledgerHash.toString('hex').toUpperCase()]).toEqual([stored.ledgerIndex, hash]);
      }
    });
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
    ['no list and a single endpoint', () => ['-validator_list_keys', 'none'], /not proven: nothing proves a ledger with no validator list, no -validators key and a single -endpoint/],
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

describe('an anchor proven by endpoints that agree (nothing trusted)', () => {
  /** A folder holding the recorded mainnet run 11119599..11119604. */
  function recordedRunFolder(): string {
    const folder = path.join(scratchDir(cleanups), 'replay');
    mkdirSync(folder);
    for (const ledgerIndex of [11119599, 11119600, 11119601, 11119602, 11119603, 11119604]) copyFileSync(path.join(fixturesDir(), 'xrpl/ledgers/mainnet', `${ledgerIndex}.json`), path.join(folder, `${ledgerIndex}.json`));
    return folder;
  }

  it('anchors once two servers (two replays of one recorded run) name the same ledger', async () => {
    const folder = recordedRunFolder();
    const [first, second] = await Promise.all([startDevnet(['-replay', folder, '-replay_rate', '5']), startDevnet(['-replay', folder, '-replay_rate', '5'])]);
    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, `${first.url},${second.url}`, ['-validator_list_keys', 'none'], cleanups);
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return current.completeRanges.length > 0 ? current : undefined;
    }, 30_000, 'anchored', 200);
    expect(status.anchorProof).toMatch(/^ledger \d+ named by 2 servers of 2 endpoints \(no validator list is configured\)$/);
  });

  it('proves nothing from one server named twice: a second spelling and a proxy in front of it', async () => {
    const devnet = await startDevnet(['-close_ms', '200']);
    const devnetUrl = new URL(devnet.url);
    const proxy = await TcpProxy.start(devnetUrl.hostname, Number(devnetUrl.port));
    cleanups.push(() => proxy.close());
    const dataDir = scratchDir(cleanups);
    const endpoints = [devnet.url, `${devnet.url}/`, `ws://localhost:${devnetUrl.port}`, `ws://127.0.0.1:${proxy.port}`].join(',');
    const { clients } = await startStoreAndSync(dataDir, endpoints, ['-validator_list_keys', 'none'], cleanups);
    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      return /not proven/.test(current.anchorProof) ? current : undefined;
    }, 30_000, 'the anchor refused', 200);
    expect(status.anchorProof).toMatch(/not proven: named by 1 of the 2 servers needed, another hash by 0 endpoint\(s\); [23] endpoints named it, but they are one server$/);
    expect((await clients.store.getStatus({})).completeRanges).toEqual([]);
  });
});
