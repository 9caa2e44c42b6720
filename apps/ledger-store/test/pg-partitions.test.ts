import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { LedgerTag, TxDetail, type LedgerSelector, type LedgerWrite } from '@ledger-node/contracts';
import { rejectionOf, startPostgres, type PostgresConnection, type RunningPostgres } from '@ledger-node/test-utils';
import { syntheticLedgerWrite } from './support/ledgerWrites';
import { LedgerStore } from '../src/store';
import { accountSides, ZERO_COUNTERS } from '../src/backend/records';
import { LEDGERS_PER_PARTITION, PgLedgerBackend } from '../src/backend/pg-backend';

/** The tables partitioned by ledger range (pg/001_initial.sql, pg/002_evidence.sql, pg/005_account_numbers.sql, pg/006_transaction_groups.sql). */
const PARTITIONED = ['account_ledger_entries', 'account_sent_by_ledger', 'ledger_evidence', 'ledger_transactions', 'ledgers', 'state_versions', 'transaction_groups'];
const bounds = (first: number, end: number) => `FOR VALUES FROM ('${first}') TO ('${end}')`;
/** Ledgers per partition in these tests: a handful of ledgers spans several partitions. */
const SMALL = 10;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

/** A backend over `database`, its partitions SMALL unless `options` say otherwise. */
async function openBackend(database: PostgresConnection, options: { ledgersPerPartition?: number } = { ledgersPerPartition: SMALL }): Promise<PgLedgerBackend> {
  const backend = await PgLedgerBackend.open(database, undefined, options);
  cleanups.push(() => backend.close());
  return backend;
}

async function openStore(database: PostgresConnection): Promise<LedgerStore<PgLedgerBackend>> {
  const store = await LedgerStore.open(await PgLedgerBackend.open(database, undefined, { ledgersPerPartition: SMALL }));
  cleanups.push(() => store.close());
  return store;
}

/** A session of the test's own, past the backend. */
function sqlSession(database: PostgresConnection): pg.Pool {
  const pool = new pg.Pool(database);
  cleanups.push(() => pool.end());
  return pool;
}

/** Every partition of the partitioned tables, as `table: FOR VALUES FROM (first) TO (end)`, in order of their first ledgers (their names' suffixes). */
async function partitions(sql: pg.Pool): Promise<string[]> {
  const { rows } = await sql.query<{ parent: string; bounds: string }>(
    `SELECT parent.relname AS parent, pg_get_expr(child.relpartbound, child.oid) AS bounds
      FROM pg_inherits JOIN pg_class AS parent ON parent.oid = inhparent JOIN pg_class AS child ON child.oid = inhrelid
      WHERE parent.relnamespace = current_schema()::regnamespace AND child.relkind = 'r'
      ORDER BY parent.relname, (regexp_match(child.relname, '\\d+$'))[1]::bigint`,
  );
  return rows.map((row) => `${row.parent}: ${row.bounds}`);
}

/** The partitions each table has for the runs of ledgers starting at `firsts`. */
const partitionsFor = (...firsts: number[]) =>
  PARTITIONED.flatMap((table) => firsts.map((first) => `${table}: ${bounds(first, first + SMALL)}`));

const byIndex = (ledgerIndex: number): LedgerSelector => ({ selector: { $case: 'index', index: ledgerIndex } });
const byHash = (write: LedgerWrite): LedgerSelector => ({ selector: { $case: 'hash', hash: write.ledgerHash } });

async function collect<T>(entries: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const entry of entries) collected.push(entry);
  return collected;
}

/** The (ledger, tx index) positions at which `write`s touch `accountId`, in ledger order. */
function historyOf(writes: readonly LedgerWrite[], accountId: Buffer): string[] {
  return [...writes]
    .sort((a, b) => a.ledgerIndex - b.ledgerIndex)
    .flatMap((write) => write.transactions.filter((tx) => accountSides(tx).some((side) => side.accountId.equals(accountId))).map((tx) => `${write.ledgerIndex}/${tx.txIndex}`));
}

