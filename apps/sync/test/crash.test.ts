/**
 * Crash safety, as figures: sync, ledger-store or both are killed with SIGKILL at random moments
 * (from a printed seed) while sync backfills and follows a devnet under load, and restarted; 20
 * times in `npm test`, 200 under `npm run soak`. Afterwards the store must hold one complete range
 * from genesis to the tip with every hash link intact: gaps, broken links and failed restarts must
 * be 0. Printed: `figures crash-safety: …` with the time from a kill to the next ledger stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader } from '@ledger-node/chain';
import { printFigures, quantile, runSeed, seededRandom, soaking, stopAll, storedHeaders, type RunningProcess, waitUntil } from '@ledger-node/test-utils';
import { clientsFor, scratchDir, serving, startDevnet, startLedgerStore, startSync, WsClient, type Clients } from './support/cluster';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const KILLS = soaking() ? 200 : 20;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ledgers stored so far. */
async function storedCount(clients: Clients): Promise<number> {
  const status = await clients.store.getStatus({});
  return Number(status.ledgerCount);
}

describe('crash safety during backfill and live follow', () => {
  it(`after ${KILLS} kills of sync, ledger-store or both at random moments, the store has no gap, no broken link and every restart succeeded`, async () => {
    const seed = runSeed('crash-safety');
    const random = seededRandom(seed);
    const between = (low: number, high: number) => low + Math.floor(random() * (high - low));

    // History to backfill: 500 ledgers built before the devnet listens, then closes under load.
    const devnet = await startDevnet(['-load', '60', '-load_accounts', '5', '-close_ms', '20'], '500x3');
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());

    const dataDir = scratchDir(cleanups);
    const clients = clientsFor(dataDir);
    cleanups.push(() => clients.close());
    const syncArgs = ['-thread_count', '1'];
    let store: RunningProcess = startLedgerStore(dataDir);
    await serving(store);
    let sync: RunningProcess = startSync(dataDir, devnet.url, syncArgs);
    await serving(sync);
    await waitUntil(async () => ((await storedCount(clients)) > 5 ? true : undefined), 30_000, 'first ledgers stored', 20);

    let failedRestarts = 0;
    const recoveriesMs: number[] = [];
    const killed = { sync: 0, 'ledger-store': 0, both: 0 };
    for (let kill = 0; kill < KILLS; kill++) {
      await pause(between(0, 400));
      const before = await storedCount(clients);
      const target = (['sync', 'ledger-store', 'both'] as const)[Math.floor(random() * 3)]!;
      killed[target]++;
      const killedAt = Date.now();
      if (target !== 'ledger-store') await sync.stop('SIGKILL');
      if (target !== 'sync') {
        await store.stop('SIGKILL');
        // Sync (when it runs) keeps retrying while the store is down.
        await pause(between(0, 500));
        store = startLedgerStore(dataDir);
      }
      if (target !== 'ledger-store') sync = startSync(dataDir, devnet.url, syncArgs);
      try {
        if (target !== 'sync') await serving(store);
        if (target !== 'ledger-store') await serving(sync);
        await waitUntil(async () => ((await storedCount(clients)) > before ? true : undefined), 30_000, 'a ledger stored after the restart', 20);
        recoveriesMs.push(Date.now() - killedAt);
      } catch {
        failedRestarts++;
      }
    }

    const status = await waitUntil(async () => {
      const current = await clients.sync.getSyncStatus({});
      const range = current.completeRanges[0];
      return current.completeRanges.length === 1 && range!.first === 1 && current.backfillRemainingLedgers === 0n && !current.syncing ? current : undefined;
    }, 120_000, 'backfill complete to genesis', 200);
    const storeStatus = await clients.store.getStatus({});
    const tip = storeStatus.highestLedgerIndex!;
    const headers = await storedHeaders(clients.store, 1, tip);
    const gaps = tip - headers.length;
    let brokenLinks = 0;
    for (let position = 1; position < headers.length; position++) {
      if (decodeLedgerHeader(headers[position]!.headerBlob).parentHash !== headers[position - 1]!.ledgerHash.toString('hex').toUpperCase()) brokenLinks++;
    }
    const servedTip = await upstream.request('ledger', { ledger_index: tip });
    const wrongTip = headers.at(-1)!.ledgerHash.toString('hex').toUpperCase() === servedTip.result.ledger_hash ? 0 : 1;
    printFigures('crash-safety', {
      seed,
      kills: KILLS,
      sync_kills: killed.sync,
      store_kills: killed['ledger-store'],
      both_kills: killed.both,
      ledgers: tip,
      gaps,
      broken_links: brokenLinks,
      wrong_tip: wrongTip,
      failed_restarts: failedRestarts,
      verification_failures: Number(status.verificationFailureCount),
      recover_p50_ms: quantile(recoveriesMs, 0.5),
      recover_p99_ms: quantile(recoveriesMs, 0.99),
    });
    expect({ gaps, brokenLinks, wrongTip, failedRestarts, ranges: storeStatus.completeRanges }).toEqual({
      gaps: 0,
      brokenLinks: 0,
      wrongTip: 0,
      failedRestarts: 0,
      ranges: [{ first: 1, last: tip }],
    });
  }, soaking() ? 3_600_000 : 600_000);
});
