import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TxDetail } from '@ledger-node/contracts';
import type { LedgerNodeError } from '@ledger-node/errors';
import { rejectionOf, startPostgres, waitUntil, type PostgresConnection, type RunningPostgres } from '@ledger-node/test-utils';
import { syntheticLedgerWrite } from './support/ledgerWrites';
import { PgLedgerBackend } from '../src/backend/pg-backend';
import type { LedgerEvent, RangesEvent } from '../src/ledgers/events';
import type { LedgerRange } from '../src/ledgers/ranges';
import { missingFrom, rangesIntersection, rangesWithout } from '../src/ledgers/follow';
import { readerRefusal, standbyRefusal } from '../src/open';
import { LedgerStore, STORE_FORMAT_VERSION } from '../src/store';

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

/** Looks often, so that the tests see many looks while ledgers are written. */
const LOOK_MS = 20;

async function writer(database: PostgresConnection): Promise<LedgerStore> {
  const store = await LedgerStore.open(await PgLedgerBackend.open(database));
  cleanups.push(() => store.close());
  return store;
}

async function follower(database: PostgresConnection, role: 'reader' | 'standby'): Promise<LedgerStore> {
  const backend = await PgLedgerBackend.open(database, undefined, { readOnly: role === 'reader' });
  const refusal = role === 'reader' ? readerRefusal(backend.location) : standbyRefusal(backend.location);
  const store = await LedgerStore.open(backend, { follow: { role, refusal, intervalMs: LOOK_MS } });
  cleanups.push(() => store.close());
  return store;
}

function collectEvents(store: LedgerStore): LedgerEvent[] {
  const events: LedgerEvent[] = [];
  cleanups.push(store.events.subscribe((event) => events.push(event)));
  return events;
}

const indexesOf = (ranges: readonly LedgerRange[]) => ranges.flatMap(({ first, last }) => Array.from({ length: last - first + 1 }, (_, offset) => first + offset));
const atIndex = (index: number) => ({ selector: { $case: 'index' as const, index } });
const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);

/** Every ledger in the ranges `store` reports is readable through it with all its transactions. */
async function expectRangesReadable(store: LedgerStore): Promise<number> {
  const ranges = [...store.ranges];
  for (const ledgerIndex of indexesOf(ranges)) {
    const ledger = await store.getLedger(atIndex(ledgerIndex), TxDetail.FULL);
    expect(ledger?.ledgerIndex, `ledger ${ledgerIndex} of the reported ranges ${JSON.stringify(ranges)}`).toBe(ledgerIndex);
    expect(ledger!.transactions).toHaveLength(syntheticLedgerWrite(ledgerIndex).transactions.length);
  }
  return ranges.length;
}

describe('follow ranges', () => {
  it('keeps the ranges both hold and takes the lowest missing ledgers first, at most a step at a time', () => {
    expect(rangesIntersection([{ first: 1, last: 10 }, { first: 20, last: 30 }], [{ first: 5, last: 25 }])).toEqual([
      { first: 5, last: 10 },
      { first: 20, last: 25 },
    ]);
    expect(missingFrom([{ first: 3, last: 5 }, { first: 9, last: 9 }], [{ first: 1, last: 12 }], 100)).toEqual([1, 2, 6, 7, 8, 10, 11, 12]);
    expect(missingFrom([{ first: 3, last: 5 }], [{ first: 1, last: 12 }], 4)).toEqual([1, 2, 6, 7]);
    expect(missingFrom([], [], 4)).toEqual([]);
  });

  it('names the ledgers one side holds and the other does not, as ranges', () => {
    expect(rangesWithout([{ first: 1, last: 10 }, { first: 20, last: 30 }], [{ first: 3, last: 4 }, { first: 10, last: 22 }, { first: 30, last: 40 }])).toEqual([
      { first: 1, last: 2 },
      { first: 5, last: 9 },
      { first: 23, last: 29 },
    ]);
    expect(rangesWithout([{ first: 5, last: 9 }], [])).toEqual([{ first: 5, last: 9 }]);
    expect(rangesWithout([{ first: 5, last: 9 }], [{ first: 1, last: 100 }])).toEqual([]);
  });
});

