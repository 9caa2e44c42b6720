import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getProfile, hashLedgerHeader, ledgerHeaderFromJson, transactionFromLedgerJson, transactionTreeRoot } from '@ledger-node/chain';
import { fixturesDir, freePort, stopAll, STORE_KINDS, storedHeaders, storeServer, waitUntil, type StoreUnderTest } from '@ledger-node/test-utils';
import { recordedLedgerFile, recordedRun } from './support/recorded-ledgers';
import { scratchDir, startDevnet, startStoreAndSync, storedLedger, type Clients } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A folder with the recorded run 11119599..11119604, one file optionally rewritten. */
function replayFolder(change?: { ledgerIndex: number; edit(file: Record<string, any>): void }): string {
  const folder = path.join(scratchDir(cleanups), 'replay');
  mkdirSync(folder);
  for (const ledgerIndex of recordedRun) {
    const source = path.join(fixturesDir(), 'xrpl/ledgers/mainnet', `${ledgerIndex}.json`);
    const target = path.join(folder, `${ledgerIndex}.json`);
    if (change?.ledgerIndex !== ledgerIndex) {
      copyFileSync(source, target);
      continue;
    }
    const file = JSON.parse(readFileSync(source, 'utf8'));
    change.edit(file);
    writeFileSync(target, JSON.stringify(file));
  }
  return folder;
}

async function syncFromReplay(folder: string, store: StoreUnderTest, extra: string[] = []): Promise<Clients & { syncOutput(): string }> {
  const devnet = await startDevnet(['-replay', folder, '-replay_rate', '5']);
  const dataDir = scratchDir(cleanups);
  const { clients, sync } = await startStoreAndSync(dataDir, devnet.url, ['-thread_count', '3', ...extra], cleanups, store);
  return Object.assign(clients, { syncOutput: () => sync.output() });
}

/** Observations per stage of sync's stage histogram (ledger_node_sync_stage_seconds_count), from its /metrics. */
async function stageObservations(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  return Object.fromEntries([...text.matchAll(/^ledger_node_sync_stage_seconds_count\{[^}]*stage="(\w+)"[^}]*\} (\d+)$/gm)].map(([, stage, count]) => [stage!, Number(count)]));
}

