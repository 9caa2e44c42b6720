/**
 * The database itself fails over: a node (a ledger-store and a sync, each restarted when it exits,
 * as the supervisor restarts them) stores into a PostgreSQL primary that a streaming standby
 * replicates, both hosts in its -store URL. The primary is killed outright (SIGKILL of its
 * postmaster, as a machine that dies) and the standby promoted, as an HA manager does: the node
 * finds the new primary among its hosts, wins its writer locks again there, stores the next
 * ledger there within seconds, re-stores the ledgers the standby had not received (its replication
 * is cut for a few ledgers before the primary dies), and its ranges and state verify against what
 * the new primary holds.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { StoreRole } from '@ledger-node/contracts';
import { asSuperuser, cliEntry, freePort, printFigures, startPostgres, startProcess, waitUntil, type PostgresConnection, type RunningPostgres, type StoreUnderTest } from '@ledger-node/test-utils';
import { clientsFor, scratchDir, serving, startDevnet, startLedgerStore, startSync } from './support/cluster';
import { Supervised, stoppedAfterEach } from './support/supervised';

// Every process a test starts is stopped by its pid after it, whatever its outcome.
const { cleanups, supervised } = stoppedAfterEach();

/** What one host of the database holds: its highest ledger, and how many ledgers it holds from `first` to that one. */
async function heldOn(database: PostgresConnection, first = 0): Promise<{ highest: number; count: number }> {
  const client = new pg.Client(database);
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ highest: string | null; count: string }>('SELECT max(ledger_index) AS highest, count(*) FILTER (WHERE ledger_index >= $1) AS count FROM ledgers', [first]);
    return { highest: Number(rows[0]!.highest ?? 0), count: Number(rows[0]!.count) };
  } finally {
    await client.end();
  }
}