describe('LedgerStore following PostgreSQL', () => {
  it('a reader sees the ledgers a writer stores, publishes each once in order, and never reports a ledger it cannot read', async () => {
    const database = await postgres.createSchema();
    const primary = await writer(database);
    await primary.putLedger(syntheticLedgerWrite(100));
    const reader = await follower(database, 'reader');
    expect(reader.role).toBe('reader');
    expect(reader.ranges).toEqual([{ first: 100, last: 100 }]);
    const events = collectEvents(reader);
    const watchAbort = new AbortController();
    cleanups.push(() => watchAbort.abort());
    const watched: number[] = [];
    const watching = (async () => {
      for await (const event of reader.watch({ fromLedgerIndex: 100, includeBackfill: true }, watchAbort.signal)) watched.push(event.ledgerIndex);
    })();

    // Live ledgers upward, then a backfill downward, while the reader's answers are checked.
    const writes = (async () => {
      for (let ledgerIndex = 101; ledgerIndex <= 160; ledgerIndex++) await primary.putLedger(syntheticLedgerWrite(ledgerIndex));
      for (let ledgerIndex = 99; ledgerIndex >= 80; ledgerIndex--) await primary.putLedger(syntheticLedgerWrite(ledgerIndex));
    })();
    let checks = 0;
    let done = false;
    void writes.finally(() => (done = true));
    while (!done) checks += await expectRangesReadable(reader);
    await writes;
    expect(checks).toBeGreaterThan(10);
    // A look takes its ledgers on one by one: its first and last may be there before those between them.
    await waitUntil(() => (reader.ranges.length === 1 && reader.highest() === 160 && reader.lowest() === 80) || undefined, 10_000, 'the reader to catch up');
    expect(reader.ranges).toEqual([{ first: 80, last: 160 }]);
    expect((await reader.status()).counters).toEqual((await primary.status()).counters);

    // Live ledgers in the order written; the backfill once each, not as the tip.
    const live = events.filter((event) => event.extendsTip).map((event) => event.ledgerIndex);
    expect(live).toEqual(indexesOf([{ first: 101, last: 160 }]));
    expect(events.filter((event) => !event.extendsTip).map((event) => event.ledgerIndex).sort((a, b) => a - b)).toEqual(indexesOf([{ first: 80, last: 99 }]));
    const sample = events.find((event) => event.ledgerIndex === 130)!;
    expect(sample.ledgerHash).toEqual(syntheticLedgerWrite(130).ledgerHash);
    expect(sample.transactions.map((tx) => tx.txIndex)).toEqual([0, 1, 2]);
    // A watch from 100 replays, then follows: every ledger once.
    await waitUntil(() => watched.length >= 81 || undefined, 10_000, 'the watch to deliver every ledger');
    watchAbort.abort();
    await watching;
    expect([...watched].sort((a, b) => a - b)).toEqual(indexesOf([{ first: 80, last: 160 }]));
  });

  it("a reader announces to its range watchers what its database's writer removed and stored below the highest, never a ledger stored above it", async () => {
    const database = await postgres.createSchema();
    const primary = await writer(database);
    for (let ledgerIndex = 100; ledgerIndex <= 105; ledgerIndex++) await primary.putLedger(syntheticLedgerWrite(ledgerIndex));
    const reader = await follower(database, 'reader');
    const watchAbort = new AbortController();
    cleanups.push(() => watchAbort.abort());
    const announced: RangesEvent[] = [];
    void (async () => {
      for await (const event of reader.watchRanges(watchAbort.signal)) announced.push(event);
    })();
    await waitUntil(() => announced.length > 0 || undefined, 10_000, 'what the reader holds');
    expect(announced).toEqual([{ change: 'current', completeRanges: [{ first: 100, last: 105 }], removed: [] }]);

    for (let ledgerIndex = 106; ledgerIndex <= 110; ledgerIndex++) await primary.putLedger(syntheticLedgerWrite(ledgerIndex));
    await waitUntil(() => reader.highest() === 110 || undefined, 10_000, 'the reader to take on 106-110');
    await primary.deleteLedger({ ...syntheticLedgerWrite(103), stateChanges: [] });
    await waitUntil(() => announced.length > 1 || undefined, 10_000, 'the removal to be announced');
    expect(announced.slice(1)).toEqual([
      { change: 'followed', completeRanges: [{ first: 100, last: 102 }, { first: 104, last: 110 }], removed: [{ first: 103, last: 103 }] },
    ]);
    await primary.putLedger(syntheticLedgerWrite(103));
    await waitUntil(() => announced.length > 2 || undefined, 10_000, 'the ledger stored again to be announced');
    expect(announced.slice(2)).toEqual([{ change: 'followed', completeRanges: [{ first: 100, last: 110 }], removed: [] }]);
  });

  it('a reader refuses every write, and its database session refuses them too', async () => {
    const database = await postgres.createSchema();
    await (await writer(database)).putLedger(syntheticLedgerWrite(7));
    const reader = await follower(database, 'reader');
    const refusal = `this ledger-store reads ${reader.backend.location} (-store_read) and takes no writes; writes go to the ledger-store started with -store`;
    for (const refused of [
      failure(reader.putLedger(syntheticLedgerWrite(8))),
      failure(reader.deleteLedger({ ...syntheticLedgerWrite(7), stateChanges: [] })),
      failure(reader.putStateChanges({ ledgerIndex: 7, ledgerHash: syntheticLedgerWrite(7).ledgerHash, stateChanges: [] })),
      failure(reader.putStateObjects({ ledgerIndex: 7, objects: [], marker: Buffer.alloc(0), complete: false, abandon: true })),
    ]) {
      expect(await refused).toMatchObject({ kind: 'unavailable', message: refusal });
    }
    expect((await reader.status()).role).toBe('reader');
    expect((await reader.status()).roleDetail).toBe(refusal);
    expect((await rejectionOf<Error>(reader.backend.recordFormatVersion(STORE_FORMAT_VERSION))).message).toMatch(/read-only transaction/);
    expect(reader.ranges).toEqual([{ first: 7, last: 7 }]);
  });

  it('a reader refuses a database without the schema or without a store, saying why', async () => {
    const empty = await postgres.createSchema();
    const noSchema = await rejectionOf<Error>(PgLedgerBackend.open(empty, undefined, { readOnly: true }));
    expect(noSchema.message).toMatch(/^cannot open the PostgreSQL database at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres: it holds no ledger-node schema \(no schema_migrations table\): a reader \(-store_read\) creates none/);
    // Migrated by a writer's backend, but no writer has opened the store yet.
    const migrated = await postgres.createSchema();
    await (await PgLedgerBackend.open(migrated)).close();
    const backend = await PgLedgerBackend.open(migrated, undefined, { readOnly: true });
    const noStore = await rejectionOf<Error>(LedgerStore.open(backend, { follow: { role: 'reader', refusal: readerRefusal(backend.location) } }));
    expect(noStore.message).toBe(`${backend.location} records no store format version: its writer (-store) has not opened it yet, or this replica has not copied it yet`);
  });

  it('a standby refuses writes while it follows, then promoted takes over from what the database holds', async () => {
    const database = await postgres.createSchema();
    const primary = await writer(database);
    await primary.putLedger(syntheticLedgerWrite(10));
    const standby = await follower(database, 'standby');
    const events = collectEvents(standby);
    const refused = await failure(standby.putLedger(syntheticLedgerWrite(11)));
    expect(refused).toMatchObject({
      kind: 'unavailable',
      message: `this ledger-store is a standby writer waiting for the writer lock on ${standby.backend.location}: it takes no writes, and takes over when the holder stops`,
    });
    expect((await standby.status()).role).toBe('standby');
    for (let ledgerIndex = 11; ledgerIndex <= 20; ledgerIndex++) await primary.putLedger(syntheticLedgerWrite(ledgerIndex));
    await primary.close();

    await standby.promote();
    expect(standby.role).toBe('writer');
    expect(standby.ranges).toEqual([{ first: 10, last: 20 }]);
    expect(events.map((event) => event.ledgerIndex)).toEqual(indexesOf([{ first: 11, last: 20 }]));
    expect((await standby.status()).counters.ledgerCount).toBe(11n);
    expect(await standby.putLedger(syntheticLedgerWrite(21))).toBe(true);
    expect(await standby.putLedger(syntheticLedgerWrite(15))).toBe(false);
    expect(standby.ranges).toEqual([{ first: 10, last: 21 }]);
    expect((await standby.status()).role).toBe('writer');
    expect(events.at(-1)).toMatchObject({ ledgerIndex: 21, extendsTip: true });

    // What it writes is what the next follower reads.
    const reader = await follower(database, 'reader');
    expect(reader.ranges).toEqual([{ first: 10, last: 21 }]);
    expect((await reader.status()).counters).toEqual((await standby.status()).counters);
    await expect(reader.promote()).rejects.toThrow('a reader is not promoted; only a standby is');
  });

  it('a standby on a database no writer opened yet records the store format once it takes over', async () => {
    const database = await postgres.createSchema();
    const standby = await follower(database, 'standby');
    expect(standby.ranges).toEqual([]);
    await standby.promote();
    expect((await standby.backend.bookkeeping()).formatVersion).toBe(STORE_FORMAT_VERSION);
    expect(await standby.putLedger(syntheticLedgerWrite(1))).toBe(true);
  });
});
