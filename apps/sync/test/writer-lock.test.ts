/**
 * One sync per PostgreSQL database (DESIGN §11, issue 19): given -store postgres://…, sync follows
 * and backfills only while it holds the database's 'sync' writer lock; a second sync is a standby
 * that connects to no upstream, stores nothing, says so in its status and health, and takes over
 * when the holder dies.
 *
 * Both syncs write through one ledger-store, the database's writer: a ledger-store of their own each
 * would make the second ledger-store a standby too (it has its own writer lock), refusing every
 * write whatever sync does. One ledger-store leaves the sync lock the only thing under test.
 */
import { writeFileSync } from 'node:fs';
import { createServer, createConnection, type Server, type Socket } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SyncServiceService } from '@ledger-node/contracts';
import { checkHealth, createGrpcClient } from '@ledger-node/grpc';
import { describeDatabase, lockHolder } from '@ledger-node/postgres';
import { cliEntry, devnetValidatorsFile, freePort, printFigures, startProcess, stopAll, storeServer, waitUntil, type RunningProcess } from '@ledger-node/test-utils';
import { standbyReason } from '../src/writer-lock';
import { clientsFor, scratchDir, serving, startDevnet, startLedgerStore } from './support/cluster';

const cleanups: (() => Promise<unknown> | void)[] = [];
const processes: RunningProcess[] = [];
afterEach(async () => {
  // Every process this test started is stopped by its pid, whatever the test's outcome.
  await Promise.all(processes.splice(0).map((running) => running.stop('SIGKILL', 1_000)));
  await stopAll();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stores = storeServer('postgres');
afterAll(() => stores.stop());

/** A TCP proxy to the devnet that counts the connections made through it: a standby must make none. */
async function countingProxy(targetUrl: string): Promise<{ url: string; connections: () => number }> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    connections++;
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `ws://127.0.0.1:${port}`, connections: () => connections };
}

