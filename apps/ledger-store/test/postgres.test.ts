/**
 * The ledger-store over PostgreSQL as separate processes: one writer (the holder of the writer
 * lock), standbys that take over when it dies, readers on a logical replica that never report a
 * ledger they cannot answer; and the database password only where it is needed.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LedgerStoreServiceService, StoreRole, SubmissionServiceService, TxDetail, type LedgerWrite } from '@ledger-node/contracts';
import type { LedgerNodeError } from '@ledger-node/errors';
import { checkHealth, createGrpcClient } from '@ledger-node/grpc';
import {
  childPids,
  cliEntry,
  freePort,
  postgresUrl,
  printFigures,
  rejectionOf,
  replicateLogically,
  startPostgres,
  startProcess,
  stopAll,
  tempDir,
  waitUntil,
  type PostgresConnection,
  type RunningPostgres,
  type RunningProcess,
} from '@ledger-node/test-utils';
import { PgLedgerBackend } from '../src/backend/pg-backend';
import { rangesOf, type LedgerRange } from '../src/ledgers/ranges';
import { crashLedgerSize, syntheticLedgerWrite } from './support/ledgerWrites';

const cleanups: (() => Promise<unknown> | void)[] = [];
const processes: RunningProcess[] = [];
afterEach(async () => {
  // Every process this test started is stopped by its pid, whatever the test's outcome: asked first,
  // so that a node stops its own services before its folder is removed (they would write into it).
  await Promise.all(processes.splice(0).map((running) => running.stop('SIGTERM', 5_000)));
  await stopAll();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);
const FIRST = 7000;

const expectedWrites = new Map<number, LedgerWrite>();
function expectedWrite(ledgerIndex: number): LedgerWrite {
  let write = expectedWrites.get(ledgerIndex);
  if (!write) {
    write = syntheticLedgerWrite(ledgerIndex, { transactionCount: crashLedgerSize(ledgerIndex) });
    expectedWrites.set(ledgerIndex, write);
  }
  return write;
}

/** A `ledger-node serve ledger-store` process in a folder of its own, the password in its environment only, and a client. */
async function serveStore(flags: string[], database: PostgresConnection) {
  const { dir, remove } = tempDir('ledger-store-pg-');
  cleanups.push(remove);
  const address = `unix:${dir}/run/ledger-store.sock`;
  const process = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address, ...flags], { env: { PGPASSWORD: database.password } });
  processes.push(process);
  await process.waitFor(/"msg":"serving"/);
  const client = createGrpcClient(LedgerStoreServiceService, address, { serviceLabel: 'ledger-store', deadlineMs: 10_000 });
  cleanups.push(() => client.close());
  return { process, client, address };
}

const location = (database: PostgresConnection) => `the PostgreSQL database at ${postgresUrl(database)}`;