async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(url)).text();
  // Every series carries the service's label.
  const line = text.split('\n').find((each) => each.startsWith(`${name}{`) || each.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('a node on a PostgreSQL primary and its streaming standby', () => {
  it('stores the next ledger on the promoted standby within seconds after the primary dies, and keeps one verified range', { timeout: 240_000 }, async () => {
    const primary: RunningPostgres = await startPostgres();
    cleanups.push(() => primary.stop());
    const ledgers = await primary.createDatabase();
    const standby = await primary.startStandby();
    cleanups.push(() => standby.stop());
    const onStandby: PostgresConnection = { ...standby.connection, database: ledgers.database };
    const primaryHost = `127.0.0.1:${primary.connection.port}`;
    const standbyHost = `127.0.0.1:${standby.connection.port}`;
    const url = `postgres://postgres@${primaryHost},${standbyHost}/${ledgers.database}?target_session_attrs=read-write`;
    const store: StoreUnderTest = { kind: 'postgres', flags: ['-store', url], env: { PGPASSWORD: ledgers.password } };
    const metricsPort = await freePort();

    const devnet = await startDevnet(['-load', '10', '-load_accounts', '3', '-close_ms', '250']);
    const dir = scratchDir(cleanups as (() => void)[]);
    const ledgerStore = new Supervised(() => startLedgerStore(dir, { ...store, flags: [...store.flags, '-metrics_addr', '127.0.0.1', '-metrics_port', String(metricsPort)] }));
    supervised.push(ledgerStore);
    const sync = new Supervised(() => startSync(dir, devnet.url, [...store.flags], store.env));
    supervised.push(sync);
    const clients = clientsFor(dir);
    cleanups.push(() => clients.close());
    await serving(ledgerStore.current);
    await ledgerStore.current.waitFor(/database open as its writer/);
    const status = () => clients.store.getStatus({}).catch(() => undefined);
    await waitUntil(async () => ((await status())?.completeRanges.at(-1)?.last ?? 0) >= 5 || undefined, 60_000, 'ledgers stored on the primary', 100);
    // The standby replicates them.
    await waitUntil(async () => ((await heldOn(onStandby).catch(() => undefined))?.highest ?? 0) >= 5 || undefined, 30_000, 'the standby to replicate', 100);

    // The standby stops receiving the primary's WAL (its WAL receiver let go), while the node goes on
    // storing on the primary: the ledgers stored from now on are lost with the primary.
    await asSuperuser(standby.connection, async (client) => {
      await client.query(`ALTER SYSTEM SET primary_conninfo = ''`);
      await client.query('SELECT pg_reload_conf()');
    });
    await waitUntil(async () => ((await asSuperuser(standby.connection, (client) => client.query('SELECT count(*)::int AS receivers FROM pg_stat_wal_receiver'))).rows[0].receivers === 0) || undefined, 10_000, 'the standby to stop receiving', 100);
    const cutAt = (await heldOn(onStandby)).highest;
    await waitUntil(async () => ((await status())?.completeRanges.at(-1)?.last ?? 0) >= cutAt + 3 || undefined, 30_000, 'ledgers stored on the primary alone', 100);

    const figures: Record<string, number> = {};
    const storedAtKill = (await status())!.completeRanges.at(-1)!.last;
    const killedAt = Date.now();
    await primary.kill();
    const heldAtKill = await heldOn(onStandby);
    expect(heldAtKill.highest).toBeLessThan(storedAtKill);
    // The HA manager notices the dead primary and promotes the standby.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await standby.promote();
    figures.primary_killed_to_promoted_ms = Date.now() - killedAt;
    await waitUntil(async () => ((await heldOn(onStandby).catch(() => undefined))?.highest ?? 0) > heldAtKill.highest || undefined, 30_000, 'a ledger stored on the new primary', 100);
    figures.primary_killed_to_next_ledger_ms = Date.now() - killedAt;
    expect(figures.primary_killed_to_next_ledger_ms).toBeLessThan(20_000);

    // One range from 1 (sync backfills what the standby had not received), as the new primary holds it.
    const settled = await waitUntil(
      async () => {
        const current = await status();
        const range = current?.completeRanges;
        return current?.role === StoreRole.WRITER && range?.length === 1 && range[0]!.first === 1 && range[0]!.last > storedAtKill + 3 ? current : undefined;
      },
      90_000,
      'the stored ledgers to make one range on the new primary',
      200,
    );
    const range = settled!.completeRanges[0]!;
    // Every ledger of the range is on the new primary: those it never received were stored again.
    const held = await heldOn(onStandby, range.first);
    expect(held.count).toBeGreaterThanOrEqual(range.last - range.first + 1);

    // The state at a ledger stored after the failover verifies against its header.
    const checked = await waitUntil(async () => {
      const current = await status();
      return current?.stateRange !== undefined && current.stateRange.last >= range.last ? range.last : undefined;
    }, 60_000, 'the state to cover the new tip', 200);
    const verify = startProcess([cliEntry(), 'verify-state', '-ledger', String(checked), '-data_dir', dir]);
    expect([await verify.exited, verify.output()]).toEqual([0, expect.stringContaining(`the stored state at ledger ${checked} verifies`)]);

    const storeOutput = ledgerStore.output();
    expect(storeOutput).toContain(`failover: the primary of the PostgreSQL database at postgres://postgres@${primaryHost},${standbyHost}/${ledgers.database} moved from ${primaryHost} to ${standbyHost}`);
    expect(storeOutput.split('"msg":"failover:').length - 1).toBe(1);
    expect(await metric(`http://127.0.0.1:${metricsPort}/metrics`, 'ledger_node_store_postgres_failovers_total')).toBe(1);
    expect(sync.output()).toContain(`holds the sync writer lock on the PostgreSQL database at postgres://postgres@${primaryHost},${standbyHost}/${ledgers.database} (primary ${standbyHost})`);
    for (const each of [ledgerStore, sync]) expect(each.output()).not.toContain(ledgers.password);
    printFigures('postgres-failover', figures);
  });
});
