import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startPostgres, waitUntil, type PostgresConnection, type RunningPostgres } from '@ledger-node/test-utils';
import { describeDatabase } from '../src/database';
import { findHost, NoHostError, parseDatabaseUrl, type DatabaseHost } from '../src/hosts';
import { WriterLock } from '../src/writer-lock';

describe('parseDatabaseUrl', () => {
  it('reads a libpq list of hosts, each with its port (5432 when none), and target_session_attrs', () => {
    const parsed = parseDatabaseUrl('postgres://ledger@db1.internal:5433,db2.internal,[::1]:6000/ledgers?target_session_attrs=read-write&application_name=x', 'pw');
    expect(parsed.sessionAttrs).toBe('read-write');
    expect(parsed.hosts.map((host) => host.name)).toEqual(['db1.internal:5433', 'db2.internal:5432', '[::1]:6000']);
    expect(parsed.hosts[1]!.config).toMatchObject({ host: 'db2.internal', port: 5432, user: 'ledger', database: 'ledgers', password: 'pw', application_name: 'x' });
    expect(parsed.hosts[2]!.config).toMatchObject({ host: '::1', port: 6000 });
    expect(parsed.hosts[0]!.config).not.toHaveProperty('target_session_attrs');
    expect(parseDatabaseUrl('postgresql://db/ledgers').sessionAttrs).toBe('any');
  });

  it('refuses a list it cannot read, saying why', () => {
    expect(() => parseDatabaseUrl('postgres://db1,,db2/ledgers')).toThrow('host "" is not HOST or HOST:PORT');
    expect(() => parseDatabaseUrl('postgres://db1:99999/ledgers')).toThrow('port 99999 of "db1:99999" is not within 1-65535');
    expect(() => parseDatabaseUrl('postgres://db1:5432,db1/ledgers')).toThrow('names the host db1:5432 twice');
    expect(() => parseDatabaseUrl('postgres://db1/ledgers?target_session_attrs=master')).toThrow('target_session_attrs=master is none of any, read-write');
    expect(() => parseDatabaseUrl('postgres:///ledgers')).toThrow('names no host');
    expect(() => parseDatabaseUrl('mysql://db/ledgers')).toThrow('must be postgres://');
  });

  it('is named with every host and never a password', () => {
    expect(describeDatabase('postgres://ledger:secret@db1:5433,db2:5434/ledgers?target_session_attrs=read-write')).toBe('the PostgreSQL database at postgres://ledger:***@db1:5433,db2:5434/ledgers');
  });
});

describe('a primary and its streaming standby', () => {
  let primary: RunningPostgres;
  let standby: RunningPostgres;
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  beforeAll(async () => {
    primary = await startPostgres();
    standby = await primary.startStandby();
  }, 120_000);
  afterAll(async () => {
    await standby?.stop();
    await primary?.stop();
  });
  const hostOf = (connection: PostgresConnection): DatabaseHost => ({ name: `${connection.host}:${connection.port}`, config: connection });

  it('replicates, writes on the primary only (and its writer lock is taken there alone), and after the primary dies the promoted standby takes writes and the lock', { timeout: 120_000 }, async () => {
    const hosts = [hostOf(standby.connection), hostOf(primary.connection)];
    const writable = await findHost(hosts, 'read-write');
    cleanups.push(() => writable.client.end());
    expect(writable.host.name).toBe(hosts[1]!.name);
    await writable.client.query('CREATE TABLE replicated (n integer)');
    await writable.client.query('INSERT INTO replicated VALUES (1)');
    const reading = await findHost(hosts, 'standby');
    cleanups.push(() => reading.client.end());
    expect(reading.host.name).toBe(hosts[0]!.name);
    await waitUntil(async () => (await reading.client.query('SELECT count(*)::int AS n FROM replicated').catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n === 1 || undefined, 10_000, 'the row to reach the standby');

    const lock = await WriterLock.acquire(hosts, 'failover-test', { pollMs: 50, checkMs: 50 });
    cleanups.push(() => lock.release());
    expect(lock.host).toBe(hosts[1]!.name);
    const lost: Error[] = [];
    lock.onLost((error) => lost.push(error));

    await primary.kill();
    await waitUntil(() => lost.length > 0 || undefined, 10_000, 'the lock to be lost with its server');
    const none = await findHost(hosts, 'read-write').catch((error: unknown) => error);
    expect(none).toBeInstanceOf(NoHostError);
    expect((none as Error).message).toMatch(new RegExp(`^no host is a writable primary: ${hosts[0]!.name} is a standby \\(in recovery\\); ${hosts[1]!.name} cannot be reached`));

    // A lock asked for meanwhile waits, and is taken on the standby once promoted.
    const unreachable: Error[] = [];
    const next = WriterLock.acquire(hosts, 'failover-test', { pollMs: 50, checkMs: 50, onUnreachable: (error) => unreachable.push(error) });
    await waitUntil(() => unreachable.length > 0 || undefined, 10_000, 'the lock to find no primary');
    await standby.promote();
    const taken = await next;
    cleanups.push(() => taken.release());
    expect(taken.host).toBe(hosts[0]!.name);
    const promoted = new pg.Client(standby.connection);
    await promoted.connect();
    cleanups.push(() => promoted.end());
    await promoted.query('INSERT INTO replicated VALUES (2)');
    expect((await promoted.query('SELECT count(*)::int AS n FROM replicated')).rows[0].n).toBe(2);
  });
});