describe('PgLedgerBackend partitions by ledger range', () => {
  it('partitions the tables that grow with history, a million ledgers each by default, and creates no partition before a write needs it', async () => {
    const database = await postgres.createSchema();
    const backend = await openBackend(database, {});
    const sql = sqlSession(database);
    expect(LEDGERS_PER_PARTITION).toBe(1_000_000);
    expect(backend.ledgersPerPartition).toBe(LEDGERS_PER_PARTITION);
    const { rows } = await sql.query<{ name: string; strategy: string; key: string }>(
      `SELECT partrelid::regclass::text AS name, partstrat AS strategy, pg_get_partkeydef(partrelid) AS key
        FROM pg_partitioned_table WHERE partrelid::regclass::text = ANY($1) ORDER BY 1`,
      [PARTITIONED],
    );
    expect(rows).toEqual(PARTITIONED.map((name) => ({ name, strategy: 'r', key: 'RANGE (ledger_index)' })));
    expect(await partitions(sql)).toEqual([]);

    const store = await LedgerStore.open(backend);
    await store.putLedger(syntheticLedgerWrite(11119599));
    expect(await partitions(sql)).toEqual(PARTITIONED.map((table) => `${table}: ${bounds(11_000_000, 12_000_000)}`));
  });

  it('creates the partitions of a ledger and of the one before it (its before-images) in the write that first needs them, in every partitioned table', async () => {
    const database = await postgres.createSchema();
    const store = await openStore(database);
    const sql = sqlSession(database);

    await store.putLedger(syntheticLedgerWrite(25));
    expect(await partitions(sql)).toEqual(partitionsFor(20));
    // Ledger 30's before-images are at 29: the partition of 20 serves them, the one of 30 is new.
    await store.putLedger(syntheticLedgerWrite(30));
    expect(await partitions(sql)).toEqual(partitionsFor(20, 30));
    await store.putLedger(syntheticLedgerWrite(3));
    await store.putLedger(syntheticLedgerWrite(51));
    expect(await partitions(sql)).toEqual(partitionsFor(0, 20, 30, 50));
    // Every row is in the partition of its ledger.
    const { rows } = await sql.query<{ partition: string; ledger_index: string }>(
      `SELECT tableoid::regclass::text AS partition, ledger_index FROM ledgers UNION ALL SELECT tableoid::regclass::text, ledger_index FROM state_versions ORDER BY 2, 1`,
    );
    expect(rows.map((row) => `${row.partition} ${row.ledger_index}`)).toEqual(
      [3, 25, 30, 51].flatMap((ledgerIndex) => {
        const first = ledgerIndex - (ledgerIndex % SMALL);
        return [`ledgers_${first} ${ledgerIndex}`, `state_versions_${first} ${ledgerIndex}`, `state_versions_${first} ${ledgerIndex}`, `state_versions_${first} ${ledgerIndex}`].sort();
      }),
    );
    // Another process opening the database finds the partitions there and writes into them.
    const second = await PgLedgerBackend.open(database, undefined, { ledgersPerPartition: SMALL });
    cleanups.push(() => second.close());
    await second.addLedgers([syntheticLedgerWrite(52)], { completeRanges: [] }, ZERO_COUNTERS);
    expect(await partitions(sql)).toEqual(partitionsFor(0, 20, 30, 50));
  });

  it('reads ledgers written across several partitions back by index and by hash, and account histories across them in both directions', async () => {
    const database = await postgres.createSchema();
    const store = await openStore(database);
    const writes = [9, 10, 11, 19, 20, 35, 47, 48, 60].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex, { transactionCount: 4 + (ledgerIndex % 5) }));
    // Backfill order: downward, then upward.
    for (const write of [...writes].reverse().filter((write) => write.ledgerIndex < 30)) await store.putLedger(write);
    for (const write of writes.filter((write) => write.ledgerIndex >= 30)) await store.putLedger(write);

    for (const write of writes) {
      const expected = { ledgerIndex: write.ledgerIndex, ledgerHash: write.ledgerHash, transactionHashes: [...write.transactions].sort((a, b) => a.txIndex - b.txIndex).map((tx) => tx.hash) };
      for (const selector of [byIndex(write.ledgerIndex), byHash(write)]) {
        expect(await store.getLedger(selector, TxDetail.HASHES)).toMatchObject(expected);
      }
      expect(await store.backend.ledgerIndexOfHash(write.ledgerHash)).toBe(write.ledgerIndex);
      const records = await store.getTransactions(write.transactions.map((tx) => tx.hash));
      expect(records.map((record) => [record.ledgerIndex, record.txIndex, Buffer.from(record.txBlob).toString('hex'), Buffer.from(record.metaBlob).toString('hex')])).toEqual(
        write.transactions.map((tx) => [write.ledgerIndex, tx.txIndex, tx.txBlob.toString('hex'), tx.metaBlob.toString('hex')]),
      );
      const last = write.transactions.at(-1)!;
      expect(await store.getTransactionByIndex(byIndex(write.ledgerIndex), last.txIndex)).toMatchObject({ hash: last.hash, ledgerIndex: write.ledgerIndex });
    }
    expect(await store.getLedger({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, TxDetail.NONE)).toMatchObject({ ledgerIndex: 60 });

    // The receiver of every ledger's first transaction: in every partition.
    const receiver = writes[0]!.transactions[0]!.affectedAccounts[1]!.accountId;
    const history = historyOf(writes, receiver);
    expect(history.length).toBeGreaterThan(writes.length);
    const positions = (entries: { ledgerIndex: number; txIndex: number }[]) => entries.map((entry) => `${entry.ledgerIndex}/${entry.txIndex}`);
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, {})))).toEqual(history);
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { reverse: true })))).toEqual([...history].reverse());
    // Bounded to ledgers 10-47 and continued from a position in the middle: only the partitions between are read.
    const inside = history.filter((position) => Number(position.split('/')[0]) >= 10 && Number(position.split('/')[0]) <= 47);
    const [afterLedger, afterTx] = inside[2]!.split('/').map(Number);
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { firstLedger: 10, lastLedger: 47, after: { ledgerIndex: afterLedger!, txIndex: afterTx! }, limit: 4 })))).toEqual(
      inside.slice(3, 7),
    );
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { firstLedger: 10, lastLedger: 47, reverse: true, limit: 3 })))).toEqual([...inside].reverse().slice(0, 3));
    // Sent counts sum the ledgers of every partition up to the one asked.
    const sender = writes[0]!.transactions[0]!.senderAccountId;
    const sentUpTo = (ledgerIndex: number) => writes.filter((write) => write.ledgerIndex <= ledgerIndex).flatMap((write) => write.transactions).filter((tx) => tx.senderAccountId.equals(sender)).length;
    for (const ledgerIndex of [9, 19, 35, 60]) expect(await store.backend.sentUpTo(sender, ledgerIndex)).toBe(BigInt(sentUpTo(ledgerIndex)));
  });

  it('keeps account history across the whole u32 range: ledger 0 first, ledger 2^32 - 1 last', async () => {
    const database = await postgres.createSchema();
    const store = await openStore(database);
    const sql = sqlSession(database);
    const last = 0xffffffff;
    const writes = [0, 1, last - 1, last].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex, { transactionCount: 6 }));
    for (const write of writes) await store.backend.addLedgers([write], { completeRanges: [] }, ZERO_COUNTERS);
    const lastFirst = last - (last % SMALL);
    expect((await partitions(sql)).filter((partition) => partition.startsWith('account_ledger_entries'))).toEqual([
      `account_ledger_entries: ${bounds(0, SMALL)}`,
      `account_ledger_entries: ${bounds(lastFirst, lastFirst + SMALL)}`,
    ]);
    const receiver = writes[0]!.transactions[0]!.affectedAccounts[1]!.accountId;
    const history = historyOf(writes, receiver);
    const positions = (entries: { ledgerIndex: number; txIndex: number }[]) => entries.map((entry) => `${entry.ledgerIndex}/${entry.txIndex}`);
    expect(history.at(-1)?.startsWith(`${last}/`)).toBe(true);
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, {})))).toEqual(history);
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { reverse: true, limit: 2 })))).toEqual([...history].reverse().slice(0, 2));
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { after: { ledgerIndex: 1, txIndex: 0xffffffff } })))).toEqual(
      history.filter((entry) => Number(entry.split('/')[0]) > 1),
    );
  });

  it("keeps an account's entries of a ledger in one row, and scans them from any position in either direction, a page cut anywhere", async () => {
    const database = await postgres.createSchema();
    const store = await openStore(database);
    const sql = sqlSession(database);
    const writes = [5, 6, 9, 12].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex, { transactionCount: 12 }));
    for (const write of writes) await store.putLedger(write);
    const receiver = writes[0]!.transactions[0]!.affectedAccounts[1]!.accountId;
    const history = historyOf(writes, receiver);
    const { rows } = await sql.query<{ rows: number }>('SELECT count(*)::int AS rows FROM account_ledger_entries JOIN accounts USING (account_number) WHERE account_id = $1', [receiver]);
    expect(rows[0]!.rows).toBe(writes.length);
    expect(history.length).toBeGreaterThan(writes.length * 2);
    const positions = (entries: { ledgerIndex: number; txIndex: number }[]) => entries.map((entry) => `${entry.ledgerIndex}/${entry.txIndex}`);
    const at = (position: string) => ({ ledgerIndex: Number(position.split('/')[0]), txIndex: Number(position.split('/')[1]) });
    for (const [index, after] of history.entries()) {
      for (const limit of [1, 2, 5]) {
        expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { after: at(after), limit })))).toEqual(history.slice(index + 1, index + 1 + limit));
        expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { after: at(after), limit, reverse: true })))).toEqual(
          history.slice(0, index).reverse().slice(0, limit),
        );
      }
    }
    expect(positions(await collect(store.backend.accountTransactionEntries(receiver, { firstLedger: 6, lastLedger: 9 })))).toEqual(
      history.filter((position) => [6, 9].includes(at(position).ledgerIndex)),
    );
  });

  it('keeps each group of transactions in one page of its partition, inline (toast_tuple_target), each full group filling it', async () => {
    const database = await postgres.createSchema();
    const store = await openStore(database);
    const sql = sqlSession(database);
    const write = syntheticLedgerWrite(25, { transactionCount: 300 });
    await store.putLedger(write);
    const { rows } = await sql.query<{ options: string[]; toast_bytes: string; pages: number; groups: number; smallest: number; largest: number }>(
      `SELECT partition.reloptions AS options, pg_relation_size(partition.reltoastrelid)::text AS toast_bytes, (SELECT count(DISTINCT (ctid::text::point)[0])::int FROM transaction_groups) AS pages,
        (SELECT count(*)::int FROM transaction_groups) AS groups,
        (SELECT min(pg_column_size(transaction_groups.*))::int FROM transaction_groups WHERE first_tx_index > 0 AND first_tx_index < (SELECT max(first_tx_index) FROM transaction_groups)) AS smallest,
        (SELECT max(pg_column_size(transaction_groups.*))::int FROM transaction_groups) AS largest
        FROM pg_class AS partition WHERE partition.relname = 'transaction_groups_20'`,
    );
    expect(rows[0]).toMatchObject({ options: ['toast_tuple_target=8160'], toast_bytes: '0' });
    expect(rows[0]!.groups).toBeGreaterThan(3);
    expect(rows[0]!.pages).toBe(rows[0]!.groups);
    expect(rows[0]!.largest).toBeLessThanOrEqual(8160);
    expect(rows[0]!.smallest).toBeGreaterThan(8160 - 400);
    expect((await store.getTransactions(write.transactions.map((tx) => tx.hash))).map((tx) => tx.hash)).toEqual(write.transactions.map((tx) => tx.hash));
  });

  it('leaves nothing of a write rolled back, not even the partition it created, and takes the ledger whole afterwards', async () => {
    const database = await postgres.createSchema();
    const backend = await openBackend(database);
    const sql = sqlSession(database);
    await backend.addLedgers([syntheticLedgerWrite(5)], { completeRanges: [{ first: 5, last: 5 }] }, ZERO_COUNTERS);
    const bookkeeping = await backend.bookkeeping();
    const rowsBefore = await sql.query(`SELECT tableoid::regclass::text AS partition, ledger_index FROM ledgers ORDER BY ledger_index`);

    // Its last state change has a key of 31 bytes: the state_versions insert, the last of the write
    // after the partitions, the header, the transactions and the account index, fails on its CHECK.
    const good = syntheticLedgerWrite(42);
    const failing = { ...good, stateChanges: good.stateChanges.map((change, position) => (position === 2 ? { ...change, key: change.key.subarray(1) } : change)) };
    const failure = await rejectionOf<Error>(backend.addLedgers([failing], { completeRanges: [{ first: 5, last: 5 }, { first: 42, last: 42 }] }, bookkeeping.counters));
    expect(failure.message).toMatch(/violates check constraint "state_versions_object_key_check"/);

    expect(await partitions(sql)).toEqual(partitionsFor(0));
    expect((await sql.query(`SELECT tableoid::regclass::text AS partition, ledger_index FROM ledgers ORDER BY ledger_index`)).rows).toEqual(rowsBefore.rows);
    const newest: Record<string, string> = {
      ledger_hashes: 'max(ledger_index)',
      transaction_hashes: 'max((position >> 32) + 2147483648)',
      transaction_groups: 'max(ledger_index)',
      account_ledger_entries: 'max(ledger_index)',
      account_sent_by_ledger: 'max(ledger_index)',
      account_sent_by_block: 'max(sent)',
    };
    for (const [table, newestLedger] of Object.entries(newest)) {
      const { rows } = await sql.query<{ ledger: string }>(`SELECT ${newestLedger}::text AS ledger FROM ${table}`);
      expect(rows[0]!.ledger, table).toBe(table === 'account_sent_by_block' ? '1' : '5');
    }
    expect(await backend.bookkeeping()).toEqual(bookkeeping);
    expect(await backend.header(42)).toBeUndefined();
    expect(await backend.ledgerIndexOfHash(good.ledgerHash)).toBeUndefined();

    // The process does not take the partition for made: the next write creates it again.
    await backend.addLedgers([good], { completeRanges: [{ first: 5, last: 5 }, { first: 42, last: 42 }] }, bookkeeping.counters);
    expect(await partitions(sql)).toEqual(partitionsFor(0, 40));
    expect((await backend.header(42))?.ledgerHash).toEqual(good.ledgerHash);
    expect((await backend.transactions(good.transactions.map((tx) => tx.hash))).map((tx) => tx?.ledgerIndex)).toEqual(good.transactions.map(() => 42));
  });

  it('removes a ledger from its partition and leaves the ledgers of every partition as they were', async () => {
    const database = await postgres.createSchema();
    const store = await openStore(database);
    const sql = sqlSession(database);
    const writes = [8, 9, 10, 11, 20].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex, { transactionCount: 5 }));
    for (const write of writes) await store.putLedger(write);
    const removed = writes[2]!;
    const kept = writes.filter((write) => write !== removed);
    const sender = removed.transactions[0]!.senderAccountId;
    const countersBefore = (await store.status()).counters;

    await store.deleteLedger({ ...removed, stateChanges: [] });

    expect(store.ranges).toEqual([
      { first: 8, last: 9 },
      { first: 11, last: 11 },
      { first: 20, last: 20 },
    ]);
    expect((await store.status()).counters).toMatchObject({ ledgerCount: countersBefore.ledgerCount - 1n, transactionCount: countersBefore.transactionCount - 5n });
    expect(await store.getLedger(byIndex(10), TxDetail.NONE)).toBeUndefined();
    expect(await store.getLedger(byHash(removed), TxDetail.NONE)).toBeUndefined();
    expect(await store.backend.ledgerIndexOfHash(removed.ledgerHash)).toBeUndefined();
    expect(await store.getTransactions(removed.transactions.map((tx) => tx.hash))).toEqual([]);
    expect(await store.backend.ledgerTransactionHashes(10)).toEqual([]);
    for (const write of kept) {
      expect(await store.getLedger(byHash(write), TxDetail.HASHES)).toMatchObject({ ledgerIndex: write.ledgerIndex, transactionHashes: write.transactions.map((tx) => tx.hash) });
      expect(await store.getTransactions(write.transactions.map((tx) => tx.hash))).toHaveLength(5);
    }
    const positions = (await collect(store.backend.accountTransactionEntries(sender, {}))).map((entry) => `${entry.ledgerIndex}/${entry.txIndex}`);
    expect(positions).toEqual(historyOf(kept, sender));
    const sentUpTo = kept.flatMap((write) => write.transactions).filter((tx) => tx.senderAccountId.equals(sender)).length;
    expect(await store.backend.sentUpTo(sender, 20)).toBe(BigInt(sentUpTo));
    // Its partition stays, empty of it: the partitions of 0 and 20 hold the rest.
    const { rows } = await sql.query<{ partition: string; ledgers: string }>(
      `SELECT tableoid::regclass::text AS partition, string_agg(ledger_index::text, ' ' ORDER BY ledger_index) AS ledgers FROM transaction_groups GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual([
      { partition: 'transaction_groups_0', ledgers: '8 9' },
      { partition: 'transaction_groups_10', ledgers: '11' },
      { partition: 'transaction_groups_20', ledgers: '20' },
    ]);

    // Stored again, it reads as before.
    await store.putLedger(removed);
    expect(await store.getLedger(byHash(removed), TxDetail.HASHES)).toMatchObject({ ledgerIndex: 10, transactionHashes: removed.transactions.map((tx) => tx.hash) });
  });

  it('keeps the partition size a database was created with, and refuses to open it with another', async () => {
    const database = await postgres.createSchema();
    await (await openBackend(database)).close();
    const refused = await rejectionOf<Error>(PgLedgerBackend.open(database, undefined, { ledgersPerPartition: 20 }));
    expect(refused.message).toMatch(/its partitions hold 10 ledgers each, not the 20 asked for/);
    expect((await openBackend(database, {})).ledgersPerPartition).toBe(SMALL);
  });
});