// The same run and the same forgeries on each ledger-store backend.
describe.each(STORE_KINDS)('on %s', (kind) => {
  const stores = storeServer(kind);
  afterAll(() => stores.stop());

  describe('sync from a replay of the recorded mainnet run 11119599..11119604', () => {
    it('stores every ledger with the recorded hashes, linked from the anchor 11119604 down to 11119599', async () => {
      // Sync serves /metrics on -metrics_port + 3 (libs/config observability.ts).
      const syncMetricsPort = await freePort();
      const clients = await syncFromReplay(replayFolder(), await stores.fresh(), ['-metrics_addr', '127.0.0.1', '-metrics_port', String(syncMetricsPort - 3)]);
      const status = await waitUntil(async () => {
        const current = await clients.sync.getSyncStatus({});
        return current.completeRanges.length === 1 && current.completeRanges[0]!.first === 11119599 ? current : undefined;
      }, 30_000, 'the whole run stored');
      expect(status).toMatchObject({
        syncing: false,
        currentLedgerIndex: 11119604,
        highestLedgerIndex: 11119604,
        completeRanges: [{ first: 11119599, last: 11119604 }],
        verificationFailureCount: 0n,
        backfillRemainingLedgers: 0n,
        upstreamConnected: true,
      });
      const headers = await storedHeaders(clients.store, 11119599, 11119604);
      expect(headers.map((header) => [header.ledgerIndex, header.ledgerHash.toString('hex').toUpperCase()])).toEqual(
        recordedRun.map((ledgerIndex) => [ledgerIndex, recordedLedgerFile(ledgerIndex).ledger_hash]),
      );
      const ledger = await storedLedger(clients, 11119603);
      expect(ledger?.transactionHashes.map((hash) => hash.toString('hex').toUpperCase()).sort()).toEqual(
        recordedLedgerFile(11119603).ledger.transactions.map((tx) => tx.hash as string).sort(),
      );
      expect((await clients.store.getStatus({})).completeRanges).toEqual([{ first: 11119599, last: 11119604 }]);
      // Each stage of the backfill and follow path timed each ledger (the replay serves no state: no `state` stage).
      const observations = await stageObservations(`http://127.0.0.1:${syncMetricsPort}/metrics`);
      for (const stage of ['fetch', 'parse', 'verify', 'link', 'index', 'grpc']) expect(observations[stage], stage).toBeGreaterThanOrEqual(stage === 'link' ? 5 : 6);
      // The replay holds no state and refuses ledger_data, again at every retry: warned once, with its reason and no stack.
      await waitUntil(() => clients.syncOutput().includes('state download: ') || undefined, 30_000, 'the state download to fail', 200);
      // Its retries come after 0.5, 1 and 2 s: three more failures within four seconds.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const warnings = clients.syncOutput().split('\n').filter((line) => line.includes('"level":"warn"') && line.includes('state download'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).not.toContain('"stack"');
    });

    it.each([
      [
        'one transaction with its Fee changed',
        (file: Record<string, any>) => {
          const tx = file.ledger.transactions[0];
          tx.Fee = String(BigInt(tx.Fee) + 1n);
        },
        'transaction_tree_mismatch',
      ],
      [
        'a transaction listed twice, the extra copy first with forged metadata',
        (file: Record<string, any>) => {
          const real = file.ledger.transactions[1];
          file.ledger.transactions.unshift({ ...real, metaData: { ...real.metaData, TransactionResult: 'tecPATH_DRY' } });
        },
        'duplicate_transaction',
      ],
      [
        'a wrong parent_hash (the ledger_hash recomputed, so the header is self-consistent)',
        (file: Record<string, any>) => {
          file.ledger.parent_hash = 'AB'.repeat(32);
          const rehashed = hashLedgerHeader(ledgerHeaderFromJson(file.ledger));
          file.ledger.ledger_hash = rehashed;
          file.ledger_hash = rehashed;
        },
        'child_link_mismatch',
      ],
      [
        'a wrong parent_hash (the recorded ledger_hash kept)',
        (file: Record<string, any>) => {
          file.ledger.parent_hash = 'CD'.repeat(32);
        },
        'header_hash_mismatch',
      ],
    ])('never stores ledger 11119602 served with %s, nor anything below it, and counts the failure by its reason', async (_label, edit, reason) => {
      const clients = await syncFromReplay(replayFolder({ ledgerIndex: 11119602, edit }), await stores.fresh());
      const rejected = await waitUntil(async () => {
        const current = await clients.sync.getSyncStatus({});
        return current.verificationFailureCount >= 1n && current.completeRanges[0]?.first === 11119603 ? current : undefined;
      }, 30_000, 'the ledgers above the tampered one stored and the tampered one rejected');
      // Fetched again and rejected again: a rejected ledger is retried, never stored.
      const status = await waitUntil(async () => {
        const current = await clients.sync.getSyncStatus({});
        return current.verificationFailureCount > rejected.verificationFailureCount ? current : undefined;
      }, 30_000, 'the tampered ledger refetched and rejected again');
      expect(status.completeRanges).toEqual([{ first: 11119603, last: 11119604 }]);
      expect(status.verificationFailuresByReason[reason]).toBe(status.verificationFailureCount);
      expect(await storedLedger(clients, 11119602)).toBeUndefined();
      expect(await storedLedger(clients, 11119601)).toBeUndefined();
      expect((await clients.store.getStatus({})).completeRanges).toEqual([{ first: 11119603, last: 11119604 }]);
      expect((await storedLedger(clients, 11119603))?.ledgerHash.toString('hex').toUpperCase()).toBe(recordedLedgerFile(11119603).ledger_hash);
    });
  });

  describe('a verified ledger holding a transaction the node cannot index', () => {
    it('is stored whole; the failure is counted and told in the status; sync goes on below it', async () => {
      const profile = getProfile('xrpl');
      let brokenHash = '';
      // The anchor 11119604 with one transaction's metadata lacking TransactionResult, its tree and header
      // recomputed: self-consistent, so it verifies, but indexing that transaction fails.
      const folder = replayFolder({
        ledgerIndex: 11119604,
        edit(file) {
          const tx = file.ledger.transactions[2];
          delete tx.metaData.TransactionResult;
          brokenHash = tx.hash;
          file.ledger.transaction_hash = transactionTreeRoot(file.ledger.transactions.map((recorded: Record<string, any>) => transactionFromLedgerJson(recorded, profile)));
          const rehashed = hashLedgerHeader(ledgerHeaderFromJson(file.ledger));
          file.ledger.ledger_hash = rehashed;
          file.ledger_hash = rehashed;
        },
      });
      const clients = await syncFromReplay(folder, await stores.fresh());
      const status = await waitUntil(async () => {
        const current = await clients.sync.getSyncStatus({});
        return current.completeRanges[0]?.first === 11119599 ? current : undefined;
      }, 30_000, 'the whole run stored, the broken anchor included');
      expect(status).toMatchObject({ completeRanges: [{ first: 11119599, last: 11119604 }], indexFailureCount: 1n, verificationFailureCount: 0n });
      expect(status.lastIndexFailure).toBe(`ledger 11119604, transaction ${brokenHash}: the metadata has no TransactionResult`);
      expect(status.stopped).toBeUndefined();
      const anchor = await storedLedger(clients, 11119604);
      expect(anchor?.transactionHashes.map((hash) => hash.toString('hex').toUpperCase())).toContain(brokenHash);
      expect(anchor?.transactionHashes).toHaveLength(recordedLedgerFile(11119604).ledger.transactions.length);
    });
  });
});