async function sqlSession(database: PostgresConnection): Promise<pg.Client> {
  const client = new pg.Client(database);
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/**
 * The database holds whole ledgers only: every header with all its transactions, their rows and
 * account index entries; no transaction of a ledger without a header; bookkeeping equal to what
 * the headers say. Returns the stored indexes.
 */
async function expectOnlyWholeLedgers(database: PostgresConnection): Promise<number[]> {
  const sql = await sqlSession(database);
  const indexes = (await sql.query<{ ledger_index: string }>('SELECT ledger_index FROM ledgers ORDER BY ledger_index')).rows.map((row) => Number(row.ledger_index));
  for (const ledgerIndex of indexes) {
    const expected = expectedWrite(ledgerIndex);
    const [header] = (await sql.query<{ ledger_hash: Buffer; transaction_count: string }>('SELECT ledger_hash, transaction_count FROM ledgers WHERE ledger_index = $1', [ledgerIndex])).rows;
    expect(header.ledger_hash.equals(expected.ledgerHash)).toBe(true);
    expect(Number(header.transaction_count)).toBe(expected.transactions.length);
    // Each group's hashes: per transaction its offset from the group's first tx index (a byte) and its hash.
    const groups = (await sql.query<{ hashes: Buffer }>('SELECT hashes FROM transaction_groups WHERE ledger_index = $1 ORDER BY first_tx_index', [ledgerIndex])).rows;
    const hashes = groups.flatMap((group) => Array.from({ length: group.hashes.length / 33 }, (_, entry) => group.hashes.subarray(entry * 33 + 1, entry * 33 + 33).toString('hex')));
    expect(hashes).toEqual(expected.transactions.map((tx) => tx.hash.toString('hex')));
    const [{ count: lookups }] = (
      await sql.query<{ count: string }>('SELECT count(*) FROM transaction_hashes WHERE position BETWEEN ledger_position($1, 0) AND ledger_position($1, 4294967295)', [ledgerIndex])
    ).rows;
    expect(Number(lookups)).toBe(expected.transactions.length);
    const lastTx = expected.transactions.at(-1)!;
    // The sender's row of the ledger names the transaction (7 bytes an entry, its tx index first).
    const entries = await sql.query<{ entries: Buffer }>(
      'SELECT entries FROM account_ledger_entries JOIN accounts USING (account_number) WHERE account_id = $1 AND ledger_index = $2',
      [lastTx.senderAccountId, ledgerIndex],
    );
    const txIndexes = Array.from({ length: entries.rows[0]!.entries.length / 7 }, (_, entry) => entries.rows[0]!.entries.readUInt32BE(entry * 7));
    expect(txIndexes).toContain(lastTx.txIndex);
  }
  const [{ orphans }] = (
    await sql.query<{ orphans: string }>(
      `SELECT (SELECT count(*) FROM transaction_hashes WHERE (position >> 32) + 2147483648 NOT IN (SELECT ledger_index FROM ledgers))
        + (SELECT count(*) FROM transaction_groups WHERE ledger_index NOT IN (SELECT ledger_index FROM ledgers)) AS orphans`,
    )
  ).rows;
  expect(Number(orphans)).toBe(0);
  const backend = await PgLedgerBackend.open(database, undefined, { readOnly: true });
  try {
    const bookkeeping = await backend.bookkeeping();
    expect(bookkeeping.completeRanges).toEqual(rangesOf(indexes));
    expect(bookkeeping.counters.ledgerCount).toBe(BigInt(indexes.length));
  } finally {
    await backend.close();
  }
  return indexes;
}

const expectNoPassword = (outputs: string[], password: string) => {
  for (const output of outputs) expect(output).not.toContain(password);
};

describe('ledger-store over PostgreSQL: one writer, standbys and readers', () => {
  it('a second writer is a standby that refuses writes; when the writer is killed mid-stream the database holds whole ledgers and the standby takes over within seconds', async () => {
    const database = await postgres.createDatabase();
    const url = postgresUrl(database);
    const writer = await serveStore(['-store', url], database);
    await writer.process.waitFor(/writer: holds the ledger-store writer lock/);
    const standby = await serveStore(['-store', url], database);
    await standby.process.waitFor(/standby: another ledger-store holds the ledger-store writer lock/);

    const refusal = `this ledger-store is a standby writer waiting for the writer lock on ${location(database)}: it takes no writes, and takes over when the holder stops`;
    expect(await standby.client.getStatus({})).toMatchObject({ role: StoreRole.STANDBY, roleDetail: refusal });
    expect(await writer.client.getStatus({})).toMatchObject({ role: StoreRole.WRITER, roleDetail: `the writer of ${location(database)}` });
    const refused = await failure(standby.client.putLedgers({ ledgers: [expectedWrite(FIRST)] }));
    expect([refused.kind, refused.message]).toEqual(['unavailable', refusal]);
    expect(await checkHealth(standby.address)).toBe('SERVING');

    // The writer takes a stream of ledgers, one per call, and is killed after a random number of them.
    const writes = Array.from({ length: 150 }, (_, offset) => expectedWrite(FIRST + offset));
    let acknowledged = 0;
    const streaming = (async () => {
      try {
        for (const ledger of writes) {
          await writer.client.putLedgers({ ledgers: [ledger] });
          acknowledged++;
        }
      } catch (error) {
        return error as LedgerNodeError;
      }
      return undefined;
    })();
    const killAfter = 10 + Math.floor(Math.random() * 60);
    await waitUntil(() => acknowledged >= killAfter || undefined, 30_000, `${killAfter} acknowledged writes`, 2);
    await writer.process.stop('SIGKILL');
    const killedAt = Date.now();
    expect((await streaming)?.kind).toBe('unavailable');

    await waitUntil(async () => (await standby.client.getStatus({})).role === StoreRole.WRITER || undefined, 10_000, 'the standby to take over', 50);
    const tookOverMs = Date.now() - killedAt;
    expect(tookOverMs).toBeLessThan(5_000);
    await standby.process.waitFor(/writer: took over the writer lock/);

    const stored = await expectOnlyWholeLedgers(database);
    expect(stored.length - acknowledged).toBeGreaterThanOrEqual(0);
    expect(stored.length - acknowledged).toBeLessThanOrEqual(1);
    expect(stored).toEqual(writes.slice(0, stored.length).map((write) => write.ledgerIndex));
    // The new writer continues from what the database holds: the standby followed the old writer's ledgers.
    expect((await standby.client.getStatus({})).completeRanges).toEqual([{ first: FIRST, last: FIRST + stored.length - 1 }]);
    const rest = await standby.client.putLedgers({ ledgers: writes });
    expect(rest).toEqual({ storedCount: writes.length - stored.length, completeRanges: [{ first: FIRST, last: FIRST + writes.length - 1 }] });
    expect(await expectOnlyWholeLedgers(database)).toHaveLength(writes.length);

    expect(standby.process.output().match(/standby: another ledger-store holds the ledger-store writer lock/g)).toHaveLength(1);
    expectNoPassword([writer.process.output(), standby.process.output(), refused.message], database.password);
    printFigures('ledger-store-takeover', { ledgers_written: writes.length, took_over_ms: tookOverMs });
  });

  it('a writer whose lock session is ended stops at once with a clear error, and the standby takes over', async () => {
    const database = await postgres.createDatabase();
    const url = postgresUrl(database);
    const writer = await serveStore(['-store', url], database);
    await writer.process.waitFor(/writer: holds the ledger-store writer lock/);
    const standby = await serveStore(['-store', url], database);
    await standby.process.waitFor(/standby: another/);
    const sql = await sqlSession(database);
    await sql.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ledger-node ledger-store writer lock' AND pid = (
      SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = hashtext('ledger-store')::oid AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`);
    expect(await writer.process.exited).toBe(1);
    expect(writer.process.output()).toContain(
      `lost the ledger-store writer lock on ${location(database)}: terminating connection due to administrator command; stopping so as not to write without the lock (a restart waits as a standby)`,
    );
    await waitUntil(async () => (await standby.client.getStatus({})).role === StoreRole.WRITER || undefined, 10_000, 'the standby to take over', 50);
    expect((await standby.client.putLedgers({ ledgers: [expectedWrite(FIRST)] })).storedCount).toBe(1);
    expectNoPassword([writer.process.output(), standby.process.output()], database.password);
  });

  it('a reader on a logical replica answers every ledger of the ranges it reports, never more, follows the writer and streams its ledgers', async () => {
    const primaryServer = await startPostgres({ logicalReplication: true });
    cleanups.push(() => primaryServer.stop());
    const replicaServer = await startPostgres();
    // Stopped before the primary (cleanups run in reverse): its subscription ends first.
    cleanups.push(() => replicaServer.stop());
    const primary = await primaryServer.createDatabase();
    const writer = await serveStore(['-store', postgresUrl(primary)], primary);
    await writer.process.waitFor(/writer: holds the ledger-store writer lock/);
    await writer.client.putLedgers({ ledgers: [FIRST, FIRST + 1, FIRST + 2].map(expectedWrite) });

    const replica = await replicaServer.createDatabase();
    await replicateLogically(primary, replica, async (database) => {
      // The tables as the migration files make them, empty: their rows come from the primary.
      await (await PgLedgerBackend.open(database)).close();
      const sql = new pg.Client(database);
      await sql.connect();
      const tables = (await sql.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows.map((row) => row.tablename);
      await sql.query(`TRUNCATE ${tables.map((table) => `"${table}"`).join(', ')}`);
      // The writer creates partitions as the ledgers need them, and logical replication copies rows,
      // not tables: on the replica a default partition of each partitioned table takes every row.
      const partitioned = (await sql.query<{ name: string }>(`SELECT partrelid::regclass::text AS name FROM pg_partitioned_table`)).rows;
      for (const { name } of partitioned) await sql.query(`CREATE TABLE "${name}_replica" PARTITION OF "${name}" DEFAULT`);
      await sql.end();
    });
    const replicaSql = await sqlSession(replica);
    await waitUntil(async () => (await replicaSql.query(`SELECT 1 FROM store_meta WHERE name = 'format_version'`)).rowCount === 1 || undefined, 30_000, 'the replica to copy the store');

    const reader = await serveStore(['-store_read', postgresUrl(replica)], replica);
    const readerRefusal = `this ledger-store reads ${location(replica)} (-store_read) and takes no writes; writes go to the ledger-store started with -store`;
    expect(await reader.client.getStatus({})).toMatchObject({ role: StoreRole.READER, roleDetail: readerRefusal });
    const refused = await failure(reader.client.putLedgers({ ledgers: [expectedWrite(FIRST + 3)] }));
    expect([refused.kind, refused.message]).toEqual(['unavailable', readerRefusal]);

    const watchAbort = new AbortController();
    cleanups.push(() => watchAbort.abort());
    const streamed: number[] = [];
    void (async () => {
      for await (const event of reader.client.watchLedgers({ fromLedgerIndex: FIRST, includeBackfill: true }, { signal: watchAbort.signal })) streamed.push(event.ledgerIndex);
    })().catch(() => undefined);

    const LAST = FIRST + 60;
    let written = FIRST + 2;
    const writing = (async () => {
      for (let ledgerIndex = FIRST + 3; ledgerIndex <= LAST; ledgerIndex++) {
        await writer.client.putLedgers({ ledgers: [expectedWrite(ledgerIndex)] });
        written = ledgerIndex;
      }
    })();
    let done = false;
    void writing.finally(() => (done = true));
    const reported: LedgerRange[][] = [];
    while (!done || (await reader.client.getStatus({})).highestLedgerIndex !== LAST) {
      const { completeRanges, highestLedgerIndex } = await reader.client.getStatus({});
      reported.push(completeRanges);
      expect(highestLedgerIndex ?? 0).toBeLessThanOrEqual(written);
      for (const { first, last } of completeRanges) {
        for (let ledgerIndex = first; ledgerIndex <= last; ledgerIndex++) {
          const { ledger } = await reader.client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.FULL });
          expect(ledger?.ledgerHash.equals(expectedWrite(ledgerIndex).ledgerHash), `ledger ${ledgerIndex} of the reported ${JSON.stringify(completeRanges)}`).toBe(true);
          expect(ledger!.transactions).toHaveLength(expectedWrite(ledgerIndex).transactions.length);
        }
      }
      await sleep(20);
    }
    await writing;
    expect(reported.length).toBeGreaterThan(5);
    expect((await reader.client.getStatus({})).completeRanges).toEqual([{ first: FIRST, last: LAST }]);
    expect((await reader.client.getStatus({})).ledgerCount).toBe(BigInt(LAST - FIRST + 1));
    await waitUntil(() => streamed.length >= LAST - FIRST + 1 || undefined, 10_000, 'the reader to stream every ledger');
    expect(streamed).toEqual(Array.from({ length: LAST - FIRST + 1 }, (_, offset) => FIRST + offset));
    expectNoPassword([writer.process.output(), reader.process.output(), refused.message], primary.password);
  });
});

describe('the database password in a node of separate processes', () => {
  it('reaches the ledger-store and submission only; a second submission waits as a standby that refuses to send, and takes over when the sender dies', async () => {
    const database = await postgres.createDatabase();
    const { dir, remove } = tempDir('ledger-node-pg-');
    cleanups.push(remove);
    const node = startProcess(
      [cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(await freePort()), '-endpoint', 'ws://127.0.0.1:9', '-store', postgresUrl(database)],
      { env: { PGPASSWORD: database.password, PGCONNECT_TIMEOUT: '5' } },
    );
    processes.push(node);
    for (const service of ['ledger-store', 'keystore', 'submission', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`));
    const pids = childPids(node);
    const holding = [...pids].filter(([, pid]) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').some((entry) => entry.startsWith('PG')));
    expect(holding.map(([service]) => service).sort()).toEqual(['ledger-store', 'submission']);
    await node.waitFor(/sender: holds the submission writer lock/);

    const { dir: otherDir, remove: removeOther } = tempDir('ledger-node-pg-');
    cleanups.push(removeOther);
    const address = `unix:${otherDir}/run/submission.sock`;
    const second = startProcess(
      [cliEntry(), 'serve', 'submission', '-data_dir', otherDir, '-submission_addr', address, '-ledger_store_addr', `unix:${dir}/run/ledger-store.sock`, '-keystore_addr', `unix:${dir}/run/keystore.sock`, '-endpoint', 'ws://127.0.0.1:9', '-store', postgresUrl(database)],
      { env: { PGPASSWORD: database.password } },
    );
    processes.push(second);
    await second.waitFor(/standby: another submission service holds the submission writer lock/);
    await second.waitFor(/"msg":"serving"/);
    const submission = createGrpcClient(SubmissionServiceService, address, { serviceLabel: 'submission' });
    cleanups.push(() => submission.close());
    const refused = await failure(submission.sendPayment({ from: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', to: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', valueDrops: 1n }));
    expect([refused.kind, refused.message]).toEqual([
      'unavailable',
      `this submission service is a standby waiting for the submission writer lock on ${location(database)}: it signs and sends nothing, and takes over when the holder stops`,
    ]);
    await waitUntil(async () => (await checkHealth(address)) === 'NOT_SERVING' || undefined, 10_000, 'the standby to report not serving');

    // The whole first node, so that its supervisor does not restart its submission service, which
    // could take the lock back first.
    process.kill(-node.pid, 'SIGKILL');
    await node.exited;
    await second.waitFor(/sender: holds the submission writer lock/, 20_000);
    expectNoPassword([node.output(), second.output(), refused.message], database.password);
  });
});
