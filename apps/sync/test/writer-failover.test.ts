/**
 * Two nodes on one PostgreSQL database, each a ledger-store and a sync of its own, each process
 * restarted when it exits (as the supervisor or Kubernetes does): one pair writes, the other waits.
 * Whatever of the writing pair dies — its ledger-store alone, its sync alone, or both — a ledger
 * is stored again within seconds, by whichever pair can, and the stored ledgers keep one range.
 * A sync whose ledger-store is a standby gives the sync lock up instead of holding it while it can
 * store nothing (writer-lock.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StoreRole } from '@ledger-node/contracts';
import { describeDatabase } from '@ledger-node/postgres';
import { printFigures, storeServer, waitUntil } from '@ledger-node/test-utils';
import { storeNotWritingReason } from '../src/writer-lock';
import { clientsFor, scratchDir, serving, startDevnet, startLedgerStore, startSync } from './support/cluster';
import { Supervised, stoppedAfterEach } from './support/supervised';

// Every process a test starts is stopped by its pid after it, whatever its outcome.
const { cleanups, supervised } = stoppedAfterEach();

const stores = storeServer('postgres');
afterAll(() => stores.stop());

describe('two nodes on one PostgreSQL database', () => {
  it('store again within seconds after the writing node loses its ledger-store, its sync, or both, and keep one range', { timeout: 240_000 }, async () => {
    const devnet = await startDevnet(['-load', '10', '-load_accounts', '3', '-close_ms', '250']);
    const database = await stores.fresh();
    const location = describeDatabase(database.flags[1]!);
    const nodes = ['a', 'b'].map(() => scratchDir(cleanups as (() => void)[]));
    const pair = (dir: string) => {
      const store = new Supervised(() => startLedgerStore(dir, database));
      supervised.push(store);
      const sync = new Supervised(() => startSync(dir, devnet.url, [...database.flags], database.env));
      supervised.push(sync);
      const clients = clientsFor(dir);
      cleanups.push(() => clients.close());
      return { dir, store, sync, clients };
    };
    const a = pair(nodes[0]!);
    await serving(a.store.current);
    await a.store.current.waitFor(/database open as its writer/);
    await waitUntil(async () => ((await a.clients.store.getStatus({})).completeRanges[0]?.last ?? 0) >= 3 || undefined, 60_000, 'node a to store ledgers', 100);
    const b = pair(nodes[1]!);
    await serving(b.store.current);
    // Node b's ledger-store is a standby, so its sync does not even contend for the sync lock.
    await waitUntil(async () => (await b.clients.sync.getSyncStatus({}).catch(() => undefined))?.standby?.startsWith('standby: this sync') || undefined, 30_000, "node b's sync to wait for its ledger-store", 200);
    expect((await b.clients.sync.getSyncStatus({})).standby).toBe(storeNotWritingReason((await b.clients.store.getStatus({})).roleDetail));

    /** The stored ranges as any live ledger-store reads them (each serves reads, whatever its role). */
    const storedRanges = async (): Promise<{ first: number; last: number }[] | undefined> => {
      for (const node of [a, b]) {
        const status = await node.clients.store.getStatus({}).catch(() => undefined);
        if (status !== undefined && status.completeRanges.length > 0) return status.completeRanges;
      }
      return undefined;
    };
    /** The pair whose ledger-store writes the database now. */
    const writing = () =>
      waitUntil(
        async () => {
          for (const node of [a, b]) if ((await node.clients.store.getStatus({}).catch(() => undefined))?.role === StoreRole.WRITER) return node;
          return undefined;
        },
        30_000,
        'a ledger-store to write',
        100,
      );
    const figures: Record<string, number> = {};
    /** Kills, then waits for a ledger stored after the kill; the time it took is a figure. */
    const round = async (name: string, kill: (writer: typeof a) => Promise<unknown>) => {
      const writer = await writing();
      const before = (await storedRanges())!.at(-1)!.last;
      const killedAt = Date.now();
      await kill(writer);
      await waitUntil(async () => ((await storedRanges())?.at(-1)?.last ?? 0) > before + 1 || undefined, 60_000, `a ledger stored after ${name}`, 100);
      figures[`${name}_to_next_ledger_ms`] = Date.now() - killedAt;
    };

    // 1. The writer's ledger-store alone, back once the other has taken the database: back as a
    //    standby beside a sync that still holds the sync lock. That sync gives the lock up, and the
    //    sync beside the new writer takes it and stores.
    const firstWriter = await writing();
    const other = firstWriter === a ? b : a;
    const otherWrites = () => waitUntil(async () => (await other.clients.store.getStatus({}).catch(() => undefined))?.role === StoreRole.WRITER || undefined, 30_000, 'the other ledger-store to take the database', 100);
    await round('writer_store_killed', (writer) => writer.store.kill(otherWrites));
    expect(firstWriter.sync.output()).toContain("this sync's ledger-store no longer writes");
    // 2. The writer's sync alone: a sync whose ledger-store writes takes the lock again.
    await round('writer_sync_killed', (writer) => writer.sync.kill());
    // 3. Both of the writer's: the other ledger-store takes the database, and its sync the lock.
    await round('writer_store_and_sync_killed', (writer) => Promise.all([writer.store.kill(), writer.sync.kill()]));
    const syncOutputs = a.sync.output() + b.sync.output();

    // No gap: the ledgers stored across the three rounds make one range.
    // (a sync that takes over follows the upstream's tip first and backfills what it missed).
    const ranges = await waitUntil(async () => ((await storedRanges())?.length === 1 ? storedRanges() : undefined), 90_000, 'the stored ledgers to make one range');
    expect(ranges![0]!.first).toBe(1);
    printFigures('writer-failover', figures);
    for (const each of [a.store, a.sync, b.store, b.sync]) expect(each.output()).not.toContain(database.env.PGPASSWORD!);
    expect(syncOutputs).toContain(`holds the sync writer lock on ${location}`);
  });
});