/** `ledger-node serve sync` on `dataDir`, writing through the ledger-store of `storeDir`, with -store and the given password source. */
function startSyncOn(dataDir: string, storeDir: string, endpoint: string, store: string[], env: Record<string, string> = {}): RunningProcess {
  const sync = startProcess(
    [cliEntry(), 'serve', 'sync', '-data_dir', dataDir, '-ledger_store_addr', `unix:${storeDir}/run/ledger-store.sock`, '-endpoint', endpoint, '-validators', devnetValidatorsFile(dataDir), ...store],
    { env },
  );
  processes.push(sync);
  return sync;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('sync on a PostgreSQL store (-store): one writer elected with the database lock', () => {
  it('a second sync is a standby that connects nowhere and stores nothing; SIGKILL the first and it takes over within seconds, the store growing with no gap; a lost lock stops it with exit 1', async () => {
    const devnet = await startDevnet(['-load', '10', '-load_accounts', '3', '-close_ms', '250']);
    processes.push(devnet.process);
    const storeUnderTest = await stores.fresh();
    const password = storeUnderTest.env.PGPASSWORD!;
    const url = storeUnderTest.flags[1]!;
    const location = describeDatabase(url);

    // The ledger-store (the database's writer) and the first sync share a data directory; the first sync reads its password from PGPASSWORD.
    const firstDir = scratchDir(cleanups);
    const ledgerStore = startLedgerStore(firstDir, storeUnderTest);
    processes.push(ledgerStore);
    await serving(ledgerStore);
    await ledgerStore.waitFor(new RegExp(`"database":"${escape(location)}","role":"writer".*database open as its writer`));
    const first = startSyncOn(firstDir, firstDir, devnet.url, ['-store', url], { PGPASSWORD: password });
    await first.waitFor(new RegExp(`writer: holds the sync writer lock on ${escape(location)} \\(primary [^)]+\\); following and backfilling from now on`));
    await serving(first);
    const clients = clientsFor(firstDir);
    cleanups.push(() => clients.close());
    await waitUntil(async () => ((await clients.store.getStatus({})).completeRanges[0]?.last ?? 0) >= 5 || undefined, 30_000, 'the first sync to store ledgers', 100);

    // The second sync: its own data directory, its password from -store_password_file, its upstream through a counting proxy.
    const secondDir = scratchDir(cleanups);
    const passwordFile = path.join(secondDir, 'pgpassword');
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    const proxy = await countingProxy(devnet.url);
    const second = startSyncOn(secondDir, firstDir, proxy.url, ['-store', url, '-store_password_file', passwordFile]);
    await second.waitFor(new RegExp(`standby: another sync service holds the sync writer lock on ${escape(location)} \\(server pid \\d+ from 127\\.0\\.0\\.1\\); waiting to take over`));
    await serving(second);
    const secondAddress = `unix:${secondDir}/run/sync.sock`;
    const secondSync = createGrpcClient(SyncServiceService, secondAddress, { deadlineMs: 10_000, serviceLabel: 'sync' });
    cleanups.push(() => secondSync.close());
    expect(await secondSync.getSyncStatus({})).toMatchObject({ standby: standbyReason(location), upstreamConnected: false, currentLedgerIndex: 0, completeRanges: [] });
    expect((await clients.sync.getSyncStatus({})).standby).toBeUndefined();
    await waitUntil(async () => (await checkHealth(secondAddress)) === 'NOT_SERVING' || undefined, 10_000, 'the standby to report not serving', 100);
    // While the first sync keeps storing, the standby never reaches the upstream: it cannot have fetched, let alone stored, a ledger.
    const whileStandby = (await clients.store.getStatus({})).completeRanges[0]!.last;
    await waitUntil(async () => ((await clients.store.getStatus({})).completeRanges[0]!.last >= whileStandby + 4) || undefined, 20_000, 'the first sync to store more', 100);
    expect(proxy.connections()).toBe(0);
    expect(second.output()).not.toMatch(/connecting upstream|writer: holds/);

    const beforeKill = await clients.store.getStatus({});
    expect(beforeKill.completeRanges).toHaveLength(1);
    const killedAt = Date.now();
    await first.stop('SIGKILL');
    await second.waitFor(new RegExp(`writer: holds the sync writer lock on ${escape(location)} \\(primary [^)]+\\); following and backfilling from now on`), 10_000);
    const tookOverMs = Date.now() - killedAt;
    expect(tookOverMs).toBeLessThan(5_000);
    printFigures('sync-takeover', { took_over_ms: tookOverMs });

    // The store keeps growing from where the first sync left it, in one range: no gap.
    const grown = await waitUntil(
      async () => {
        const status = await clients.store.getStatus({});
        return status.completeRanges.length === 1 && status.completeRanges[0]!.last >= beforeKill.completeRanges[0]!.last + 5 ? status : undefined;
      },
      30_000,
      'the new writer to store ledgers',
      100,
    );
    expect(grown.completeRanges[0]!.first).toBe(beforeKill.completeRanges[0]!.first);
    expect(proxy.connections()).toBeGreaterThan(0);
    const status = await secondSync.getSyncStatus({});
    expect(status.standby).toBeUndefined();
    expect(status.upstreamConnected).toBe(true);
    await waitUntil(async () => (await checkHealth(secondAddress)) === 'SERVING' || undefined, 10_000, 'the new writer to report serving', 100);

    // The lock's session ended under it: it stops at once, with exit 1, saying why.
    const sql = new pg.Client({ host: '127.0.0.1', port: Number(new URL(url).port), user: new URL(url).username, password, database: new URL(url).pathname.slice(1) });
    await sql.connect();
    cleanups.push(() => sql.end());
    const holder = await waitUntil(() => lockHolder(sql, 'sync'), 5_000, 'the sync lock holder to show');
    await sql.query('SELECT pg_terminate_backend($1)', [holder.pid]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `lost the sync writer lock on ${location}: terminating connection due to administrator command; stopping so as not to write without the lock (a restart waits as a standby)`,
    );

    for (const output of [devnet.process.output(), ledgerStore.output(), first.output(), second.output()]) expect(output).not.toContain(password);
  });
});
