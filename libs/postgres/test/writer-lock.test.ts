import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, waitUntil, type RunningPostgres } from '@ledger-node/test-utils';
import { connectionConfig, describeDatabase } from '../src/database';
import { lockHolder, WriterLock, type LockHolder } from '../src/writer-lock';

const cleanups: (() => Promise<unknown> | void)[] = [];
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

const FAST = { pollMs: 50, checkMs: 50 };

async function admin(): Promise<pg.Client> {
  const client = new pg.Client(postgres.connection);
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

function held(lock: WriterLock): WriterLock {
  cleanups.push(() => lock.release());
  return lock;
}

describe('WriterLock', () => {
  it('is held by one process at a time: the next waits, says whom it waits for, and takes it when the holder releases it', async () => {
    const first = held(await WriterLock.acquire(postgres.connection, 'test-writer', FAST));
    expect(first.held).toBe(true);
    let waitingFor: LockHolder | undefined | null = null;
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    let second: WriterLock | undefined;
    const acquiring = WriterLock.acquire(postgres.connection, 'test-writer', { ...FAST, signal: abort.signal, onWaiting: (holder) => (waitingFor = holder) }).then((lock) => (second = held(lock)));
    await waitUntil(() => waitingFor !== null || undefined, 5_000, 'the second to wait');
    expect(waitingFor).toMatchObject({ applicationName: 'ledger-node test-writer writer lock', clientAddress: '127.0.0.1' });
    expect(await lockHolder(await admin(), 'test-writer')).toEqual(waitingFor);
    // Another name is another lock.
    held(await WriterLock.acquire(postgres.connection, 'other-writer', FAST));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second).toBeUndefined();

    await first.release();
    expect(first.held).toBe(false);
    await acquiring;
    expect(second!.held).toBe(true);
  });

  it('is lost when its session ends: the holder hears it once, with the database named without its password, and the next process takes over', async () => {
    const location = describeDatabase(`postgres://postgres@127.0.0.1:${postgres.connection.port}/postgres`);
    const first = held(await WriterLock.acquire(postgres.connection, 'lost-writer', { ...FAST, location }));
    const losses: Error[] = [];
    first.onLost((error) => losses.push(error));
    const next = WriterLock.acquire(postgres.connection, 'lost-writer', FAST).then(held);
    const sql = await admin();
    const holder = await waitUntil(() => lockHolder(sql, 'lost-writer'), 5_000, 'the holder to show');
    await sql.query('SELECT pg_terminate_backend($1)', [holder.pid]);
    await waitUntil(() => losses.length > 0 || undefined, 5_000, 'the loss to be heard');
    expect(first.held).toBe(false);
    expect(losses).toHaveLength(1);
    expect(losses[0].message).toMatch(new RegExp(`^lost the lost-writer writer lock on the PostgreSQL database at postgres://postgres@127\\.0\\.0\\.1:${postgres.connection.port}/postgres: `));
    expect(losses[0].message).not.toContain(postgres.connection.password);
    expect((await next).held).toBe(true);
    // A listener added after the loss hears it at once.
    const late: Error[] = [];
    first.onLost((error) => late.push(error));
    expect(late).toEqual(losses);
  });

  it('keeps asking while the database cannot be reached, and stops when its signal aborts', async () => {
    const abort = new AbortController();
    const failures: Error[] = [];
    const acquiring = WriterLock.acquire({ ...postgres.connection, password: `${postgres.connection.password}-wrong` }, 'unreachable-writer', {
      ...FAST,
      signal: abort.signal,
      onUnreachable: (error) => failures.push(error),
    });
    await waitUntil(() => failures.length >= 2 || undefined, 10_000, 'two failed attempts');
    expect(failures[0].message).toBe(`no host is a writable primary: 127.0.0.1:${postgres.connection.port} cannot be reached (password authentication failed for user "postgres")`);
    abort.abort(new Error('stopped'));
    await expect(acquiring).rejects.toThrow('stopped');
  });
});

describe('connectionConfig', () => {
  it('connects with the password given beside a URL that holds none (from -store_password_file)', async () => {
    const { host, port, user, password, database } = postgres.connection;
    const client = new pg.Client(connectionConfig(`postgres://${user}@${host}:${port}/${database}?application_name=config-test`, password));
    await client.connect();
    cleanups.push(() => client.end());
    expect((await client.query<{ name: string }>(`SELECT current_setting('application_name') AS name`)).rows[0]!.name).toBe('config-test');
  });
});

describe('describeDatabase', () => {
  it('names a database by user, host, port and name, never by a password or the query', () => {
    expect(describeDatabase('postgres://ledger:secret@db.internal:5433/ledgers?sslmode=require&password=secret')).toBe('the PostgreSQL database at postgres://ledger:***@db.internal:5433/ledgers');
    expect(describeDatabase('host=/var/run password=secret')).toBe('the PostgreSQL database its connection string names');
  });
});
