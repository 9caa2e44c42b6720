import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allFlags, parseFlags, storeTarget } from './index';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-node-store-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const passwordFile = path.join(dir, 'password');
writeFileSync(passwordFile, 'hunter2-secret\n', { mode: 0o600 });

const target = (...argv: string[]) => storeTarget(parseFlags(['-data_dir', dir, ...argv], allFlags).flags);
const flagProblem = (...argv: string[]) => {
  try {
    parseFlags(argv, allFlags);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('-store, -store_read and -store_password_file', () => {
  it('select RocksDB under -data_dir by default', () => {
    expect(target('-database_name', 'x.db')).toEqual({ kind: 'rocksdb', path: path.join(dir, 'x.db') });
  });

  it('select a PostgreSQL writer or reader, the password from the file', () => {
    expect(target('-store', 'postgres://ledger@db:5432/ledgers')).toEqual({ kind: 'postgres', role: 'writer', url: 'postgres://ledger@db:5432/ledgers' });
    expect(target('-store_read', 'postgresql://replica/ledgers', '-store_password_file', passwordFile)).toEqual({
      kind: 'postgres',
      role: 'reader',
      url: 'postgresql://replica/ledgers',
      password: 'hunter2-secret',
    });
  });

  it('take a primary and its standbys as libpq lists them', () => {
    const url = 'postgres://ledger@db-a:5432,db-b:5433,[::1]/ledgers?target_session_attrs=read-write';
    expect(target('-store', url)).toEqual({ kind: 'postgres', role: 'writer', url });
  });

  it.each([
    [['-store', 'mysql://db/ledgers'], /-store: must be postgres:\/\//],
    [['-store', 'postgres://ledger:hunter2@db-a,db-b/ledgers'], /^invalid value "postgres:\/\/\*\*\*@db-a,db-b\/ledgers" for flag -store: holds a password/],
    [['-store', 'postgres://ledger@db-a,,db-b/ledgers'], /-store: host "" is not HOST or HOST:PORT/],
    [['-store', 'postgres://ledger@db-a:5432,db-a/ledgers'], /-store: names the host db-a:5432 twice/],
    [['-store', 'postgres://ledger@db-a:70000,db-b/ledgers'], /-store: port 70000 of "db-a:70000" is not within 1-65535/],
    [['-store_read', 'postgres://db-a,db-b/ledgers?target_session_attrs=master'], /-store_read: target_session_attrs=master is none of any, read-write, read-only, primary, standby, prefer-standby/],
    [['-store', 'postgres://ledger:hunter2@db/ledgers'], /-store: holds a password: give it in -store_password_file or the PGPASSWORD/],
    [['-store_read', 'postgres://db/ledgers?password=hunter2'], /-store_read: holds a password/],
    [['-store', 'postgres:///ledgers'], /-store: names no host/],
    [['-store_password_file', '/nonexistent/password'], /-store_password_file.*ENOENT/],
  ])('refuse %j with the reason, never echoing a password', (argv, expected) => {
    const problem = flagProblem(...argv);
    expect(problem).toMatch(expected);
    expect(problem).not.toContain('hunter2');
  });

  it('refuse a writer and a reader at once, and a password file without a store', () => {
    expect(() => target('-store', 'postgres://db/a', '-store_read', 'postgres://replica/a')).toThrow(/-store and -store_read select a writer and a reader: give one of them/);
    expect(() => target('-store_password_file', passwordFile)).toThrow(/-store_password_file is for a PostgreSQL store/);
  });
});
