import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoreTarget } from '@ledger-node/config';
import { startPostgres, waitUntil, type PostgresConnection, type RunningPostgres } from '@ledger-node/test-utils';
import { mainnetLedgerWrite } from './support/ledgerWrites';
import { PgLedgerBackend } from '../src/backend/pg-backend';
import { openBackend } from '../src/open';
import { LedgerStore } from '../src/store';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let primary: RunningPostgres;
let standby: RunningPostgres;
let database: PostgresConnection;
beforeAll(async () => {
  primary = await startPostgres();
  database = await primary.createDatabase();
  const writer = await LedgerStore.open(await PgLedgerBackend.open(database));
  await writer.putLedger(mainnetLedgerWrite(11119599));
  await writer.close();
  standby = await primary.startStandby();
}, 120_000);
afterAll(async () => {
  await standby?.stop();
  await primary?.stop();
});

const name = (server: RunningPostgres) => `127.0.0.1:${server.connection.port}`;
const target = (role: 'writer' | 'reader', attrs: string): StoreTarget => ({
  kind: 'postgres',
  role,
  url: `postgres://postgres@${name(standby)},${name(primary)}/${database.database}?target_session_attrs=${attrs}`,
  password: database.password,
});

describe('openBackend on a primary and its standby', () => {
  it('opens a writer on the primary wherever it is listed, a reader on the standby it prefers, and moves the reader to the primary when the standby dies', { timeout: 60_000 }, async () => {
    const writer = (await openBackend(target('writer', 'any'))) as PgLedgerBackend;
    cleanups.push(() => writer.close());
    expect(writer.host).toBe(name(primary));
    expect(writer.location).toBe(`the PostgreSQL database at postgres://postgres@${name(standby)},${name(primary)}/${database.database}`);

    const reader = (await openBackend(target('reader', 'prefer-standby'))) as PgLedgerBackend;
    cleanups.push(() => reader.close());
    expect(reader.host).toBe(name(standby));
    await waitUntil(async () => (await reader.header(11119599).catch(() => undefined)) ?? undefined, 10_000, 'the standby to replicate the ledger');

    await standby.kill();
    // A session of the killed standby may answer a read or two before its backend sees the
    // postmaster gone (PostgreSQL checks at its next wait): only a read through the primary counts.
    const header = await waitUntil(
      async () => {
        const read = await reader.header(11119599).catch(() => undefined);
        return reader.host === name(primary) ? (read ?? undefined) : undefined;
      },
      20_000,
      'the reader to read from the primary',
      100,
    );
    expect(header.ledgerIndex).toBe(11119599);
    expect(reader.host).toBe(name(primary));
  });
});
