import { readdirSync, readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { decodeLedgerHeader, getProfile, hashLedgerHeader, indexTransactionOrPlaceholder, keylet } from '@ledger-node/chain';
import { Direction, LedgerTag, StateChangeKind, TxDetail, type LedgerSelector, type LedgerWrite, type StateObject, type StateObjectChange, type TransactionWrite } from '@ledger-node/contracts';
import { Conflict, InvalidParams, Unavailable, type LedgerNodeError } from '@ledger-node/errors';
import { rejectionOf, startPostgres, tempDir, waitUntil, type PostgresConnection, type RunningPostgres } from '@ledger-node/test-utils';
import { corpusLedgerWrite, MAINNET_RUN, mainnetFixture, mainnetLedgerWrite, syntheticAccount, syntheticLedgerWrite } from '../test/support/ledgerWrites';
import { memoryKeyValue } from './storage/memory';
import { openRocksDb } from './storage/rocksdb';
import { FORMAT_VERSION_KEY } from './repositories/storeMeta';
import type { StateObjectVersion } from './repositories/stateObjects';
import type { AccountHistoryScan, LedgerBackend } from './backend/backend';
import { KvLedgerBackend } from './backend/kv-backend';
import { describeTarget, PgLedgerBackend } from './backend/pg-backend';
import { accountSides, sendersOf, type StateWindow } from './backend/records';
import { LedgerStore, STORE_FORMAT_VERSION, type HistoryOptions } from './store';
import type { LedgerRange } from './ledgers/ranges';
import { accountTransactionCount, accountTransactions } from './accounts/history';
import { nftAt, nftTransactions } from './nfts/reads';
import type { LedgerEvent, RangesEvent } from './ledgers/events';
import { statusResponse } from './grpc/handlers';
import { accountState, listedLedger, listStateObjects, MAX_STATE_OBJECTS_PER_LIST, stateObjects } from './state/reads';

/**
 * The ledger-store's specification, run against one storage engine per test file (store.*.test.ts)
 * so that the engines' files run side by side: the key-value backend in memory and in real RocksDB
 * on disk, and PostgreSQL (with its own migrations).
 */
export type EngineName = 'in memory' | 'RocksDB' | 'PostgreSQL';

export function storeSpecification(engineName: EngineName): void {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The PostgreSQL server of the engine's file: each test opens a schema (or a database) of its own on it. */
  let postgres: RunningPostgres;
  if (engineName === 'PostgreSQL') {
    beforeAll(async () => {
      postgres = await startPostgres();
    });
    afterAll(async () => {
      await postgres?.stop();
    });
  }

  /**
   * A storage engine under test: backends over one store of its own (opened again after a close,
   * over the same data), and what only the engine's own storage shows, read and written past the
   * LedgerBackend interface.
   */
  interface Engine {
    open(): Promise<LedgerBackend>;
    /** The newest version row of the object at or below `ledgerIndex` (a tombstone is a row too). */
    newestVersion(backend: LedgerBackend, objectKey: Buffer, ledgerIndex: number): Promise<StateObjectVersion | undefined>;
    /** The format-version record as stored; undefined when there is none. */
    formatVersionRecord(backend: LedgerBackend): Promise<Buffer | undefined>;
    /** Stores `value` as the format-version record, or removes it (undefined), as another release would have left it. */
    writeFormatVersionRecord(backend: LedgerBackend, value: Buffer | undefined): Promise<void>;
  }

  function kvEngine(open: () => Promise<KvLedgerBackend>): Engine {
    const kvOf = (backend: LedgerBackend) => {
      if (!(backend instanceof KvLedgerBackend)) throw new Error(`${backend.location} is not a key-value backend`);
      return backend;
    };
    return {
      open,
      newestVersion: (backend, objectKey, ledgerIndex) => kvOf(backend).stateObjects.at(objectKey, ledgerIndex),
      formatVersionRecord: (backend) => kvOf(backend).kv.get(FORMAT_VERSION_KEY),
      writeFormatVersionRecord: (backend, value) =>
        kvOf(backend).kv.batch([value === undefined ? { type: 'del', key: FORMAT_VERSION_KEY } : { type: 'put', key: FORMAT_VERSION_KEY, value }]),
    };
  }

  /** A connection of the test's own to a database, past the backend. */
  function sqlSession(database: PostgresConnection): pg.Pool {
    const pool = new pg.Pool(database);
    cleanups.push(() => pool.end());
    return pool;
  }

  /** PgLedgerBackend over a new schema of this file's server; its raw rows read with SQL. */
  async function pgEngine(): Promise<Engine> {
    const database = await postgres.createSchema();
    const sql = sqlSession(database);
    return {
      open: () => PgLedgerBackend.open(database),
      async newestVersion(_backend, objectKey, ledgerIndex) {
        const { rows } = await sql.query<{ ledger_index: string; blob: Buffer | null }>(
          'SELECT ledger_index, blob FROM state_versions WHERE object_key = $1 AND ledger_index <= $2 ORDER BY ledger_index DESC LIMIT 1',
          [objectKey, ledgerIndex],
        );
        if (rows.length === 0) return undefined;
        const versionLedger = Number(rows[0].ledger_index);
        return rows[0].blob === null ? { ledgerIndex: versionLedger, deleted: true } : { ledgerIndex: versionLedger, deleted: false, blob: rows[0].blob };
      },
      async formatVersionRecord() {
        return (await sql.query<{ value: Buffer }>(`SELECT value FROM store_meta WHERE name = 'format_version'`)).rows[0]?.value;
      },
      async writeFormatVersionRecord(_backend, value) {
        if (value === undefined) await sql.query(`DELETE FROM store_meta WHERE name = 'format_version'`);
        else await sql.query(`INSERT INTO store_meta (name, value) VALUES ('format_version', $1) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`, [value]);
      },
    };
  }

  /** Every backend answers the same specification: the key-value one in memory and in real RocksDB on disk, and PostgreSQL. */
  const allEngines: [EngineName, () => Promise<Engine>][] = [
    [
      'in memory',
      async () => {
        const kv = memoryKeyValue();
        return kvEngine(async () => new KvLedgerBackend(kv, 'the database in memory'));
      },
    ],
    [
      'RocksDB',
      async () => {
        const { dir, remove } = tempDir('ledger-store-unit-');
        cleanups.push(remove);
        return kvEngine(async () => new KvLedgerBackend(await openRocksDb(`${dir}/node.db`), `the database at ${dir}/node.db`));
      },
    ],
    ['PostgreSQL', pgEngine],
  ];
  const engines = allEngines.filter(([name]) => name === engineName);

  const profile = getProfile('xrpl');
  const byTxIndex = (write: LedgerWrite) => [...write.transactions].sort((a, b) => a.txIndex - b.txIndex);
  const accountId = (address: string) => Buffer.from(profile.codec.decodeAccountId(address));

  const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);
  const indexesOf = (ranges: readonly LedgerRange[]) => ranges.flatMap(({ first, last }) => Array.from({ length: last - first + 1 }, (_, offset) => first + offset));

  /** A test object: the AccountRoot of a synthetic account named by a letter (a real key, and the account it creates). */
  const objectAccount = (name: string) => syntheticAccount(name.charCodeAt(0) * 1000);
  const objectKey = (name: string) => Buffer.from(keylet.account(objectAccount(name)), 'hex');
  const image = (name: string, version: number) => Buffer.from(`1100${Buffer.from(`${name}${version}`).toString('hex')}`, 'hex');
  const MAX_U32 = 0xffffffff;
  const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });

  function change(name: string, kind: StateChangeKind, before: number | 'absent' | undefined, after: number | 'absent', owners: Buffer[] = []): StateObjectChange {
    return {
      key: objectKey(name),
      kind,
      blob: after === 'absent' ? Buffer.alloc(0) : image(name, after),
      previousBlob: before === undefined ? undefined : before === 'absent' ? Buffer.alloc(0) : image(name, before),
      ledgerEntryType: 'AccountRoot',
      ownerAccountIds: owners,
      accountId: kind === StateChangeKind.CREATED ? objectAccount(name) : Buffer.alloc(0),
    };
  }

  const staged = (name: string, version: number, owners: Buffer[] = []): StateObject => ({ key: objectKey(name), blob: image(name, version), ledgerEntryType: 'AccountRoot', ownerAccountIds: owners });
  const withState = (ledgerIndex: number, stateChanges: StateObjectChange[], complete = true): LedgerWrite => ({
    ...syntheticLedgerWrite(ledgerIndex, { transactionCount: 2 }),
    stateChanges,
    stateChangesComplete: complete,
  });

  /** The trust line T's two sides. */
  const LINE_SIDES = [objectAccount('L'), objectAccount('H')];
  /** A ledger in the 2^16 block after the mainnet run's. */
  const NEXT_BLOCK_LEDGER = 11141125;
  /** Stored in that block too, and removed. */
  const REMOVED_LEDGER = 11141130;

  /**
   * Writes of every kind, in the order sync makes them: versioned objects over ledgers 10-20 (A in
   * the snapshot only, B changed twice, C created with its account, D deleted, E created and
   * deleted below the snapshot, T a trust line changed at 16), live upward then backfill downward,
   * 20 without complete state; a state download begun at 14, restarted at 15 and completed in two
   * pages (`whileStaged` reads between them); the mainnet run out of order, 11119602 without its
   * state changes until they are added; a ledger in the next block, and one stored and removed there.
   */
  async function writeEveryKind(stores: LedgerStore[], whileStaged: () => Promise<void>): Promise<void> {
    const each = async (step: (store: LedgerStore) => Promise<unknown>) => {
      for (const store of stores) await step(store);
    };
    const ledgers: Record<number, StateObjectChange[]> = {
      11: [change('E', StateChangeKind.CREATED, 'absent', 1)],
      12: [change('B', StateChangeKind.MODIFIED, 0, 1)],
      13: [change('C', StateChangeKind.CREATED, 'absent', 1)],
      14: [change('E', StateChangeKind.DELETED, 1, 'absent')],
      16: [change('T', StateChangeKind.MODIFIED, 1, 2, LINE_SIDES)],
      17: [change('B', StateChangeKind.MODIFIED, 1, 2)],
      18: [change('D', StateChangeKind.DELETED, 1, 'absent')],
    };
    for (const ledgerIndex of [15, 16, 17, 18, 19, 14, 13, 12, 11, 10]) await each((store) => store.putLedger(withState(ledgerIndex, ledgers[ledgerIndex] ?? [])));
    await each((store) => store.putLedger(withState(20, [], false)));
    const page = (ledgerIndex: number, objects: StateObject[], complete: boolean) => ({ ledgerIndex, objects, marker: complete ? Buffer.alloc(0) : objects.at(-1)!.key, complete, abandon: false });
    await each((store) => store.putStateObjects(page(14, [staged('X', 9)], false)));
    await each((store) => store.putStateObjects(page(15, [staged('A', 0), staged('B', 1), staged('T', 1, LINE_SIDES)], false)));
    await whileStaged();
    await each((store) => store.putStateObjects(page(15, [staged('C', 1), staged('D', 1)], true)));
    for (const ledgerIndex of [11119602, 11119599, 11119604, 11119601, 11119600, 11119603]) {
      const write = mainnetLedgerWrite(ledgerIndex);
      await each((store) => store.putLedger(ledgerIndex === 11119602 ? { ...write, stateChanges: [] } : { ...write, stateChangesComplete: true }));
    }
    const late = mainnetLedgerWrite(11119602);
    await each((store) => store.putStateChanges({ ledgerIndex: 11119602, ledgerHash: late.ledgerHash, stateChanges: late.stateChanges }));
    await each((store) => store.putLedger(syntheticLedgerWrite(NEXT_BLOCK_LEDGER, { transactionCount: 5 })));
    await each((store) => store.putLedger(syntheticLedgerWrite(REMOVED_LEDGER, { transactionCount: 5 })));
    await each((store) => store.deleteLedger({ ...syntheticLedgerWrite(REMOVED_LEDGER, { transactionCount: 5 }), stateChanges: [] }));
  }

  /** A whole listing of the state at a ledger, page by page: each page's objects and the key it says to continue after. */
  async function listing(backend: LedgerBackend, ledgerIndex: number, window: StateWindow, limit: number, maxPages = Number.POSITIVE_INFINITY) {
    const pages: { keys: string[]; blobs: string[]; next: string | undefined }[] = [];
    let afterKey: Buffer | undefined;
    do {
      const page = await backend.stateObjectsAt(ledgerIndex, window, afterKey, limit);
      pages.push({ keys: page.objects.map((object) => object.key.toString('hex')), blobs: page.objects.map((object) => object.blob.toString('hex')), next: page.nextAfterKey?.toString('hex') });
      afterKey = page.nextAfterKey;
    } while (afterKey && pages.length < maxPages);
    return pages;
  }

  async function collect<T>(entries: AsyncIterable<T>): Promise<T[]> {
    const collected: T[] = [];
    for await (const entry of entries) collected.push(entry);
    return collected;
  }

  describe.each(engines)('LedgerStore %s', (_name, createEngine) => {
    async function openStore(): Promise<LedgerStore & { engine: Engine; reopen(): Promise<LedgerStore> }> {
      const engine = await createEngine();
      let current = await LedgerStore.open(await engine.open());
      cleanups.push(() => current.close());
      return Object.assign(current, {
        engine,
        async reopen() {
          await current.close();
          current = await LedgerStore.open(await engine.open());
          return current;
        },
      });
    }

    const outOfOrder = [11119602, 11119599, 11119604, 11119601, 11119600, 11119603];

    it('takes a ledger whose write reached the database, though its answer was lost, as stored and in the complete ranges', async () => {
      const backend = await (await createEngine()).open();
      let loseAnswer = false;
      // The write happens; its caller hears Unavailable (as when the connection ends before COMMIT is answered).
      const losing = new Proxy(backend, {
        get(target, key) {
          const value = Reflect.get(target, key, target) as unknown;
          if (key !== 'addLedgers' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          return async (...args: unknown[]) => {
            const counters = await value.apply(target, args);
            if (!loseAnswer) return counters;
            loseAnswer = false;
            throw new Unavailable('the connection ended before COMMIT was answered');
          };
        },
      });
      const store = await LedgerStore.open(losing);
      cleanups.push(() => store.close());
      await store.putLedger(mainnetLedgerWrite(11119599));
      loseAnswer = true;
      await expect(store.putLedger(mainnetLedgerWrite(11119600))).rejects.toThrow(/before COMMIT was answered/);
      expect(await store.putLedger(mainnetLedgerWrite(11119600))).toBe(false);
      expect(store.ranges).toEqual([{ first: 11119599, last: 11119600 }]);
      await store.putLedger(mainnetLedgerWrite(11119601));
      expect((await store.backend.bookkeeping()).completeRanges).toEqual([{ first: 11119599, last: 11119601 }]);
      expect((await store.status()).counters.ledgerCount).toBe(3n);
    });

    describe('store format version', () => {
      it('records the format version in a new store', async () => {
        const engine = await createEngine();
        const store = await LedgerStore.open(await engine.open());
        cleanups.push(() => store.close());
        expect(await engine.formatVersionRecord(store.backend)).toEqual(Buffer.from([0, 0, 0, STORE_FORMAT_VERSION]));
        expect((await store.backend.bookkeeping()).formatVersion).toBe(STORE_FORMAT_VERSION);
      });

      it('takes a store written before versions were recorded as format 1, its ledgers kept', async () => {
        const engine = await createEngine();
        const first = await LedgerStore.open(await engine.open());
        await first.putLedger(mainnetLedgerWrite(11119599));
        await engine.writeFormatVersionRecord(first.backend, undefined);
        expect((await first.backend.bookkeeping()).formatVersion).toBeUndefined();
        await first.close();
        const reopened = await LedgerStore.open(await engine.open());
        cleanups.push(() => reopened.close());
        expect(reopened.ranges).toEqual([{ first: 11119599, last: 11119599 }]);
        expect((await reopened.backend.bookkeeping()).formatVersion).toBe(1);
        expect(await engine.formatVersionRecord(reopened.backend)).toEqual(Buffer.from([0, 0, 0, 1]));
      });

      it.each([
        ['a later format', Buffer.from([0, 0, 0, STORE_FORMAT_VERSION + 1]), `in store format ${STORE_FORMAT_VERSION + 1}`],
        ['an unreadable version', Buffer.from('two'), 'in store format (unreadable)'],
      ])('refuses a store of %s, naming it, and writes nothing', async (_case, recorded, named) => {
        const engine = await createEngine();
        const first = await LedgerStore.open(await engine.open());
        await first.putLedger(mainnetLedgerWrite(11119599));
        await engine.writeFormatVersionRecord(first.backend, recorded);
        await first.close();
        const backend = await engine.open();
        const refusal = await rejectionOf<Error>(LedgerStore.open(backend));
        expect(refusal.message).toBe(
          `${backend.location} is ${named}, and this ledger-node reads and writes format ${STORE_FORMAT_VERSION} only: ` +
            'run the ledger-node release that wrote it, or move it aside and sync again',
        );
        const again = await engine.open();
        cleanups.push(() => again.close());
        expect(await engine.formatVersionRecord(again)).toEqual(recorded);
        expect((await again.bookkeeping()).completeRanges).toEqual([{ first: 11119599, last: 11119599 }]);
      });
    });

    it('stores the mainnet run out of order and reads each ledger back byte-exact by index, hash and tag', async () => {
      const store = await openStore();
      for (const ledgerIndex of outOfOrder) expect(await store.putLedger(mainnetLedgerWrite(ledgerIndex))).toBe(true);

      for (const ledgerIndex of MAINNET_RUN) {
        const fixture = mainnetFixture(ledgerIndex);
        const write = mainnetLedgerWrite(ledgerIndex);
        const full = await store.getLedger({ selector: { $case: 'index', index: ledgerIndex } }, TxDetail.FULL);
        expect(full?.ledgerIndex).toBe(ledgerIndex);
        expect(full?.ledgerHash.toString('hex').toUpperCase()).toBe(fixture.ledger_hash);
        expect(full?.headerBlob.equals(write.headerBlob)).toBe(true);
        // The stored header still hashes to the ledger's hash: nothing was lost in storage.
        expect(hashLedgerHeader(decodeLedgerHeader(full!.headerBlob))).toBe(fixture.ledger_hash);
        expect(full?.transactionCount).toBe(fixture.ledger.transactions!.length);
        expect(full?.transactions.map((tx) => [tx.txIndex, tx.hash.toString('hex'), tx.txBlob.toString('hex'), tx.metaBlob.toString('hex')])).toEqual(
          byTxIndex(write).map((tx) => [tx.txIndex, tx.hash.toString('hex'), tx.txBlob.toString('hex'), tx.metaBlob.toString('hex')]),
        );

        const hashes = await store.getLedger({ selector: { $case: 'hash', hash: write.ledgerHash } }, TxDetail.HASHES);
        expect(hashes?.ledgerIndex).toBe(ledgerIndex);
        expect(hashes?.transactions).toEqual([]);
        expect(hashes?.transactionHashes.map((hash) => hash.toString('hex'))).toEqual(byTxIndex(write).map((tx) => tx.hash.toString('hex')));

        const headerOnly = await store.getLedger({ selector: { $case: 'index', index: ledgerIndex } }, TxDetail.UNSPECIFIED);
        expect(headerOnly?.transactionHashes).toEqual([]);
        expect(headerOnly?.transactionCount).toBe(fixture.ledger.transactions!.length);
      }

      const byTag = async (tag: LedgerTag) => (await store.getLedger({ selector: { $case: 'tag', tag } }, TxDetail.NONE))?.ledgerIndex;
      for (const tag of [LedgerTag.LATEST, LedgerTag.VALIDATED, LedgerTag.CLOSED, LedgerTag.CURRENT, LedgerTag.PENDING]) {
        expect(await byTag(tag)).toBe(11119604);
      }
      expect(await byTag(LedgerTag.EARLIEST)).toBe(11119599);
    });

    it('answers absent ledgers and transactions with nothing, not an error', async () => {
      const store = await openStore();
      expect(await store.getLedger({ selector: { $case: 'tag', tag: LedgerTag.LATEST } }, TxDetail.FULL)).toBeUndefined();
      await store.putLedger(mainnetLedgerWrite(11119600));
      expect(await store.getLedger({ selector: { $case: 'index', index: 11119601 } }, TxDetail.FULL)).toBeUndefined();
      expect(await store.getLedger({ selector: { $case: 'hash', hash: mainnetLedgerWrite(11119601).ledgerHash } }, TxDetail.NONE)).toBeUndefined();
      expect(await store.getTransaction(Buffer.alloc(32, 7))).toBeUndefined();
      expect(await store.getTransactionByIndex({ selector: { $case: 'index', index: 11119600 } }, 999)).toBeUndefined();
      expect(await store.getTransactionByIndex({ selector: { $case: 'index', index: 11119601 } }, 0)).toBeUndefined();
    });

    it('answers GetTransaction and GetTransactionByIndex for every transaction, with its ledger hash and close time', async () => {
      const store = await openStore();
      for (const ledgerIndex of outOfOrder) await store.putLedger(mainnetLedgerWrite(ledgerIndex));
      let checked = 0;
      for (const ledgerIndex of MAINNET_RUN) {
        const fixture = mainnetFixture(ledgerIndex);
        for (const txJson of fixture.ledger.transactions!) {
          const expected = {
            hash: txJson.hash,
            ledgerIndex,
            txIndex: txJson.metaData.TransactionIndex,
            ledgerHash: fixture.ledger_hash,
            closeTimeRippleEpoch: fixture.ledger.close_time,
            tx: profile.codec.encode(Object.fromEntries(Object.entries(txJson).filter(([name]) => name !== 'hash' && name !== 'metaData'))),
            meta: profile.codec.encode(txJson.metaData),
          };
          const readable = (record: Awaited<ReturnType<LedgerStore['getTransaction']>>) =>
            record && {
              hash: record.hash.toString('hex').toUpperCase(),
              ledgerIndex: record.ledgerIndex,
              txIndex: record.txIndex,
              ledgerHash: record.ledgerHash.toString('hex').toUpperCase(),
              closeTimeRippleEpoch: record.closeTimeRippleEpoch,
              tx: record.txBlob.toString('hex').toUpperCase(),
              meta: record.metaBlob.toString('hex').toUpperCase(),
            };
          expect(readable(await store.getTransaction(Buffer.from(txJson.hash, 'hex')))).toEqual(expected);
          const byIndex = await store.getTransactionByIndex({ selector: { $case: 'hash', hash: Buffer.from(fixture.ledger_hash, 'hex') } }, expected.txIndex);
          expect(readable(byIndex)).toEqual(expected);
          checked++;
        }
      }
      expect(checked).toBe(19 + 13 + 29 + 19 + 49 + 30);
    });

    it('keeps complete ranges and counters in each batch: 599 and 601 are two ranges, 600 joins them, and they survive a reopen', async () => {
      const store = await openStore();
      await store.putLedger(mainnetLedgerWrite(11119599));
      await store.putLedger(mainnetLedgerWrite(11119601));
      expect(store.ranges).toEqual([
        { first: 11119599, last: 11119599 },
        { first: 11119601, last: 11119601 },
      ]);
      await store.putLedger(mainnetLedgerWrite(11119600));
      expect(store.ranges).toEqual([{ first: 11119599, last: 11119601 }]);
      const status = await store.status();
      expect(status).toMatchObject({
        completeRanges: [{ first: 11119599, last: 11119601 }],
        lowestLedgerIndex: 11119599,
        highestLedgerIndex: 11119601,
        counters: { ledgerCount: 3n, transactionCount: 19n + 13n + 29n },
      });
      expect(status.counters.stateObjectVersionCount).toBeGreaterThan(0n);

      const reopened = await store.reopen();
      expect(await reopened.status()).toMatchObject({ completeRanges: [{ first: 11119599, last: 11119601 }], counters: status.counters });
    });

    it('accepts an identical ledger again without counting it twice', async () => {
      const store = await openStore();
      expect(await store.putLedger(mainnetLedgerWrite(11119603))).toBe(true);
      const before = await store.status();
      expect(await store.putLedger(mainnetLedgerWrite(11119603))).toBe(false);
      expect((await store.status()).counters).toEqual(before.counters);
    });

    it('refuses another hash at a stored index and changes nothing', async () => {
      const store = await openStore();
      await store.putLedger(mainnetLedgerWrite(11119600));
      const before = await store.status();
      const other = syntheticLedgerWrite(11119600);
      const error = await failure(store.putLedger(other));
      expect(error).toBeInstanceOf(Conflict);
      expect(error.message).toBe(
        `ledger 11119600 is stored with hash ${mainnetFixture(11119600).ledger_hash}, not ${other.ledgerHash.toString('hex').toUpperCase()}`,
      );
      expect((await store.status()).counters).toEqual(before.counters);
      expect(store.ranges).toEqual(before.completeRanges);
      expect((await store.getLedger({ selector: { $case: 'index', index: 11119600 } }, TxDetail.NONE))?.ledgerHash.toString('hex').toUpperCase()).toBe(
        mainnetFixture(11119600).ledger_hash,
      );
      expect(await store.getTransaction(other.transactions[0].hash)).toBeUndefined();
      expect(await store.getLedger({ selector: { $case: 'hash', hash: other.ledgerHash } }, TxDetail.NONE)).toBeUndefined();
    });

    describe('chain identity', () => {
      const xrplTestnet = { chain: 'xrpl', networkId: 1 };

      it("records the chain and the first ledger it is given, and answers it in the status", async () => {
        const engine = await createEngine();
        const store = await LedgerStore.open(await engine.open(), { chain: xrplTestnet });
        cleanups.push(() => store.close());
        expect((await store.status()).chainIdentity).toBeUndefined();
        await store.putLedgers([mainnetLedgerWrite(11119601), mainnetLedgerWrite(11119600)]);
        await store.putLedger(mainnetLedgerWrite(11119599));
        const identity = { ...xrplTestnet, ledgerIndex: 11119601, ledgerHash: mainnetLedgerWrite(11119601).ledgerHash };
        expect((await store.status()).chainIdentity).toEqual(identity);
        expect((await store.backend.bookkeeping()).chainIdentity).toEqual(identity);
      });

      it.each([
        ['another chain', { chain: 'jingtum' }, 'holds a xrpl chain, not the -chain jingtum one'],
        ['another network', { chain: 'xrpl', networkId: 0 }, 'holds the chain of network 1, not of -network_id 0'],
      ])('refuses a store of %s, naming both, and writes nothing', async (_case, configured, named) => {
        const engine = await createEngine();
        const first = await LedgerStore.open(await engine.open(), { chain: xrplTestnet });
        await first.putLedger(mainnetLedgerWrite(11119599));
        await first.close();
        const backend = await engine.open();
        const refusal = await rejectionOf<Error>(LedgerStore.open(backend, { chain: configured }));
        expect(refusal.message).toBe(`${backend.location} ${named}: give each ${configured.chain === 'xrpl' ? 'network' : 'chain'} its own -data_dir (or -database_name)`);
        const again = await LedgerStore.open(await engine.open(), { chain: xrplTestnet });
        cleanups.push(() => again.close());
        expect(again.ranges).toEqual([{ first: 11119599, last: 11119599 }]);
      });

      it('names a store written before identities were recorded by its highest ledger; a -network_id given later is taken', async () => {
        const engine = await createEngine();
        const first = await LedgerStore.open(await engine.open());
        await first.putLedgers([mainnetLedgerWrite(11119599), mainnetLedgerWrite(11119600)]);
        expect((await first.status()).chainIdentity).toBeUndefined();
        await first.close();
        const reopened = await LedgerStore.open(await engine.open(), { chain: { chain: 'xrpl' } });
        expect((await reopened.status()).chainIdentity).toEqual({ chain: 'xrpl', ledgerIndex: 11119600, ledgerHash: mainnetLedgerWrite(11119600).ledgerHash });
        await reopened.close();
        const withNetwork = await LedgerStore.open(await engine.open(), { chain: xrplTestnet });
        cleanups.push(() => withNetwork.close());
        expect((await withNetwork.status()).chainIdentity?.ledgerIndex).toBe(11119600);
      });
    });

    describe('putLedgers: a batch in one write', () => {
      const sharedKey = Buffer.alloc(32, 0x5a);
      /** Ledgers 20-29, each changing one shared object (its before-image the ledger before's after-image) beside their own. */
      const batch = () =>
        Array.from({ length: 10 }, (_, offset) => {
          const write = syntheticLedgerWrite(20 + offset);
          const image = (ledgerIndex: number) => Buffer.concat([Buffer.from('1100', 'hex'), Buffer.from([ledgerIndex])]);
          const shared: StateObjectChange = {
            key: sharedKey,
            kind: StateChangeKind.MODIFIED,
            blob: image(write.ledgerIndex),
            previousBlob: image(write.ledgerIndex - 1),
            ledgerEntryType: 'AccountRoot',
            ownerAccountIds: [],
            accountId: Buffer.alloc(0),
          };
          return { ...write, stateChanges: [...write.stateChanges, shared], stateChangesComplete: true };
        });

      /** What the contract reads of a store holding ledgers 20-29. */
      async function contents(store: LedgerStore) {
        const status = await store.status();
        const senders = [0, 1, 2, 3, 4, 5, 6].map((account) => syntheticAccount(account));
        return {
          counters: status.counters,
          completeRanges: status.completeRanges,
          stateRange: status.stateRange,
          sent: await Promise.all(senders.map((sender) => store.backend.sentUpTo(sender, 29))),
          transactions: await Promise.all(batch().map((write) => store.backend.ledgerTransactionHashes(write.ledgerIndex))),
        };
      }

      it.each([
        ['ascending', (writes: LedgerWrite[]) => writes],
        ['descending, as backfill writes', (writes: LedgerWrite[]) => [...writes].reverse()],
      ])('stores the same as one ledger at a time (%s), and publishes each ledger in order', async (_order, order) => {
        const oneByOne = await openStore();
        for (const write of order(batch())) expect(await oneByOne.putLedger(write)).toBe(true);
        const batched = await openStore();
        const published: number[] = [];
        batched.events.subscribe((event) => published.push(event.ledgerIndex));
        expect(await batched.putLedgers(order(batch()))).toBe(10);
        expect(published).toEqual(order(batch()).map((write) => write.ledgerIndex));
        const expected = await contents(oneByOne);
        expect(expected.counters.stateObjectVersionCount).toBe(10n * 3n + 11n);
        expect(await contents(batched)).toEqual(expected);
        // Sent again, nothing is new.
        expect(await batched.putLedgers(order(batch()))).toBe(0);
        expect(await contents(batched)).toEqual(expected);
      });

      it.each<[string, (writes: LedgerWrite[]) => (LedgerWrite | undefined)[], typeof Conflict | typeof InvalidParams]>([
        ['another hash at a stored index', (writes) => [writes[0], syntheticLedgerWrite(12, { variant: 1 }), writes[2]], Conflict],
        ['a malformed write', (writes) => [writes[0], { ...writes[1]!, ledgerHash: writes[1]!.ledgerHash.subarray(1) }, writes[2]], InvalidParams],
      ])('stores the ledgers before %s, then refuses it and the rest', async (_what, make, refusal) => {
        const store = await openStore();
        await store.putLedger(syntheticLedgerWrite(12));
        const writes = [11, 10, 9].map((ledgerIndex) => syntheticLedgerWrite(ledgerIndex));
        expect(await failure(store.putLedgers(make(writes)))).toBeInstanceOf(refusal);
        expect(store.ranges).toEqual([{ first: 11, last: 12 }]);
        expect((await store.status()).counters.ledgerCount).toBe(2n);
      });
    });

    it.each<[string, (write: LedgerWrite) => unknown, string]>([
      ['a 31-byte ledger hash', (write) => (write.ledgerHash = write.ledgerHash.subarray(1)), 'ledger.ledger_hash'],
      ['a header of another ledger', (write) => (write.ledgerIndex = 11119601), 'ledger.header_blob'],
      ['a truncated header', (write) => (write.headerBlob = write.headerBlob.subarray(0, 117)), 'ledger.header_blob'],
      ['a hash the header does not hash to', (write) => (write.ledgerHash = Buffer.alloc(32, 1)), 'ledger.ledger_hash'],
      ['a transaction hash its blob does not hash to', (write) => (write.transactions[2].hash = Buffer.alloc(32, 1)), 'ledger.transactions[2].hash'],
      ['a 19-byte sender', (write) => (write.transactions[0].senderAccountId = Buffer.alloc(19)), 'ledger.transactions[0].sender_account_id'],
      ['an affected account without a side', (write) => (write.transactions[1].affectedAccounts[0].direction = 0), 'ledger.transactions[1].affected_accounts[0].direction'],
      ['two transactions at one position', (write) => (write.transactions[3].txIndex = write.transactions[4].txIndex), 'ledger.transactions[4].tx_index'],
      ['one transaction twice', (write) => (write.transactions[4] = { ...write.transactions[3], txIndex: write.transactions[4].txIndex }), 'ledger.transactions[4].hash'],
      ['an empty metadata blob', (write) => (write.transactions[5].metaBlob = Buffer.alloc(0)), 'ledger.transactions[5].meta_blob'],
      ['no engine result', (write) => (write.transactions[5].engineResult = ''), 'ledger.transactions[5].engine_result'],
      ['a deleted object with bytes', (write) => (write.stateChanges[0] = { ...write.stateChanges[0], kind: StateChangeKind.DELETED }), 'ledger.state_changes[0].blob'],
      ['a change of no kind', (write) => (write.stateChanges[1].kind = StateChangeKind.UNSPECIFIED), 'ledger.state_changes[1].kind'],
      ['one object changed twice', (write) => (write.stateChanges[2].key = write.stateChanges[1].key), 'ledger.state_changes[2].key'],
    ])('rejects %s as invalid params naming the field, storing nothing', async (_label, spoil, field) => {
      const store = await openStore();
      const write = mainnetLedgerWrite(11119600);
      write.stateChanges = write.stateChanges.filter((change) => change.kind !== StateChangeKind.DELETED);
      spoil(write);
      const error = await failure(store.putLedger(write));
      expect(error).toBeInstanceOf(InvalidParams);
      expect(error.details.param).toBe(field);
      expect(error.message).toContain(field);
      expect((await store.status()).counters.ledgerCount).toBe(0n);
    });

    it('indexes every account a transaction touches, sender OUT and the others IN', async () => {
      const store = await openStore();
      for (const ledgerIndex of outOfOrder) await store.putLedger(mainnetLedgerWrite(ledgerIndex));
      const fixture = mainnetFixture(11119600);
      const offer = fixture.ledger.transactions!.find((tx) => tx.hash === '03128CBC03531F13C024D6C864434894D3191A9887A6FFBE95E6C5AC43420B22')!;
      const entries = [];
      for await (const entry of store.backend.accountTransactionEntries(accountId(offer.Account), {})) entries.push(entry);
      expect(entries).toContainEqual({ accountId: accountId(offer.Account), ledgerIndex: 11119600, txIndex: 12, direction: 2, transactionType: 'OfferCreate' });
      // Every entry is in (ledger, position) order.
      const positions = entries.map((entry) => entry.ledgerIndex * 1000 + entry.txIndex);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));

      const payment = fixture.ledger.transactions!.find((tx) => tx.TransactionType === 'Payment' && tx.Destination !== tx.Account)!;
      const received = [];
      for await (const entry of store.backend.accountTransactionEntries(accountId(payment.Destination), { reverse: true })) received.push(entry);
      expect(received).toContainEqual({
        accountId: accountId(payment.Destination),
        ledgerIndex: 11119600,
        txIndex: payment.metaData.TransactionIndex,
        direction: 1,
        transactionType: 'Payment',
      });
    });

    it('counts the transactions each account sent up to any ledger, whatever order ledgers arrive in', async () => {
      const store = await openStore();
      for (const ledgerIndex of outOfOrder) await store.putLedger(mainnetLedgerWrite(ledgerIndex));
      const sent = new Map<string, number[]>();
      for (const ledgerIndex of MAINNET_RUN) {
        for (const tx of mainnetFixture(ledgerIndex).ledger.transactions!) sent.set(tx.Account, [...(sent.get(tx.Account) ?? []), ledgerIndex]);
      }
      expect(sent.size).toBeGreaterThan(10);
      for (const [address, ledgers] of sent) {
        for (const upTo of [11119598, 11119599, 11119601, 11119604]) {
          expect(await store.backend.sentUpTo(accountId(address), upTo)).toBe(BigInt(ledgers.filter((ledgerIndex) => ledgerIndex <= upTo).length));
        }
      }
    });

    it('sums sent counts across 2^16-ledger blocks written downward and upward', async () => {
      const store = await openStore();
      const indexes = [131073, 65536, 65535, 131072, 1, 65537, 200000];
      for (const ledgerIndex of indexes) await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: 5 }));
      const account = syntheticAccount(3);
      const sentIn = (ledgerIndex: number) =>
        syntheticLedgerWrite(ledgerIndex, { transactionCount: 5 }).transactions.filter((tx) => tx.senderAccountId.equals(account)).length;
      for (const upTo of [0, 1, 65534, 65535, 65536, 65537, 131071, 131072, 131073, 199999, 200000, 0xffffffff]) {
        const expected = indexes.filter((ledgerIndex) => ledgerIndex <= upTo).reduce((sum, ledgerIndex) => sum + sentIn(ledgerIndex), 0);
        expect(await store.backend.sentUpTo(account, upTo)).toBe(BigInt(expected));
      }
    });

    it('keeps each changed object as a version at its ledger, the one before at the previous ledger, and deletions as tombstones', async () => {
      const store = await openStore();
      const write = mainnetLedgerWrite(11119601);
      await store.putLedger(write);
      const newestVersion = (objectKey: Buffer, ledgerIndex: number) => store.engine.newestVersion(store.backend, objectKey, ledgerIndex);
      const deleted = write.stateChanges.find((change) => change.kind === StateChangeKind.DELETED && change.previousBlob)!;
      expect(await newestVersion(deleted.key, 11119601)).toEqual({ ledgerIndex: 11119601, deleted: true });
      expect(await newestVersion(deleted.key, 11119600)).toEqual({ ledgerIndex: 11119600, deleted: false, blob: deleted.previousBlob });
      expect(await newestVersion(deleted.key, 11119599)).toBeUndefined();

      const trustLine = write.stateChanges.find((change) => change.ledgerEntryType === 'RippleState' && change.kind === StateChangeKind.MODIFIED)!;
      expect(await newestVersion(trustLine.key, 0xffffffff)).toEqual({ ledgerIndex: 11119601, deleted: false, blob: trustLine.blob });
      expect(trustLine.ownerAccountIds).toHaveLength(2);
      for (const owner of trustLine.ownerAccountIds) {
        expect((await store.backend.trustLineKeys(owner)).map((objectKey) => objectKey.toString('hex'))).toContain(trustLine.key.toString('hex'));
      }
      // As a state read sees them, with the state known at 11119600-11119601: the deleted object
      // before its deletion and not after it, the trust line as the ledger left it.
      const window: StateWindow = { low: 11119600, high: 11119601, snapshotLedgerIndex: 11119601 };
      expect(await store.backend.stateObjectAt(deleted.key, 11119600, window)).toEqual(deleted.previousBlob);
      expect(await store.backend.stateObjectAt(deleted.key, 11119601, window)).toBeUndefined();
      expect(await store.backend.stateObjectAt(trustLine.key, 11119601, window)).toEqual(trustLine.blob);
      const versions = write.stateChanges.length + write.stateChanges.filter((change) => change.previousBlob).length;
      expect((await store.status()).counters.stateObjectVersionCount).toBe(BigInt(versions));

      // The ledger before, stored afterwards, writes its own versions over the derived ones and
      // adds no count for a version already there.
      const earlier = mainnetLedgerWrite(11119600);
      await store.putLedger(earlier);
      const touchedByBoth = earlier.stateChanges.find((change) => write.stateChanges.some((later) => later.key.equals(change.key) && later.previousBlob))!;
      expect(await newestVersion(touchedByBoth.key, 11119600)).toEqual({
        ledgerIndex: 11119600,
        deleted: touchedByBoth.kind === StateChangeKind.DELETED,
        ...(touchedByBoth.kind === StateChangeKind.DELETED ? {} : { blob: touchedByBoth.blob }),
      });
    });

    it('adds the proven state changes of a ledger stored without them, as if written with it; refuses another ledger or hash', async () => {
      const store = await openStore();
      const full = mainnetLedgerWrite(11119601);
      await store.putLedger({ ...full, stateChanges: [], stateChangesComplete: false });
      const changed = full.stateChanges.find((change) => change.kind === StateChangeKind.MODIFIED && change.previousBlob)!;
      const window: StateWindow = { low: 11119600, high: 11119601, snapshotLedgerIndex: 11119601 };
      expect(await store.engine.newestVersion(store.backend, changed.key, 0xffffffff)).toBeUndefined();
      expect(await store.backend.stateObjectAt(changed.key, 11119601, window)).toBeUndefined();

      await store.putStateChanges({ ledgerIndex: 11119601, ledgerHash: full.ledgerHash, stateChanges: full.stateChanges });
      expect(await store.engine.newestVersion(store.backend, changed.key, 0xffffffff)).toEqual({ ledgerIndex: 11119601, deleted: false, blob: changed.blob });
      expect(await store.engine.newestVersion(store.backend, changed.key, 11119600)).toEqual({ ledgerIndex: 11119600, deleted: false, blob: changed.previousBlob });
      expect(await store.backend.stateObjectAt(changed.key, 11119601, window)).toEqual(changed.blob);
      expect(await store.backend.stateObjectAt(changed.key, 11119600, window)).toEqual(changed.previousBlob);
      const versions = full.stateChanges.length + full.stateChanges.filter((change) => change.previousBlob).length;
      expect((await store.status()).counters.stateObjectVersionCount).toBe(BigInt(versions));
      // Sent again (a call cut by a crash): the same versions, counted once.
      await store.putStateChanges({ ledgerIndex: 11119601, ledgerHash: full.ledgerHash, stateChanges: full.stateChanges });
      expect((await store.status()).counters.stateObjectVersionCount).toBe(BigInt(versions));
      const reopened = await store.reopen();
      expect(await store.engine.newestVersion(reopened.backend, changed.key, 11119600)).toEqual({ ledgerIndex: 11119600, deleted: false, blob: changed.previousBlob });

      const notStored = await failure(reopened.putStateChanges({ ledgerIndex: 11119602, ledgerHash: full.ledgerHash, stateChanges: [] }));
      expect([notStored.kind, notStored.message]).toEqual(['not_found', 'ledger 11119602 is not stored; its state changes are not taken']);
      const otherHash = await failure(reopened.putStateChanges({ ledgerIndex: 11119601, ledgerHash: Buffer.alloc(32, 7), stateChanges: [] }));
      expect(otherHash).toBeInstanceOf(Conflict);
      const twice = await failure(reopened.putStateChanges({ ledgerIndex: 11119601, ledgerHash: full.ledgerHash, stateChanges: [changed, changed] }));
      expect(twice).toBeInstanceOf(InvalidParams);
      expect(twice.message).toBe('state_changes[1].key appears twice in the ledger');
    });

    it('removes a stored ledger with every entry its write made, so that storing it again restores the same store', async () => {
      const store = await openStore();
      const withoutState = (ledgerIndex: number) => ({ ...mainnetLedgerWrite(ledgerIndex), stateChanges: [], stateChangesComplete: false });
      for (const ledgerIndex of [11119599, 11119600, 11119601]) await store.putLedger(withoutState(ledgerIndex));
      const removed = withoutState(11119600);
      const sender = removed.transactions[0]!.senderAccountId;
      const snapshot = async () => {
        const entries: number[] = [];
        for await (const entry of store.backend.accountTransactionEntries(sender, {})) entries.push(entry.ledgerIndex);
        return { status: await store.status(), sent: await store.backend.sentUpTo(sender, 11119601), entries };
      };
      const before = await snapshot();

      await store.deleteLedger(removed);
      expect(await store.getLedger({ selector: { $case: 'index', index: 11119600 } }, TxDetail.NONE)).toBeUndefined();
      expect(await store.getLedger({ selector: { $case: 'hash', hash: removed.ledgerHash } }, TxDetail.NONE)).toBeUndefined();
      for (const tx of removed.transactions) expect(await store.getTransaction(tx.hash)).toBeUndefined();
      const after = await snapshot();
      expect(after.status.completeRanges).toEqual([{ first: 11119599, last: 11119599 }, { first: 11119601, last: 11119601 }]);
      expect(after.status.counters.ledgerCount).toBe(2n);
      expect(after.status.counters.transactionCount).toBe(before.status.counters.transactionCount - BigInt(removed.transactions.length));
      expect(after.entries).not.toContain(11119600);
      const sentIn11119600 = removed.transactions.filter((tx) => tx.senderAccountId.equals(sender)).length;
      expect(after.sent).toBe(before.sent - BigInt(sentIn11119600));

      await store.putLedger(removed);
      expect(await snapshot()).toEqual(before);

      const absent = await failure(store.deleteLedger(withoutState(11119602)));
      expect(absent.kind).toBe('not_found');
      const other = await failure(store.deleteLedger({ ...removed, ledgerHash: Buffer.alloc(32, 1) }));
      expect(other.kind).not.toBe('not_found');
    });

    it('sets the whole account state aside with a removed ledger that has state at it, until a new download replaces every version', async () => {
      const store = await openStore();
      const download = (current: LedgerStore, ledgerIndex: number, objects: StateObject[]) =>
        current.putStateObjects({ ledgerIndex, objects, marker: Buffer.alloc(0), complete: true, abandon: false });
      await store.putLedger(withState(100, []));
      await download(store, 100, [staged('A', 0), staged('B', 0)]);
      // B changed and C created at 101, which the network will contradict.
      const forged = withState(101, [change('B', StateChangeKind.MODIFIED, 0, 1), change('C', StateChangeKind.CREATED, 'absent', 1)]);
      await store.putLedger(forged);
      expect((await store.status()).stateRange).toEqual({ first: 100, last: 101 });
      const versionsBefore = (await store.status()).counters.stateObjectVersionCount;

      expect(await store.deleteLedger({ ...forged, stateChanges: [] })).toBe(true);
      const setAside = async (current: LedgerStore) => {
        const status = await current.status();
        expect(status.stateRange).toBeUndefined();
        expect(status.stateDownload).toMatchObject({ ledgerIndex: 0, complete: false });
        const refused = await failure(accountState(current, objectAccount('A'), atIndex(100)));
        expect([refused.kind, refused.message]).toEqual(['out_of_range', expect.stringContaining('set aside with a stored ledger the network contradicts')]);
      };
      await setAside(store);
      // The set-aside is durable: a restart does not bring the old state back.
      const reopened = await store.reopen();
      await setAside(reopened);

      // Nothing is built on the state set aside.
      await reopened.putLedger(withState(102, [], false));
      expect((await failure(reopened.putStateChanges({ ledgerIndex: 102, ledgerHash: withState(102, []).ledgerHash, stateChanges: [change('A', StateChangeKind.MODIFIED, 0, 1)] }))).kind).toBe('conflict');
      expect((await failure(reopened.putLedger(withState(104, [change('A', StateChangeKind.MODIFIED, 0, 1)])))).kind).toBe('conflict');
      await download(reopened, 102, [staged('A', 5)]);
      const status = await reopened.status();
      expect(status.stateRange).toEqual({ first: 102, last: 102 });
      expect(status.counters.stateObjectVersionCount).toBe(1n);
      expect(versionsBefore).toBeGreaterThan(1n);
      // Only the new download's versions are left: B and C of the old state are gone at every ledger.
      for (const name of ['B', 'C']) expect(await store.engine.newestVersion(reopened.backend, objectKey(name), MAX_U32)).toBeUndefined();
      expect((await store.engine.newestVersion(reopened.backend, objectKey('A'), MAX_U32))?.ledgerIndex).toBe(102);
      expect((await accountState(reopened, objectAccount('A'), atIndex(102))).accountRootBlob).toEqual(image('A', 5));
      expect((await accountState(reopened, objectAccount('C'), atIndex(102))).accountRootBlob).toBeUndefined();
      expect(await reopened.backend.accountCreatedAtOrBelow(objectAccount('C'), MAX_U32)).toBeUndefined();

      // A ledger without state is removed without touching the state.
      await reopened.putLedger(withState(103, [], false));
      expect(await reopened.deleteLedger({ ...withState(103, [], false), stateChanges: [] })).toBe(false);
      expect((await reopened.status()).stateRange).toEqual({ first: 102, last: 102 });
    });

    it('replays stored ledgers in order, then follows writes that extend the tip; backfill only when asked', async () => {
      const store = await openStore();
      for (const ledgerIndex of [11119600, 11119601, 11119603]) await store.putLedger(mainnetLedgerWrite(ledgerIndex));
      const controller = new AbortController();
      cleanups.push(() => controller.abort());
      const tipOnly = store.watch({ fromLedgerIndex: 11119601, includeBackfill: false }, controller.signal)[Symbol.asyncIterator]();
      const everything = store.watch({ includeBackfill: true }, controller.signal)[Symbol.asyncIterator]();
      const next = async (iterator: AsyncIterator<LedgerEvent>) => (await iterator.next()).value as LedgerEvent;

      expect((await next(tipOnly)).ledgerIndex).toBe(11119601);
      expect((await next(tipOnly)).ledgerIndex).toBe(11119603);
      const waitingTip = next(tipOnly);
      const waitingAll = next(everything);
      await store.putLedger(mainnetLedgerWrite(11119602)); // backfill: below the tip
      expect((await waitingAll).ledgerIndex).toBe(11119602);
      await store.putLedger(mainnetLedgerWrite(11119604));
      const tip = await waitingTip;
      expect(tip.ledgerIndex).toBe(11119604);
      expect((await next(everything)).ledgerIndex).toBe(11119604);

      const fixture = mainnetFixture(11119604);
      expect(tip.ledgerHash.toString('hex').toUpperCase()).toBe(fixture.ledger_hash);
      expect(tip.closeTime).toBe(fixture.ledger.close_time);
      expect(tip.transactions.map((tx) => [tx.txIndex, tx.hash.toString('hex').toUpperCase(), tx.engineResult])).toEqual(
        [...fixture.ledger.transactions!]
          .sort((a, b) => a.metaData.TransactionIndex - b.metaData.TransactionIndex)
          .map((tx) => [tx.metaData.TransactionIndex, tx.hash, tx.metaData.TransactionResult]),
      );
      // The replayed form of a ledger equals its live form.
      const replay = store.watch({ fromLedgerIndex: 11119604, includeBackfill: false }, controller.signal)[Symbol.asyncIterator]();
      expect({ ...(await next(replay)), extendsTip: true }).toEqual(tip);
    });

    it('delivers every ledger once while a replay races with writes', async () => {
      const store = await openStore();
      for (let ledgerIndex = 1000; ledgerIndex < 1400; ledgerIndex += 2) await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 }));
      const controller = new AbortController();
      cleanups.push(() => controller.abort());
      const seen: number[] = [];
      let firstSeen: () => void = () => {};
      const started = new Promise<void>((resolve) => (firstSeen = resolve));
      const watching = (async () => {
        for await (const event of store.watch({ fromLedgerIndex: 1000, includeBackfill: true }, controller.signal)) {
          seen.push(event.ledgerIndex);
          firstSeen();
          if (seen.length === 450) return;
        }
      })();
      await started;
      // Odd ledgers fill the gaps from the top down (ahead of the replay, then behind it) and
      // 1400..1449 extend the tip, one write at a time while the replay reads its pages.
      for (let ledgerIndex = 1399; ledgerIndex > 1000; ledgerIndex -= 2) await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 }));
      for (let ledgerIndex = 1400; ledgerIndex < 1450; ledgerIndex++) await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 }));
      await watching;
      expect(seen).toHaveLength(450);
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 450 }, (_, step) => 1000 + step));
      // Some odd ledgers came through the replay and some live, so both paths were exercised.
      const replayedOdd = seen.slice(0, seen.indexOf(1398) + 1).filter((ledgerIndex) => ledgerIndex % 2 === 1);
      expect(replayedOdd.length).toBeGreaterThan(0);
      expect(replayedOdd.length).toBeLessThan(200);
    });

    describe('watching which ledgers it holds (WatchRanges)', () => {
      /** The store's range announcements from now on, read one at a time. */
      function rangeWatch(store: LedgerStore) {
        const controller = new AbortController();
        cleanups.push(() => controller.abort());
        const events = store.watchRanges(controller.signal)[Symbol.asyncIterator]();
        return async () => (await events.next()).value as RangesEvent;
      }

      it('says what it holds when the watch opens, then each ledger stored below the highest and each DeleteLedger, never one stored above the highest', async () => {
        const store = await openStore();
        for (const ledgerIndex of [11119600, 11119601]) await store.putLedger(mainnetLedgerWrite(ledgerIndex));
        const next = rangeWatch(store);
        expect(await next()).toEqual({ change: 'current', completeRanges: [{ first: 11119600, last: 11119601 }], removed: [] });

        // Above the highest: the ledger stream tells it, this watch does not.
        await store.putLedger(mainnetLedgerWrite(11119603));
        await store.putLedger(mainnetLedgerWrite(11119599));
        expect(await next()).toEqual({ change: 'stored_below_tip', completeRanges: [{ first: 11119599, last: 11119601 }, { first: 11119603, last: 11119603 }], removed: [] });

        const withoutState = (ledgerIndex: number) => ({ ...mainnetLedgerWrite(ledgerIndex), stateChanges: [], stateChangesComplete: false });
        expect(await store.deleteLedger(withoutState(11119600))).toBe(false);
        expect(await next()).toEqual({
          change: 'ledger_deleted',
          completeRanges: [{ first: 11119599, last: 11119599 }, { first: 11119601, last: 11119601 }, { first: 11119603, last: 11119603 }],
          removed: [{ first: 11119600, last: 11119600 }],
        });
        // A refused delete changes nothing and says nothing: the next announcement is the next change.
        expect((await failure(store.deleteLedger(withoutState(11119602)))).kind).toBe('not_found');
        await store.putLedger(mainnetLedgerWrite(11119602));
        expect(await next()).toMatchObject({ change: 'stored_below_tip', completeRanges: [{ first: 11119599, last: 11119599 }, { first: 11119601, last: 11119603 }] });
      });

      it('announces each change of the state range: the download completed, state changes added, the state set aside with a deleted ledger', async () => {
        const store = await openStore();
        await store.putLedger(withState(100, []));
        const next = rangeWatch(store);
        expect(await next()).toEqual({ change: 'current', completeRanges: [{ first: 100, last: 100 }], removed: [] });

        // Staged pages change nothing a reader sees; the completed download does.
        await store.putStateObjects({ ledgerIndex: 100, objects: [staged('A', 0)], marker: objectKey('A'), complete: false, abandon: false });
        await store.putStateObjects({ ledgerIndex: 100, objects: [staged('B', 0)], marker: Buffer.alloc(0), complete: true, abandon: false });
        expect(await next()).toEqual({ change: 'state_download_completed', completeRanges: [{ first: 100, last: 100 }], stateRange: { first: 100, last: 100 }, removed: [] });

        // 101 at the tip with its proven changes is the ledger stream's; 102 without them, then its changes added.
        await store.putLedger(withState(101, [change('B', StateChangeKind.MODIFIED, 0, 1)]));
        await store.putLedger(withState(102, [], false));
        await store.putStateChanges({ ledgerIndex: 102, ledgerHash: withState(102, []).ledgerHash, stateChanges: [change('A', StateChangeKind.MODIFIED, 0, 1)] });
        expect(await next()).toEqual({ change: 'state_changes_added', completeRanges: [{ first: 100, last: 102 }], stateRange: { first: 100, last: 102 }, removed: [] });

        expect(await store.deleteLedger({ ...withState(101, []), stateChanges: [] })).toBe(true);
        expect(await next()).toEqual({
          change: 'state_set_aside',
          completeRanges: [{ first: 100, last: 100 }, { first: 102, last: 102 }],
          removed: [{ first: 101, last: 101 }],
        });
      });

      it('ends a watch when its signal aborts', async () => {
        const store = await openStore();
        const controller = new AbortController();
        const seen: RangesEvent['change'][] = [];
        const watching = (async () => {
          for await (const event of store.watchRanges(controller.signal)) seen.push(event.change);
        })();
        await waitUntil(() => seen.length === 1, 5_000, 'the first announcement', 5);
        controller.abort();
        await watching;
        expect(seen).toEqual(['current']);
      });
    });

    it('reports no retention floor while it keeps every ledger', async () => {
      const store = await openStore();
      await store.putLedger(mainnetLedgerWrite(11119600));
      expect((await store.status()).retentionFloor).toBeUndefined();
      expect((await statusResponse(store)).retentionFloor).toBeUndefined();
    });

    it('pages an account history longer than one read forward and backward, from any position, to any limit', async () => {
      const store = await openStore();
      // Every fifth of 2600 transactions pays account 100: 520 entries, and 2 more in the next ledger.
      const writes = [syntheticLedgerWrite(50_000, { transactionCount: 2600 }), syntheticLedgerWrite(50_001, { transactionCount: 10 })];
      for (const write of writes) await store.putLedger(write);
      const receiver = syntheticAccount(100);
      const expected = writes.flatMap((write) =>
        byTxIndex(write)
          .filter((tx) => tx.affectedAccounts.some((affected) => affected.accountId.equals(receiver)))
          .map((tx) => ({ accountId: receiver, ledgerIndex: write.ledgerIndex, txIndex: tx.txIndex, direction: 1, transactionType: 'Payment' })),
      );
      expect(expected).toHaveLength(522);
      const scan = (options: AccountHistoryScan) => collect(store.backend.accountTransactionEntries(receiver, options));
      const after = (position: number) => ({ ledgerIndex: expected[position].ledgerIndex, txIndex: expected[position].txIndex });
      expect(await scan({})).toEqual(expected);
      expect(await scan({ reverse: true })).toEqual([...expected].reverse());
      expect(await scan({ limit: 501 })).toEqual(expected.slice(0, 501));
      expect(await scan({ after: after(10), limit: 505 })).toEqual(expected.slice(11, 516));
      expect(await scan({ reverse: true, after: after(515) })).toEqual(expected.slice(0, 515).reverse());
      expect(await scan({ firstLedger: 50_001 })).toEqual(expected.slice(520));
      expect(await scan({ reverse: true, lastLedger: 50_000, limit: 2 })).toEqual([expected[519], expected[518]]);
    });

    it('lists the state at a ledger in pages, each saying where to continue exactly when more objects follow', async () => {
      const store = await openStore();
      await store.putLedger(withState(100, []));
      // 70 objects, each the AccountRoot of its account (in key order, as listed).
      const objects = Array.from({ length: 70 }, (_, position) => ({
        key: Buffer.from(keylet.account(syntheticAccount(5000 + position)), 'hex'),
        blob: image('S', position),
        ledgerEntryType: 'AccountRoot',
        ownerAccountIds: [],
      })).sort((a, b) => Buffer.compare(a.key, b.key));
      await store.putStateObjects({ ledgerIndex: 100, objects, marker: Buffer.alloc(0), complete: true, abandon: false });
      const window = store.stateWindow()!;
      const page = async (afterKey: Buffer | undefined, limit: number) => {
        const listed = await store.backend.stateObjectsAt(100, window, afterKey, limit);
        return { keys: listed.objects.map((object) => object.key), nextAfterKey: listed.nextAfterKey };
      };
      const keys = objects.map((object) => object.key);
      expect(await page(undefined, 64)).toEqual({ keys: keys.slice(0, 64), nextAfterKey: keys[63] });
      expect(await page(keys[63], 64)).toEqual({ keys: keys.slice(64), nextAfterKey: undefined });
      expect(await page(undefined, 69)).toEqual({ keys: keys.slice(0, 69), nextAfterKey: keys[68] });
      expect(await page(undefined, 70)).toEqual({ keys, nextAfterKey: undefined });
      expect(await page(keys[5], 1)).toEqual({ keys: [keys[6]], nextAfterKey: keys[6] });
      expect(await page(keys[69], 1)).toEqual({ keys: [], nextAfterKey: undefined });
    });

    describe('state objects by key (GetStateObjects) and by key range (ListStateObjects)', () => {
      /**
       * Ledgers 99-103: 99 stored without complete state changes (outside the window), the download
       * at 100 (A, B, C), then A modified and B deleted and D created at 101, C deleted and B created
       * again and D modified at 102, nothing at 103. `model` is the state after each ledger.
       */
      async function versionedStore() {
        const store = await openStore();
        await store.putLedger(withState(99, [], false));
        await store.putLedger(withState(100, []));
        await store.putStateObjects({ ledgerIndex: 100, objects: ['A', 'B', 'C'].map((name) => staged(name, 0)), marker: Buffer.alloc(0), complete: true, abandon: false });
        await store.putLedger(withState(101, [change('A', StateChangeKind.MODIFIED, 0, 1), change('B', StateChangeKind.DELETED, 0, 'absent'), change('D', StateChangeKind.CREATED, 'absent', 1)]));
        await store.putLedger(withState(102, [change('C', StateChangeKind.DELETED, 0, 'absent'), change('B', StateChangeKind.CREATED, 'absent', 2), change('D', StateChangeKind.MODIFIED, 1, 2)]));
        await store.putLedger(withState(103, []));
        return store;
      }
      const named = (blob: Buffer | undefined) => blob && blob.subarray(2).toString();
      const refusal = async (promise: Promise<unknown>) => {
        const error = await failure(promise);
        return { kind: error.kind, message: error.message, details: error.details };
      };

      it('reads each key as of the ledger asked: created, modified, deleted, created again; a key never seen is absent; in the order asked', async () => {
        const store = await versionedStore();
        expect(store.stateRangeAnswered()).toEqual({ first: 100, last: 103 });
        const keys = ['A', 'B', 'C', 'D', 'Z', 'A', 'D'].map(objectKey);
        const at = async (selector: LedgerSelector) => {
          const { header, blobs } = await stateObjects(store, keys, selector);
          return { ledgerIndex: header.ledgerIndex, ledgerHash: header.ledgerHash.toString('hex'), objects: blobs.map(named) };
        };
        const hashOf = (ledgerIndex: number) => syntheticLedgerWrite(ledgerIndex, { transactionCount: 2 }).ledgerHash.toString('hex');
        expect(await at(atIndex(100))).toEqual({ ledgerIndex: 100, ledgerHash: hashOf(100), objects: ['A0', 'B0', 'C0', undefined, undefined, 'A0', undefined] });
        expect(await at(atIndex(101))).toEqual({ ledgerIndex: 101, ledgerHash: hashOf(101), objects: ['A1', undefined, 'C0', 'D1', undefined, 'A1', 'D1'] });
        expect(await at(atIndex(102))).toEqual({ ledgerIndex: 102, ledgerHash: hashOf(102), objects: ['A1', 'B2', undefined, 'D2', undefined, 'A1', 'D2'] });
        expect(await at(atIndex(103))).toEqual({ ledgerIndex: 103, ledgerHash: hashOf(103), objects: ['A1', 'B2', undefined, 'D2', undefined, 'A1', 'D2'] });
        // By hash and by tag as by index.
        expect(await at({ selector: { $case: 'hash', hash: Buffer.from(hashOf(101), 'hex') } })).toEqual(await at(atIndex(101)));
        expect(await at({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } })).toEqual(await at(atIndex(103)));
        // What GetAccountStates answers for the same object.
        expect(named((await accountState(store, objectAccount('D'), atIndex(101))).accountRootBlob)).toBe('D1');
        // No keys: the ledger alone.
        expect(await stateObjects(store, [], atIndex(102))).toMatchObject({ header: { ledgerIndex: 102 }, blobs: [] });
        // Duplicates count as keys: a thousand of one key is a call's most.
        expect((await stateObjects(store, Array.from({ length: 1000 }, () => objectKey('B')), atIndex(102))).blobs.map(named)).toEqual(Array.from({ length: 1000 }, () => 'B2'));
      });

      it('refuses a ledger outside the state window as GetAccountStates refuses it: OutOfRange with the state range', async () => {
        const store = await openStore();
        await store.putLedger(withState(100, []));
        const sameAsAccountState = async (selector: LedgerSelector) => {
          const refused = await refusal(stateObjects(store, [objectKey('A')], selector));
          expect(refused).toEqual(await refusal(accountState(store, objectAccount('A'), selector)));
          return refused;
        };
        expect(await sameAsAccountState(atIndex(100))).toEqual({
          kind: 'out_of_range',
          message: 'account state is not available: the state download has not started',
          details: { data: { state_range: null, complete_ranges: [{ first: 100, last: 100 }], state_download_ledger_index: 0 } },
        });
        await store.putStateObjects({ ledgerIndex: 100, objects: [staged('A', 0)], marker: objectKey('A'), complete: false, abandon: false });
        expect(await sameAsAccountState(atIndex(100))).toMatchObject({
          kind: 'out_of_range',
          message: 'account state is not available until the state download at ledger 100 completes (1 objects so far)',
        });
        await store.putStateObjects({ ledgerIndex: 100, objects: [staged('B', 0)], marker: Buffer.alloc(0), complete: true, abandon: false });
        await store.putLedger(withState(99, [], false));
        await store.putLedger(withState(101, []));
        expect(await sameAsAccountState(atIndex(99))).toEqual({
          kind: 'out_of_range',
          message: 'ledger 99 is outside the ledgers whose account state is stored (100-101)',
          details: { data: { state_range: { first: 100, last: 101 }, complete_ranges: [{ first: 99, last: 101 }], ledger_index: 99 } },
        });
        expect(await sameAsAccountState(atIndex(102))).toEqual({
          kind: 'out_of_range',
          message: 'the ledger asked for is not stored; account state is stored for ledgers 100-101',
          details: { data: { state_range: { first: 100, last: 101 }, complete_ranges: [{ first: 99, last: 101 }] } },
        });
        expect(await sameAsAccountState({ selector: { $case: 'hash', hash: Buffer.alloc(32, 9) } })).toMatchObject({ kind: 'out_of_range', message: expect.stringContaining('not stored') });
        expect((await stateObjects(store, [objectKey('A'), objectKey('B')], atIndex(101))).blobs.map(named)).toEqual(['A0', 'B0']);
      });

      it('refuses a key of another length, more than 1000 keys, and no ledger with InvalidParams naming the field, before the ledger is looked at', async () => {
        const store = await versionedStore();
        expect(await refusal(stateObjects(store, [objectKey('A'), Buffer.alloc(31)], atIndex(101)))).toEqual({
          kind: 'invalid_params',
          message: 'keys[1] must be 32 bytes, got 31',
          details: { param: 'keys[1]' },
        });
        expect(await refusal(stateObjects(store, [Buffer.alloc(33)], atIndex(5)))).toMatchObject({ kind: 'invalid_params', details: { param: 'keys[0]' } });
        expect(await refusal(stateObjects(store, [Buffer.alloc(0)], atIndex(101)))).toMatchObject({ kind: 'invalid_params', message: 'keys[0] must be 32 bytes, got 0' });
        expect(await refusal(stateObjects(store, Array.from({ length: 1001 }, () => objectKey('A')), atIndex(101)))).toEqual({
          kind: 'invalid_params',
          message: 'keys holds 1001 keys; at most 1000 per call',
          details: { param: 'keys' },
        });
        expect(await refusal(stateObjects(store, [objectKey('A')], undefined))).toMatchObject({ kind: 'invalid_params', details: { param: 'ledger' } });
        expect(await refusal(stateObjects(store, [objectKey('A')], { selector: { $case: 'hash', hash: Buffer.alloc(5) } }))).toMatchObject({ kind: 'invalid_params', details: { param: 'ledger.hash' } });
      });

      /** A key of the book-like range: `base` (24 fixed bytes, 8 zero) plus `offset` in its low 8 bytes, or past its end. */
      const BOOK_BASE = Buffer.concat([Buffer.alloc(23, 0x5a), Buffer.of(0x10), Buffer.alloc(8)]);
      const bookKey = (offset: bigint) => {
        const key = Buffer.from(BOOK_BASE);
        key.writeBigUInt64BE(offset, 24);
        return key;
      };
      /** base + 2^64: the first key past the book's range (rippled getQualityNext). */
      const BOOK_END = Buffer.concat([Buffer.alloc(23, 0x5a), Buffer.of(0x11), Buffer.alloc(8)]);
      const bookObject = (key: Buffer, version: number) => Buffer.from(`1100${Buffer.from(`${key.toString('hex').slice(-6)}/${version}`).toString('hex')}`, 'hex');
      const bookChange = (key: Buffer, kind: StateChangeKind, before: number | 'absent', after: number | 'absent'): StateObjectChange => ({
        key,
        kind,
        blob: after === 'absent' ? Buffer.alloc(0) : bookObject(key, after),
        previousBlob: before === 'absent' ? Buffer.alloc(0) : bookObject(key, before),
        ledgerEntryType: 'DirectoryNode',
        ownerAccountIds: [],
        accountId: Buffer.alloc(0),
      });

      /**
       * 150 objects in the book's range and 4 around it (below its base, the base itself, its end,
       * above it) downloaded at 200; at 201 every third in the range deleted, 10 created in it, and
       * the one past its end modified. Answers the store and the state after each ledger, by key.
       */
      async function bookStore() {
        const store = await openStore();
        await store.putLedger(withState(200, []));
        const inRange = Array.from({ length: 150 }, (_, position) => bookKey(BigInt(position) * 0x0102030405n + 1n));
        const around = [Buffer.concat([Buffer.alloc(23, 0x5a), Buffer.of(0x0f), Buffer.alloc(8, 0xff)]), BOOK_BASE, BOOK_END, bookKey(0n).fill(0x5b, 0, 1)];
        const snapshot = [...inRange, ...around].sort(Buffer.compare);
        await store.putStateObjects({
          ledgerIndex: 200,
          objects: snapshot.map((key) => ({ key, blob: bookObject(key, 0), ledgerEntryType: 'DirectoryNode', ownerAccountIds: [] })),
          marker: Buffer.alloc(0),
          complete: true,
          abandon: false,
        });
        const deleted = inRange.filter((_key, position) => position % 3 === 0);
        const created = Array.from({ length: 10 }, (_, position) => bookKey(BigInt(position) * 0x0a0b0c0d0e0fn + 7n));
        await store.putLedger(
          withState(201, [
            ...deleted.map((key) => bookChange(key, StateChangeKind.DELETED, 0, 'absent')),
            ...created.map((key) => bookChange(key, StateChangeKind.CREATED, 'absent', 1)),
            bookChange(BOOK_END, StateChangeKind.MODIFIED, 0, 1),
          ]),
        );
        const model = new Map<number, Map<string, Buffer>>();
        model.set(200, new Map(snapshot.map((key) => [key.toString('hex'), bookObject(key, 0)])));
        const after201 = new Map(model.get(200));
        for (const key of deleted) after201.delete(key.toString('hex'));
        for (const key of created) after201.set(key.toString('hex'), bookObject(key, 1));
        after201.set(BOOK_END.toString('hex'), bookObject(BOOK_END, 1));
        model.set(201, after201);
        return { store, model };
      }

      /** Every page of a listing of (after, before) at a ledger: its keys and blobs (hex), and how the last one ended. */
      async function pagesOf(store: LedgerStore, ledger: number | LedgerSelector, after: Buffer, before: Buffer, limit: number) {
        const pages: { keys: string[]; blobs: string[] }[] = [];
        let afterKey = after;
        for (;;) {
          const page = await listStateObjects(store, ledger, afterKey, limit, before);
          pages.push({ keys: page.objects.map((object) => object.key.toString('hex')), blobs: page.objects.map((object) => object.blob.toString('hex')) });
          if (!page.nextAfterKey) return pages;
          expect(page.nextAfterKey).toEqual(page.objects.at(-1)?.key);
          afterKey = page.nextAfterKey;
          if (pages.length > 1000) throw new Error('the listing does not end');
        }
      }
      const between = (state: Map<string, Buffer>, after: Buffer, before: Buffer) =>
        [...state.keys()].filter((key) => key > after.toString('hex') && (before.length === 0 || key < before.toString('hex'))).sort();

      it('lists exactly the keys in (after_key, before_key) at the ledger, in pages that are full but the last', async () => {
        const { store, model } = await bookStore();
        const bounds: [Buffer, Buffer][] = [
          // One order book: its base (exclusive) to base + 2^64.
          [BOOK_BASE, BOOK_END],
          // Bounds that are no stored key, a bound just past one, an upper bound alone, a lower bound alone.
          [bookKey(5n), bookKey(0x0102030405n * 40n + 2n)],
          [bookKey(0x0102030405n * 9n + 1n), bookKey(0x0102030405n * 10n + 2n)],
          [Buffer.alloc(0), BOOK_END],
          [BOOK_BASE, Buffer.alloc(0)],
        ];
        for (const ledgerIndex of [200, 201]) {
          for (const [after, before] of bounds) {
            const expected = between(model.get(ledgerIndex)!, after, before);
            for (const limit of [1, 7, 64, 65, 0]) {
              const pages = await pagesOf(store, ledgerIndex, after, before, limit);
              const keys = pages.flatMap((page) => page.keys);
              expect({ ledgerIndex, after: after.toString('hex'), before: before.toString('hex'), limit, keys }).toEqual({
                ledgerIndex,
                after: after.toString('hex'),
                before: before.toString('hex'),
                limit,
                keys: expected,
              });
              expect(pages.flatMap((page) => page.blobs)).toEqual(expected.map((key) => model.get(ledgerIndex)!.get(key)!.toString('hex')));
              for (const page of pages.slice(0, -1)) expect(page.keys).toHaveLength(limit === 0 ? MAX_STATE_OBJECTS_PER_LIST : limit);
            }
          }
        }
        // The book at 201: deletions and creations inside it, the modified object at its end outside it.
        const book = await listStateObjects(store, 201, BOOK_BASE, 0, BOOK_END);
        expect(book.objects).toHaveLength(150 - 50 + 10);
        expect(book.nextAfterKey).toBeUndefined();
        // A range with nothing in it, and one whose bounds cross.
        expect(await listStateObjects(store, 201, bookKey(2n), 0, bookKey(3n))).toMatchObject({ objects: [], nextAfterKey: undefined });
        expect(await listStateObjects(store, 201, BOOK_END, 0, BOOK_BASE)).toMatchObject({ objects: [], nextAfterKey: undefined });
      });

      it('names the ledger listed (by index or selector, refused outside the window as GetStateObjects is) and refuses malformed bounds', async () => {
        const { store, model } = await bookStore();
        const write201 = withState(201, []);
        const bySelector = await listStateObjects(store, { selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, BOOK_BASE, 10, BOOK_END);
        expect({ ledgerIndex: bySelector.ledgerIndex, ledgerHash: bySelector.ledgerHash, keys: bySelector.objects.map((object) => object.key.toString('hex')) }).toEqual({
          ledgerIndex: 201,
          ledgerHash: write201.ledgerHash,
          keys: between(model.get(201)!, BOOK_BASE, BOOK_END).slice(0, 10),
        });
        const byIndex = await listStateObjects(store, 201, BOOK_BASE, 10, BOOK_END);
        expect(byIndex).toEqual(bySelector);
        expect(await pagesOf(store, { selector: { $case: 'hash', hash: withState(200, []).ledgerHash } }, BOOK_BASE, BOOK_END, 9)).toEqual(await pagesOf(store, 200, BOOK_BASE, BOOK_END, 9));

        const refusalAt = (selector: LedgerSelector) => refusal(listStateObjects(store, selector, Buffer.alloc(0), 1, BOOK_END));
        for (const selector of [atIndex(199), atIndex(202), { selector: { $case: 'hash' as const, hash: Buffer.alloc(32, 3) } }]) {
          expect(await refusalAt(selector)).toEqual(await refusal(stateObjects(store, [BOOK_BASE], selector)));
        }
        expect(await refusalAt(atIndex(202))).toMatchObject({ kind: 'out_of_range' });
        expect(await refusal(listStateObjects(store, 202, Buffer.alloc(0), 1))).toMatchObject({
          kind: 'out_of_range',
          message: 'ledger 202 is outside the ledgers whose account state is stored (200-201)',
        });
        expect(await refusal(listStateObjects(store, 201, Buffer.alloc(0), 1, Buffer.alloc(5)))).toEqual({
          kind: 'invalid_params',
          message: 'before_key must be empty or 32 bytes, got 5',
          details: { param: 'before_key' },
        });
        expect(await refusal(listStateObjects(store, 201, Buffer.alloc(33), 1, BOOK_END))).toMatchObject({ kind: 'invalid_params', details: { param: 'after_key' } });
        expect(await refusal(listStateObjects(store, 201, Buffer.alloc(0), MAX_STATE_OBJECTS_PER_LIST + 1, BOOK_END))).toMatchObject({ kind: 'invalid_params', details: { param: 'limit' } });
        expect(() => listedLedger({ ledgerIndex: 201, ledger: atIndex(201) })).toThrow(/by ledger_index or by ledger, not both/);
        expect(listedLedger({ ledgerIndex: 0, ledger: atIndex(201) })).toEqual(atIndex(201));
        expect(listedLedger({ ledgerIndex: 201, ledger: undefined })).toBe(201);
      });

      it('lists one key range of a running download at its own ledger, for the downloader', async () => {
        const store = await openStore();
        await store.putLedger(withState(300, []));
        const keys = Array.from({ length: 20 }, (_, position) => bookKey(BigInt(position) * 1000n + 1n)).sort(Buffer.compare);
        const objects = keys.map((key) => ({ key, blob: bookObject(key, 0), ledgerEntryType: 'DirectoryNode', ownerAccountIds: [] }));
        await store.putStateObjects({ ledgerIndex: 300, objects, marker: keys.at(-1)!, complete: false, abandon: false });
        const page = await listStateObjects(store, 300, keys[2], 0, keys[9]);
        expect({ keys: page.objects.map((object) => object.key), next: page.nextAfterKey, ledgerIndex: page.ledgerIndex, ledgerHash: page.ledgerHash }).toEqual({
          keys: keys.slice(3, 9),
          next: undefined,
          ledgerIndex: 300,
          ledgerHash: withState(300, []).ledgerHash,
        });
        expect((await pagesOf(store, 300, keys[2], keys[9], 4)).flatMap((listed) => listed.keys)).toEqual(keys.slice(3, 9).map((key) => key.toString('hex')));
        // Not by selector: a selector reads only the complete state.
        expect(await refusal(listStateObjects(store, atIndex(300), Buffer.alloc(0), 0, keys[9]))).toMatchObject({ kind: 'out_of_range', message: expect.stringContaining('until the state download at ledger 300 completes') });
      });
    });

    it('answers every read as the key-value layout does after writes of every kind', async () => {
      const store = await openStore();
      // The reference is the key-value backend on RocksDB (the memory one lists by sorting every key: too slow for these reads).
      const { dir, remove } = tempDir('ledger-store-reference-');
      cleanups.push(remove);
      const reference = await LedgerStore.open(new KvLedgerBackend(await openRocksDb(`${dir}/node.db`)));
      cleanups.push(() => reference.close());
      const stagedPages = async (backend: LedgerBackend) => [
        await backend.stagedStateObjects(undefined, 2),
        await backend.stagedStateObjects(objectKey('A'), 2),
        await backend.stagedStateObjects(undefined, 100),
        ...(await Promise.all('ABT'.split('').map((name) => backend.stagedStateObjects(undefined, 100, objectKey(name))))),
        ...(await Promise.all('ABT'.split('').map((name) => backend.stagedStateObjects(objectKey(name), 100, objectKey('T'))))),
      ];
      await writeEveryKind([store, reference], async () => expect(await stagedPages(store.backend)).toEqual(await stagedPages(reference.backend)));

      const writes = [...MAINNET_RUN.map(mainnetLedgerWrite), syntheticLedgerWrite(NEXT_BLOCK_LEDGER, { transactionCount: 5 }), syntheticLedgerWrite(REMOVED_LEDGER, { transactionCount: 5 })];
      const unique = (buffers: Buffer[]) => [...new Map(buffers.map((buffer) => [buffer.toString('hex'), buffer])).values()];
      // Every other account the ledgers touch (some 40), the objects' accounts, the trust line's sides and an account never seen.
      const touched = unique(writes.flatMap((write) => write.transactions.flatMap((tx) => [tx.senderAccountId, ...tx.affectedAccounts.map((affected) => affected.accountId)])));
      const accounts = unique([...touched.filter((_account, position) => position % 2 === 0), ...'ABCDETX'.split('').map(objectAccount), ...LINE_SIDES, syntheticAccount(424242)]);
      const window = store.stateWindow()!;
      expect(window).toEqual({ low: 10, high: 19, snapshotLedgerIndex: 15 });
      const mainnetWindows: StateWindow[] = [
        { low: 11119598, high: 11119604, snapshotLedgerIndex: 11119601 },
        { low: 11119601, high: 11119601, snapshotLedgerIndex: 11119601 },
        { low: 0, high: MAX_U32, snapshotLedgerIndex: 11119600 },
      ];
      // Every third object the mainnet run changed (some 80: created, changed, deleted, trust lines).
      const mainnetKeys = unique(writes.slice(0, MAINNET_RUN.length).flatMap((write) => write.stateChanges.map((stateChange) => stateChange.key))).filter((_key, position) => position % 3 === 0);
      const scans: AccountHistoryScan[] = [
        {},
        { reverse: true },
        { limit: 3 },
        { reverse: true, limit: 3 },
        { limit: 501 },
        { firstLedger: 11119600, lastLedger: 11119602 },
        { reverse: true, firstLedger: 11119600, lastLedger: 11119602 },
        { firstLedger: 11119603, lastLedger: 11119600 },
        { after: { ledgerIndex: 11119601, txIndex: 5 } },
        { reverse: true, after: { ledgerIndex: 11119601, txIndex: 5 } },
        { after: { ledgerIndex: 1, txIndex: 0 }, firstLedger: 11119601 },
        { after: { ledgerIndex: NEXT_BLOCK_LEDGER, txIndex: 1000 }, limit: 600 },
        { reverse: true, after: { ledgerIndex: NEXT_BLOCK_LEDGER, txIndex: 1000 } },
        { after: { ledgerIndex: MAX_U32, txIndex: MAX_U32 } },
        { reverse: true, after: { ledgerIndex: 0, txIndex: 0 } },
      ];
      const sentUpTo = [0, 10, 11119598, 11119599, 11119601, 11119604, NEXT_BLOCK_LEDGER - 6, NEXT_BLOCK_LEDGER, REMOVED_LEDGER, MAX_U32];

      const reads: Record<string, (backend: LedgerBackend) => Promise<unknown>> = {
        bookkeeping: (backend) => backend.bookkeeping(),
        headers: async (backend) => [
          await backend.headersBetween(0, MAX_U32),
          await backend.headersBetween(11119600, 11119603, 2),
          await backend.headers([11119604, 5, 11119599, 11119599, REMOVED_LEDGER]),
          await Promise.all([...writes.map((write) => write.ledgerHash), Buffer.alloc(32, 7)].map((ledgerHash) => backend.ledgerIndexOfHash(ledgerHash))),
        ],
        'ledger transactions': (backend) =>
          Promise.all(
            [...MAINNET_RUN, NEXT_BLOCK_LEDGER, REMOVED_LEDGER, 15].map(async (ledgerIndex) => [
              await backend.ledgerTransactionHashes(ledgerIndex),
              await backend.transactionHashAt(ledgerIndex, 0),
              await backend.transactionHashAt(ledgerIndex, 5),
              await backend.transactionHashAt(ledgerIndex, 9999),
            ]),
          ),
        transactions: (backend) => backend.transactions([...writes.flatMap((write) => write.transactions.map((tx) => tx.hash)), Buffer.alloc(32, 7)]),
        'account history': (backend) => Promise.all(accounts.map((account) => Promise.all(scans.map((scan) => collect(backend.accountTransactionEntries(account, scan)))))),
        'sent counts': (backend) => Promise.all(accounts.map((account) => Promise.all(sentUpTo.map((ledgerIndex) => backend.sentUpTo(account, ledgerIndex))))),
        'account creations': (backend) => Promise.all(accounts.map((account) => Promise.all([10, 12, 13, 15, 20, MAX_U32].map((ledgerIndex) => backend.accountCreatedAtOrBelow(account, ledgerIndex))))),
        'trust lines': (backend) => Promise.all(accounts.map((account) => backend.trustLineKeys(account))),
        'objects at ledgers 9-20': (backend) =>
          Promise.all('ABCDETX'.split('').flatMap((name) => Array.from({ length: 12 }, (_, step) => backend.stateObjectAt(objectKey(name), 9 + step, window)))),
        'objects at the mainnet ledgers': (backend) =>
          Promise.all(
            mainnetWindows.flatMap((mainnetWindow) =>
              mainnetKeys.flatMap((key) => Array.from({ length: 8 }, (_, step) => backend.stateObjectAt(key, 11119598 + step, mainnetWindow))),
            ),
          ),
        'objects by key': (backend) =>
          Promise.all([
            ...Array.from({ length: 12 }, (_, step) => backend.stateObjectsByKey([...'ABCDETXA'.split('').map(objectKey), Buffer.alloc(32, 7)], 9 + step, window)),
            ...mainnetWindows.flatMap((mainnetWindow) => Array.from({ length: 8 }, (_, step) => backend.stateObjectsByKey([...mainnetKeys, mainnetKeys[3]], 11119598 + step, mainnetWindow))),
            backend.stateObjectsByKey([], 15, window),
          ]),
        'listings of a key range': (backend) => {
          const sortedKeys = [...mainnetKeys].sort(Buffer.compare);
          const [quarter, half] = [Math.floor(sortedKeys.length / 4), Math.floor(sortedKeys.length / 2)];
          const ranges: [Buffer | undefined, Buffer][] = [
            [undefined, sortedKeys[half]],
            [sortedKeys[quarter], sortedKeys[half]],
            [sortedKeys[quarter], sortedKeys[quarter + 1]],
            [sortedKeys[half], sortedKeys[quarter]],
          ];
          return Promise.all(
            mainnetWindows.flatMap((mainnetWindow) =>
              [11119599, 11119601, 11119603].flatMap((ledgerIndex) => ranges.flatMap(([after, before]) => [3, 1000].map((limit) => backend.stateObjectsAt(ledgerIndex, mainnetWindow, after, limit, before)))),
            ),
          );
        },
        listings: async (backend) => [
          ...(await Promise.all([9, 10, 14, 15, 16, 19, 20].flatMap((ledgerIndex) => [listing(backend, ledgerIndex, window, 2), listing(backend, ledgerIndex, window, 1000)]))),
          ...(await Promise.all(
            mainnetWindows.flatMap((mainnetWindow) => [11119599, 11119601, 11119603].flatMap((ledgerIndex) => [listing(backend, ledgerIndex, mainnetWindow, 7), listing(backend, ledgerIndex, mainnetWindow, 1000)])),
          )),
          await listing(backend, 11119601, mainnetWindows[0], 1, 30),
          await backend.stateObjectsAt(11119601, mainnetWindows[0], mainnetKeys[17], 5),
        ],
      };
      for (const [name, read] of Object.entries(reads)) expect([name, await read(store.backend)]).toEqual([name, await read(reference.backend)]);

      // The listings above are of several pages, with objects.
      expect((await listing(store.backend, 11119601, mainnetWindows[0], 7)).length).toBeGreaterThan(3);
      expect((await listing(store.backend, 16, window, 1000))[0].keys).toHaveLength(5);
    });
  });

  /** Each table of the PostgreSQL schema (pg/001_initial.sql to pg/005_account_numbers.sql). */
  const PG_TABLES = [
    'account_creations',
    'account_ledger_entries',
    'account_sent_by_block',
    'account_sent_by_ledger',
    'accounts',
    'ledger_evidence',
    'ledger_hashes',
    'ledger_transactions',
    'ledgers',
    'manifests',
    'nft_states',
    'nft_transactions',
    'schema_migrations',
    'staged_state',
    'state_versions',
    'store_meta',
    'transaction_groups',
    'transaction_hashes',
    'transaction_types',
    'trust_lines',
    'validator_lists',
    'writer_epoch',
  ];

  /** The versions of the migration files, in order. */
  const migrationVersions = () =>
    readdirSync(new URL('./backend/pg/', import.meta.url))
      .filter((file) => file.endsWith('.sql'))
      .sort()
      .map((file) => Number(file.split('_')[0]));

  /** Every row of every table, in a stable order. */
  async function everyRow(sql: pg.Pool): Promise<Record<string, unknown[]>> {
    const tables = await Promise.all(PG_TABLES.map(async (table) => [table, (await sql.query(`SELECT * FROM ${table} ORDER BY ${table}::text`)).rows] as const));
    return Object.fromEntries(tables);
  }

  // Only PostgreSQL has migrations.
  if (engineName === 'PostgreSQL') describe('PgLedgerBackend', () => {
    it('brings a new database to its schema once, migration by migration in order, when several processes open it at once', async () => {
      const database = await postgres.createDatabase();
      const backends = await Promise.all([1, 2, 3].map(() => PgLedgerBackend.open(database)));
      backends.forEach((backend) => cleanups.push(() => backend.close()));
      const reopened = await PgLedgerBackend.open(database);
      cleanups.push(() => reopened.close());
      const sql = sqlSession(database);
      const applied = (await sql.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version')).rows;
      const files = readdirSync(new URL('./backend/pg/', import.meta.url)).filter((file) => file.endsWith('.sql')).sort();
      expect(applied).toEqual(files.map((name) => ({ version: Number(name.split('_')[0]), name })));
      const tables = (await sql.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)).rows;
      expect(tables.map((table) => table.tablename)).toEqual(PG_TABLES);
    });

    it('migrates a database of schema 2: the transactions it holds read as they were written, and those written from then on are kept in compressed groups', async () => {
      // A database as the release before pg/003_compact_transactions.sql left it, holding a transaction.
      const database = await postgres.createSchema();
      const sql = sqlSession(database);
      await sql.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const name of ['001_initial.sql', '002_evidence.sql']) {
        await sql.query(readFileSync(new URL(`./backend/pg/${name}`, import.meta.url), 'utf8'));
        await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [Number(name.slice(0, 3)), name]);
      }
      const old = mainnetLedgerWrite(11119599).transactions[0]!;
      await sql.query('SELECT ledger_partitions_cover(11119599, 11119599, 1000000)');
      await sql.query(
        `INSERT INTO ledger_transactions (ledger_index, tx_index, hash, engine_result, transaction_type, tx_blob, meta_blob) VALUES (11119599, $1, $2, $3, $4, $5, $6)`,
        [old.txIndex, old.hash, old.engineResult, old.transactionType, old.txBlob, old.metaBlob],
      );
      await sql.query('INSERT INTO transactions (hash, ledger_index, tx_index) VALUES ($1, 11119599, $2)', [old.hash, old.txIndex]);

      const backend = await PgLedgerBackend.open(database);
      cleanups.push(() => backend.close());
      expect((await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((row) => row.version)).toEqual(migrationVersions());
      const [readOld] = await backend.transactions([old.hash]);
      expect(readOld).toEqual({ hash: old.hash, ledgerIndex: 11119599, txIndex: old.txIndex, engineResult: old.engineResult, transactionType: old.transactionType, txBlob: old.txBlob, metaBlob: old.metaBlob });

      const store = await LedgerStore.open(backend);
      const write = mainnetLedgerWrite(11119600);
      await store.putLedger(write);
      const read = await backend.transactions(write.transactions.map((tx) => tx.hash));
      expect(read.map((tx) => [tx?.txBlob, tx?.metaBlob])).toEqual(write.transactions.map((tx) => [tx.txBlob, tx.metaBlob]));
      const { rows } = await sql.query<{ ungrouped: number; grouped: number; record_bytes: string }>(
        `SELECT (SELECT count(*) FROM ledger_transactions WHERE ledger_index = 11119600)::int AS ungrouped, (sum(octet_length(hashes)) / 33)::int AS grouped,
          sum(octet_length(record)) AS record_bytes FROM transaction_groups WHERE ledger_index = 11119600`,
      );
      const blobBytes = write.transactions.reduce((sum, tx) => sum + tx.txBlob.length + tx.metaBlob.length, 0);
      expect(rows[0]).toMatchObject({ ungrouped: 0, grouped: write.transactions.length });
      expect(Number(rows[0]!.record_bytes)).toBeLessThan(blobBytes * 0.6);
    });

    it('migrates a database of schema 4: its account index and sent counts carried over to account numbers read as they were written, its hash lookups kept', async () => {
      // A database as the release before pg/005_account_numbers.sql left it, holding the mainnet run's index rows.
      const database = await postgres.createSchema();
      const sql = sqlSession(database);
      await sql.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const name of ['001_initial.sql', '002_evidence.sql', '003_compact_transactions.sql', '004_nfts.sql']) {
        await sql.query(readFileSync(new URL(`./backend/pg/${name}`, import.meta.url), 'utf8'));
        await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [Number(name.slice(0, 3)), name]);
      }
      await sql.query(`INSERT INTO store_meta (name, value) VALUES ('ledgers_per_partition', convert_to('1000000', 'UTF8'))`);
      await sql.query(`SELECT ledger_partitions_cover(${MAINNET_RUN[0]}, ${MAINNET_RUN.at(-1)}, 1000000)`);
      const reference = await LedgerStore.open(new KvLedgerBackend(memoryKeyValue(), 'the database in memory'));
      cleanups.push(() => reference.close());
      const writes = MAINNET_RUN.map((ledgerIndex) => mainnetLedgerWrite(ledgerIndex));
      for (const write of writes) {
        await reference.putLedger(write);
        const entries = write.transactions.flatMap((tx) => accountSides(tx).map((side) => [side.accountId, tx.txIndex, side.direction, tx.transactionType] as const));
        await sql.query(
          `INSERT INTO account_transactions (account_id, ledger_index, tx_index, direction, transaction_type) SELECT account_id, $2, tx_index, direction, transaction_type
            FROM unnest($1::bytea[], $3::bigint[], $4::smallint[], $5::text[]) AS rows (account_id, tx_index, direction, transaction_type)`,
          [entries.map((entry) => entry[0]), write.ledgerIndex, entries.map((entry) => entry[1]), entries.map((entry) => entry[2]), entries.map((entry) => entry[3])],
        );
        const senders = sendersOf(write);
        await sql.query('INSERT INTO account_sent (account_id, ledger_index, sent) SELECT * FROM unnest($1::bytea[], $2::bigint[], $3::bigint[])', [
          senders.map((sender) => sender.accountId),
          senders.map(() => write.ledgerIndex),
          senders.map((sender) => sender.sent),
        ]);
        await sql.query(
          `INSERT INTO account_sent_blocks (account_id, block, sent) SELECT account_id, $2, sent FROM unnest($1::bytea[], $3::bigint[]) AS rows (account_id, sent)
            ON CONFLICT (account_id, block) DO UPDATE SET sent = account_sent_blocks.sent + EXCLUDED.sent`,
          [senders.map((sender) => sender.accountId), write.ledgerIndex >> 16, senders.map((sender) => sender.sent)],
        );
      }
      const looked = writes[1]!.transactions[3]!;
      await sql.query('INSERT INTO transactions (hash, ledger_index, tx_index) VALUES ($1, $2, $3)', [looked.hash, writes[1]!.ledgerIndex, looked.txIndex]);

      const backend = await PgLedgerBackend.open(database);
      cleanups.push(() => backend.close());
      expect((await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((row) => row.version)).toEqual(migrationVersions());
      const tables = (await sql.query<{ tablename: string }>(`SELECT relname AS tablename FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname LIKE 'account%' AND relkind IN ('r', 'p') AND NOT relispartition ORDER BY 1`)).rows;
      expect(tables.map((table) => table.tablename)).toEqual(['account_creations', 'account_ledger_entries', 'account_sent_by_block', 'account_sent_by_ledger', 'accounts']);
      const accounts = [...new Map(writes.flatMap((write) => write.transactions.flatMap((tx) => accountSides(tx).map((side) => [side.accountId.toString('hex'), side.accountId] as const)))).values()];
      expect(accounts.length).toBeGreaterThan(20);
      const reads = (from: LedgerBackend) =>
        Promise.all(
          accounts.map(async (account) => [
            await collect(from.accountTransactionEntries(account, {})),
            await collect(from.accountTransactionEntries(account, { reverse: true, limit: 2 })),
            await from.sentUpTo(account, MAINNET_RUN[2]!),
            await from.sentUpTo(account, MAX_U32),
          ]),
        );
      expect(await reads(backend)).toEqual(await reads(reference.backend));
      const { rows } = await sql.query<{ hash_prefix: string; position: string }>('SELECT hash_prefix, position FROM transaction_hashes');
      expect(rows).toEqual([{ hash_prefix: String(looked.hash.readBigInt64BE(0)), position: String(((BigInt(writes[1]!.ledgerIndex) - 2n ** 31n) << 32n) + BigInt(looked.txIndex)) }]);
    });

    /** Counters that removing a test's ledgers leaves positive (the backend keeps what it is given). */
    const counters = { ledgerCount: 100n, transactionCount: 10_000n, stateObjectVersionCount: 10_000n, evidenceLedgerCount: 100n };

    it('migrates a database of schema 5: the transactions it holds, each a record of its own, read as they were written, by hash, by ledger and by place', async () => {
      // A database as the release before pg/006_transaction_groups.sql left it, holding the mainnet run's transactions.
      const database = await postgres.createSchema();
      const sql = sqlSession(database);
      await sql.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const name of ['001_initial.sql', '002_evidence.sql', '003_compact_transactions.sql', '004_nfts.sql', '005_account_numbers.sql']) {
        await sql.query(readFileSync(new URL(`./backend/pg/${name}`, import.meta.url), 'utf8'));
        await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [Number(name.slice(0, 3)), name]);
      }
      await sql.query(`INSERT INTO store_meta (name, value) VALUES ('ledgers_per_partition', convert_to('1000000', 'UTF8'))`);
      await sql.query(`SELECT ledger_partitions_cover(${MAINNET_RUN[0]}, ${MAINNET_RUN.at(-1)}, 1000000)`);
      const writes = MAINNET_RUN.map((ledgerIndex) => mainnetLedgerWrite(ledgerIndex));
      // pg/003's record: a codec byte (1: deflated), result and type (u16 length each), the blob (u32 length), the metadata.
      const recordOf = (tx: TransactionWrite) => {
        const text = (value: string) => Buffer.concat([Buffer.of(0, value.length), Buffer.from(value)]);
        const blobLength = Buffer.alloc(4);
        blobLength.writeUInt32BE(tx.txBlob.length);
        return Buffer.concat([Buffer.of(1), deflateRawSync(Buffer.concat([text(tx.engineResult), text(tx.transactionType), blobLength, tx.txBlob, tx.metaBlob]))]);
      };
      for (const write of writes) {
        await sql.query(
          `INSERT INTO ledger_transactions (ledger_index, tx_index, hash, record) SELECT $1, tx_index, hash, record FROM unnest($2::bigint[], $3::bytea[], $4::bytea[]) AS rows (tx_index, hash, record)`,
          [write.ledgerIndex, write.transactions.map((tx) => tx.txIndex), write.transactions.map((tx) => tx.hash), write.transactions.map(recordOf)],
        );
        await sql.query('INSERT INTO transactions (hash, ledger_index, tx_index) SELECT hash, $2, tx_index FROM unnest($1::bytea[], $3::bigint[]) AS rows (hash, tx_index)', [
          write.transactions.map((tx) => tx.hash),
          write.ledgerIndex,
          write.transactions.map((tx) => tx.txIndex),
        ]);
      }

      const backend = await PgLedgerBackend.open(database);
      cleanups.push(() => backend.close());
      expect((await sql.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((row) => row.version)).toEqual(migrationVersions());
      const stored = (write: LedgerWrite) =>
        write.transactions.map((tx) => ({ hash: tx.hash, ledgerIndex: write.ledgerIndex, txIndex: tx.txIndex, engineResult: tx.engineResult, transactionType: tx.transactionType, txBlob: tx.txBlob, metaBlob: tx.metaBlob }));
      const byTxIndexOf = (write: LedgerWrite) => [...write.transactions].sort((a, b) => a.txIndex - b.txIndex);
      for (const write of writes) {
        expect(await backend.transactions(write.transactions.map((tx) => tx.hash))).toEqual(stored(write));
        expect(await backend.ledgerTransactionHashes(write.ledgerIndex)).toEqual(byTxIndexOf(write).map((tx) => tx.hash));
        expect(await backend.transactionHashAt(write.ledgerIndex, write.transactions[1]!.txIndex)).toEqual(write.transactions[1]!.hash);
      }
      expect(await backend.transactions([Buffer.alloc(32, 7)])).toEqual([undefined]);

      // Removed and written again, a ledger is kept in groups, and reads the same.
      const again = writes[1]!;
      const header = { ledgerIndex: again.ledgerIndex, ledgerHash: again.ledgerHash, header: again.headerBlob, transactionCount: again.transactions.length };
      await backend.removeLedger(again, header, { completeRanges: [] }, counters);
      expect(await backend.transactions(again.transactions.map((tx) => tx.hash))).toEqual(again.transactions.map(() => undefined));
      await backend.addLedgers([again], { completeRanges: [] }, counters);
      const { rows } = await sql.query<{ ungrouped: number; grouped: number }>(
        'SELECT (SELECT count(*) FROM ledger_transactions WHERE ledger_index = $1)::int AS ungrouped, (SELECT sum(octet_length(hashes)) / 33 FROM transaction_groups WHERE ledger_index = $1)::int AS grouped',
        [again.ledgerIndex],
      );
      expect(rows[0]).toEqual({ ungrouped: 0, grouped: again.transactions.length });
      expect(await backend.transactions([writes[0]!.transactions[0]!.hash, ...again.transactions.map((tx) => tx.hash)])).toEqual([stored(writes[0]!)[0], ...stored(again)]);
      expect(await backend.ledgerTransactionHashes(again.ledgerIndex)).toEqual(byTxIndexOf(again).map((tx) => tx.hash));
    });

    it('finds a transaction by its whole hash where another starts with the same 8 bytes, and a hash stored in two ledgers in the later one until it is removed', async () => {
      const backend = await PgLedgerBackend.open(await postgres.createSchema());
      cleanups.push(() => backend.close());
      const [first, second] = [syntheticLedgerWrite(11119599, { transactionCount: 40 }), syntheticLedgerWrite(11119600, { transactionCount: 3 })];
      // The second ledger's first transaction shares its first 8 bytes with one of the first ledger, its third is one of the first's.
      second.transactions[0]!.hash = Buffer.concat([first.transactions[35]!.hash.subarray(0, 8), Buffer.alloc(24, 0xab)]);
      second.transactions[2]!.hash = first.transactions[3]!.hash;
      await backend.addLedgers([first, second], { completeRanges: [] }, counters);
      const place = (tx: { ledgerIndex: number; txIndex: number; hash: Buffer } | undefined) => tx && `${tx.ledgerIndex}/${tx.txIndex}/${tx.hash.toString('hex').slice(0, 20)}`;
      const asked = [first.transactions[35]!.hash, second.transactions[0]!.hash, first.transactions[3]!.hash, Buffer.concat([first.transactions[35]!.hash.subarray(0, 8), Buffer.alloc(24)])];
      expect((await backend.transactions(asked)).map(place)).toEqual([
        `11119599/${first.transactions[35]!.txIndex}/${asked[0]!.toString('hex').slice(0, 20)}`,
        `11119600/${second.transactions[0]!.txIndex}/${asked[1]!.toString('hex').slice(0, 20)}`,
        `11119600/${second.transactions[2]!.txIndex}/${asked[2]!.toString('hex').slice(0, 20)}`,
        undefined,
      ]);
      expect((await backend.transactions([asked[0]!]))[0]?.txBlob).toEqual(first.transactions[35]!.txBlob);
      expect((await backend.transactions([asked[1]!]))[0]?.txBlob).toEqual(second.transactions[0]!.txBlob);
      const stored = await backend.header(11119600);
      await backend.removeLedger(second, stored!, { completeRanges: [] }, counters);
      expect((await backend.transactions(asked)).map(place)).toEqual([
        `11119599/${first.transactions[35]!.txIndex}/${asked[0]!.toString('hex').slice(0, 20)}`,
        undefined,
        `11119599/${first.transactions[3]!.txIndex}/${asked[2]!.toString('hex').slice(0, 20)}`,
        undefined,
      ]);
    });

    it('names its database by user, host, port and name, never by its password, in its location and its errors', async () => {
      const database = await postgres.createSchema();
      const backend = await PgLedgerBackend.open(database);
      cleanups.push(() => backend.close());
      const location = `the PostgreSQL database at postgres://postgres:***@127.0.0.1:${database.port}/${database.database}`;
      expect(backend.location).toBe(location);
      expect(describeTarget(`postgres://ledger:${database.password}@db.internal:5433/ledgers?sslmode=require&password=${database.password}`)).toBe(
        'the PostgreSQL database at postgres://ledger:***@db.internal:5433/ledgers',
      );
      const refused = await rejectionOf<Error>(PgLedgerBackend.open({ ...database, password: `${database.password}-wrong` }));
      expect(refused.message).toBe(`cannot open ${location}: password authentication failed for user "postgres"`);
    });

    it('lets a write of an earlier writer in flight at a takeover commit before the new writer reads the bookkeeping, and fails every later one', async () => {
      const database = await postgres.createSchema();
      const earlier = await PgLedgerBackend.open(database);
      await earlier.fence();
      const earlierStore = await LedgerStore.open(earlier);
      cleanups.push(() => earlierStore.close());
      await earlierStore.putLedger(mainnetLedgerWrite(11119599));

      // The earlier writer's next write waits (for the test's lock on the account index) while a new writer takes over.
      const sql = sqlSession(database);
      const blocker = await sql.connect();
      cleanups.push(() => blocker.release());
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE account_ledger_entries IN EXCLUSIVE MODE');
      const inFlight = earlierStore.putLedger(mainnetLedgerWrite(11119600));
      await waitUntil(
        async () => (await sql.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO account_ledger_entries%'`)).rowCount === 1 || undefined,
        10_000,
        'the write to wait for the account index',
        20,
      );
      const next = await PgLedgerBackend.open(database);
      let fenced = false;
      const fencing = next.fence().then(() => (fenced = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fenced).toBe(false);
      await blocker.query('ROLLBACK');
      expect(await inFlight).toBe(true);
      await fencing;
      const nextStore = await LedgerStore.open(next);
      cleanups.push(() => nextStore.close());
      expect(nextStore.ranges).toEqual([{ first: 11119599, last: 11119600 }]);

      const refused = await failure(earlierStore.putLedger(mainnetLedgerWrite(11119601)));
      expect([refused.kind, refused.message]).toEqual(['unavailable', `${earlier.location}: another ledger-store took over as the writer; this ledger-store no longer writes`]);
      expect(await nextStore.putLedger(mainnetLedgerWrite(11119601))).toBe(true);
      expect((await next.bookkeeping()).completeRanges).toEqual([{ first: 11119599, last: 11119601 }]);
    });

    it('leaves nothing of a ledger whose write was cut half-way, and takes it whole afterwards', async () => {
      const database = await postgres.createSchema();
      const store = await LedgerStore.open(await PgLedgerBackend.open(database));
      cleanups.push(() => store.close());
      await store.putLedger(mainnetLedgerWrite(11119599));
      const sql = sqlSession(database);
      const rowsBefore = await everyRow(sql);
      const bookkeepingBefore = await store.backend.bookkeeping();

      // A session of the test's own holds the account index: the write stores the ledger's header and
      // transactions in its transaction, then waits to add the index entries, and is cut there.
      const blocker = await sql.connect();
      cleanups.push(() => blocker.release());
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE account_ledger_entries IN EXCLUSIVE MODE');
      const write = syntheticLedgerWrite(11119600, { transactionCount: 2000 });
      // Its failure is awaited once the write is cut, and heard from now on.
      const cutWrite = failure(store.putLedger(write));
      const writer = await waitUntil(
        async () =>
          (
            await sql.query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO account_ledger_entries%'`,
            )
          ).rows[0]?.pid,
        10_000,
        'the write to wait for the account index',
        20,
      );
      const written = (await sql.query<{ name: string }>(`SELECT relation::regclass::text AS name FROM pg_locks WHERE pid = $1 AND mode = 'RowExclusiveLock' AND granted`, [writer])).rows;
      expect(written.map((lock) => lock.name)).toEqual(expect.arrayContaining(['ledgers', 'transaction_hashes', 'transaction_groups']));
      await sql.query('SELECT pg_terminate_backend($1)', [writer]);
      await blocker.query('ROLLBACK');

      const cut = await cutWrite;
      expect(cut.kind).toBe('unavailable');
      expect(cut.message).toBe(`${store.backend.location} cannot be reached: terminating connection due to administrator command`);
      expect(await everyRow(sql)).toEqual(rowsBefore);
      expect(await store.backend.bookkeeping()).toEqual(bookkeepingBefore);
      expect(store.ranges).toEqual(bookkeepingBefore.completeRanges);
      expect(await store.getLedger({ selector: { $case: 'index', index: 11119600 } }, TxDetail.NONE)).toBeUndefined();

      // The store goes on over a new connection and takes the ledger whole.
      expect(await store.putLedger(write)).toBe(true);
      expect((await store.status()).counters).toMatchObject({ ledgerCount: 2n, transactionCount: 19n + 2000n });
      expect((await store.getLedger({ selector: { $case: 'index', index: 11119600 } }, TxDetail.HASHES))?.transactionHashes).toHaveLength(2000);
      expect(await collect(store.backend.accountTransactionEntries(write.transactions[0].senderAccountId, { firstLedger: 11119600 }))).toHaveLength(
        write.transactions.filter((tx) => tx.senderAccountId.equals(write.transactions[0].senderAccountId)).length,
      );
    });
  });

  describe.each(engines)('bounded history (-ledger_history) on %s', (name, createEngine) => {
    /** The sender and accounts of a stored transaction, re-derived from its bytes as sync derives them. */
    const indexOfMainnet: HistoryOptions['indexOf'] = (tx, position) => indexTransactionOrPlaceholder(tx.txBlob, tx.metaBlob, profile, position).index;

    /** Opens the engine's store with history bounded to `ledgers`; resolves `settled` once nothing is left to remove or sweep. */
    async function openBounded(engine: Engine, ledgers: number, indexOf: HistoryOptions['indexOf']) {
      const pruned: LedgerRange[] = [];
      let settled = false;
      const failures: unknown[] = [];
      const store = await LedgerStore.open(await engine.open(), {
        history: { ledgers, indexOf, batch: 2, onPruned: (range) => pruned.push(range), onSettled: () => (settled = true), onError: (error) => failures.push(error) },
      });
      cleanups.push(() => store.close());
      await waitUntil(() => settled || failures.length > 0, 10_000, 'the history to settle', 10);
      expect(failures).toEqual([]);
      return { store, pruned };
    }

    if (name === 'PostgreSQL') {
      it('refuses to open a PostgreSQL store with bounded history, saying it keeps every ledger', async () => {
        const engine = await createEngine();
        const opening = LedgerStore.open(await engine.open(), { history: { ledgers: 3, indexOf: indexOfMainnet } });
        await expect(opening).rejects.toThrow(/-ledger_history keeps a RocksDB store only/);
      });
      return;
    }

    it('keeps the newest N ledgers, removing the lowest a batch per write with their transactions, account index entries and sent counts', async () => {
      const engine = await createEngine();
      const writes = MAINNET_RUN.map((ledgerIndex) => mainnetLedgerWrite(ledgerIndex));
      const unbounded = await LedgerStore.open(await engine.open());
      for (const write of writes) await unbounded.putLedger(write);
      await unbounded.close();

      const { store, pruned } = await openBounded(engine, 3, indexOfMainnet);
      expect(pruned).toEqual([
        { first: 11119599, last: 11119600 },
        { first: 11119601, last: 11119601 },
      ]);
      expect(store.ranges).toEqual([{ first: 11119602, last: 11119604 }]);
      expect((await store.backend.bookkeeping()).completeRanges).toEqual([{ first: 11119602, last: 11119604 }]);
      const kept = writes.filter((write) => write.ledgerIndex >= 11119602);
      const removed = writes.filter((write) => write.ledgerIndex < 11119602);
      expect((await store.status()).counters).toMatchObject({
        ledgerCount: 3n,
        transactionCount: BigInt(kept.reduce((total, write) => total + write.transactions.length, 0)),
      });
      expect(await store.getLedger(atIndex(11119600), TxDetail.HASHES)).toBeUndefined();
      expect(await store.getLedger(atIndex(11119602), TxDetail.HASHES)).toMatchObject({ ledgerIndex: 11119602 });
      const removedHashes = removed.flatMap((write) => write.transactions.map((tx) => tx.hash));
      expect(removedHashes.length).toBeGreaterThan(0);
      expect(await store.getTransactions(removedHashes)).toEqual([]);

      const accounts = new Map(writes.flatMap((write) => write.transactions.flatMap((tx) => [tx.senderAccountId, ...tx.affectedAccounts.map((side) => side.accountId)])).map((id) => [id.toString('hex'), id]));
      for (const account of accounts.values()) {
        const entries = await collect(store.backend.accountTransactionEntries(account, {}));
        const expected = kept.flatMap((write) => write.transactions.filter((tx) => tx.senderAccountId.equals(account) || tx.affectedAccounts.some((side) => side.accountId.equals(account))).map((tx) => `${write.ledgerIndex}/${tx.txIndex}`));
        expect(entries.map((entry) => `${entry.ledgerIndex}/${entry.txIndex}`).sort()).toEqual(expected.sort());
        const sent = kept.reduce((total, write) => total + write.transactions.filter((tx) => tx.senderAccountId.equals(account)).length, 0);
        expect(await store.backend.sentUpTo(account, 11119604)).toBe(BigInt(sent));
      }
      // Stored history now starts after the accounts' creation: their counts are not answered as lifetime counts.
      const sender = writes[0].transactions[0].senderAccountId;
      expect(await accountTransactionCount(store, sender, atIndex(11119604))).toMatchObject({ coversAccountLifetime: false, earliestStoredLedgerIndex: 11119602 });
    });

    it('keeps every state version a read at a kept ledger needs, removes the superseded ones, and answers state below the kept ledgers out of range', async () => {
      const engine = await createEngine();
      const ledgers: Record<number, StateObjectChange[]> = {
        11: [change('E', StateChangeKind.CREATED, 'absent', 1)],
        12: [change('B', StateChangeKind.MODIFIED, 0, 1)],
        13: [change('C', StateChangeKind.CREATED, 'absent', 1)],
        14: [change('E', StateChangeKind.DELETED, 1, 'absent')],
        17: [change('B', StateChangeKind.MODIFIED, 1, 2)],
      };
      const writes = new Map<string, TransactionWrite>();
      const unbounded = await LedgerStore.open(await engine.open());
      for (let ledgerIndex = 10; ledgerIndex <= 19; ledgerIndex++) {
        const write = withState(ledgerIndex, ledgers[ledgerIndex] ?? []);
        for (const tx of write.transactions) writes.set(tx.hash.toString('hex'), tx);
        await unbounded.putLedger(write);
      }
      await unbounded.putStateObjects({ ledgerIndex: 15, objects: [staged('A', 0), staged('B', 1), staged('C', 1)], marker: Buffer.alloc(0), complete: true, abandon: false });
      const names = ['A', 'B', 'C', 'E'];
      const answers = async (store: LedgerStore) =>
        Promise.all([16, 17, 18, 19].map(async (ledgerIndex) => (await stateObjects(store, names.map(objectKey), atIndex(ledgerIndex))).blobs.map((blob) => blob?.toString('hex'))));
      const before = await answers(unbounded);
      const versionsBefore = (await unbounded.status()).counters.stateObjectVersionCount;
      await unbounded.close();

      // Synthetic transactions are not decodable: their index data is what their writes said.
      const { store } = await openBounded(engine, 4, (tx) => writes.get(tx.hash.toString('hex'))!);
      expect(store.ranges).toEqual([{ first: 16, last: 19 }]);
      expect(store.stateRangeAnswered()).toEqual({ first: 16, last: 19 });
      expect(await answers(store)).toEqual(before);
      expect(before[0]).toEqual([image('A', 0), image('B', 1), image('C', 1), undefined].map((blob) => blob?.toString('hex')));
      expect(await failure(stateObjects(store, [objectKey('A')], atIndex(15)))).toMatchObject({ kind: 'out_of_range' });
      expect(await failure(listStateObjects(store, 15, Buffer.alloc(0), 10))).toMatchObject({ kind: 'out_of_range' });
      const listed = await listStateObjects(store, 16, Buffer.alloc(0), 10);
      expect(listed.objects.map((object) => object.key.toString('hex')).sort()).toEqual(['A', 'B', 'C'].map((name) => objectKey(name).toString('hex')).sort());

      const kv = store.backend as KvLedgerBackend;
      const versionLedgers = async (name: string) => (await collect(kv.stateObjects.versions(objectKey(name)))).map((version) => version.ledgerIndex);
      // The newest version at or below 16 stays (E's is its tombstone at 14); those below it go.
      expect(await versionLedgers('A')).toEqual([15]);
      expect(await versionLedgers('B')).toEqual([16, 17]);
      expect(await versionLedgers('C')).toEqual([15]);
      expect(await versionLedgers('E')).toEqual([14]);
      expect((await store.status()).counters.stateObjectVersionCount).toBe(versionsBefore - 8n);
    });

    it('leaves ledgers removed while an account history page is read out of that page, and answers the rest', async () => {
      const engine = await createEngine();
      const writes = new Map<string, TransactionWrite>();
      const unbounded = await LedgerStore.open(await engine.open());
      for (let ledgerIndex = 100; ledgerIndex < 110; ledgerIndex++) {
        const write = syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 });
        for (const tx of write.transactions) writes.set(tx.hash.toString('hex'), tx);
        await unbounded.putLedger(write);
      }
      await unbounded.close();

      // The removal waits until the page's index entries are read; the page's records are read after it.
      let indexRead!: () => void;
      const indexReadOnce = new Promise<void>((resolve) => (indexRead = resolve));
      let removed!: () => void;
      const removedOnce = new Promise<void>((resolve) => (removed = resolve));
      const backend = await engine.open();
      const gated = new Proxy(backend, {
        get(target, name) {
          const member = Reflect.get(target, name, target) as unknown;
          if (typeof member !== 'function') return member;
          if (name === 'headersBetween') return async (...args: unknown[]) => (await indexReadOnce, member.apply(target, args));
          if (name === 'transactionHashAt') {
            return async (...args: unknown[]) => {
              indexRead();
              await removedOnce;
              return member.apply(target, args);
            };
          }
          return member.bind(target);
        },
      });
      const store = await LedgerStore.open(gated, {
        history: { ledgers: 4, indexOf: (tx) => writes.get(tx.hash.toString('hex'))!, batch: 10, onPruned: () => removed() },
      });
      cleanups.push(() => store.close());

      const receiver = syntheticAccount(100);
      const page = await accountTransactions(store, { accountId: receiver, direction: Direction.BOTH, forward: true, limit: 0, transactionType: '' });
      expect(store.ranges).toEqual([{ first: 106, last: 109 }]);
      expect(page.transactions.map((tx) => tx.ledgerIndex)).toEqual([106, 107, 108, 109]);
      expect(page.marker).toHaveLength(0);
    });

    it('reports its retention floor in the status (GetStatus): the highest stored minus N, plus one', async () => {
      const engine = await createEngine();
      const writes = new Map<string, TransactionWrite>();
      const store = await LedgerStore.open(await engine.open(), { history: { ledgers: 5, indexOf: (tx) => writes.get(tx.hash.toString('hex'))!, intervalMs: 10 } });
      cleanups.push(() => store.close());
      expect((await store.status()).retentionFloor).toBeUndefined();
      for (let ledgerIndex = 100; ledgerIndex < 103; ledgerIndex++) await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 }));
      // Fewer ledgers than kept: the floor lies below the lowest.
      expect((await store.status()).retentionFloor).toBe(98);
      for (let ledgerIndex = 103; ledgerIndex < 110; ledgerIndex++) await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 }));
      expect((await store.status()).retentionFloor).toBe(105);
      expect((await statusResponse(store)).retentionFloor).toBe(105);
    });

    it('announces every batch it removes to the range watchers, with the ranges and the floor after it', async () => {
      const engine = await createEngine();
      const writes = new Map<string, TransactionWrite>();
      const store = await LedgerStore.open(await engine.open(), { history: { ledgers: 5, indexOf: (tx) => writes.get(tx.hash.toString('hex'))!, batch: 3, intervalMs: 10 } });
      cleanups.push(() => store.close());
      const controller = new AbortController();
      cleanups.push(() => controller.abort());
      const announced: RangesEvent[] = [];
      void (async () => {
        for await (const event of store.watchRanges(controller.signal)) announced.push(event);
      })();
      for (let ledgerIndex = 100; ledgerIndex < 120; ledgerIndex++) {
        const write = syntheticLedgerWrite(ledgerIndex, { transactionCount: 1 });
        for (const tx of write.transactions) writes.set(tx.hash.toString('hex'), tx);
        await store.putLedger(write);
      }
      await waitUntil(() => store.lowest() === 115 && announced.at(-1)?.completeRanges[0]?.first === 115, 10_000, 'ledgers below 115 to be removed and announced', 10);
      expect(announced[0]).toEqual({ change: 'current', completeRanges: [], removed: [] });
      const removals = announced.slice(1);
      // Only removals were announced: the ledgers stored above the highest are the ledger stream's.
      expect(new Set(removals.map((event) => event.change))).toEqual(new Set(['retention']));
      expect(indexesOf(removals.flatMap((event) => event.removed))).toEqual(Array.from({ length: 15 }, (_, step) => 100 + step));
      for (const event of removals) {
        expect(event.removed.length).toBeGreaterThan(0);
        expect(event.removed.every((range) => range.last - range.first < 3)).toBe(true);
        // The ranges after the batch start right above it, and the floor is the highest then minus 5, plus one.
        expect(event.completeRanges[0]!.first).toBe(event.removed.at(-1)!.last + 1);
        expect(event.retentionFloor).toBe(event.completeRanges.at(-1)!.last - 5 + 1);
      }
    });

    it('removes ledgers below the kept ones as the tip rises, in the background', async () => {
      const engine = await createEngine();
      const writes = new Map<string, TransactionWrite>();
      const store = await LedgerStore.open(await engine.open(), { history: { ledgers: 5, indexOf: (tx) => writes.get(tx.hash.toString('hex'))!, batch: 3, intervalMs: 10 } });
      cleanups.push(() => store.close());
      for (let ledgerIndex = 100; ledgerIndex < 130; ledgerIndex++) {
        const write = syntheticLedgerWrite(ledgerIndex, { transactionCount: 2 });
        for (const tx of write.transactions) writes.set(tx.hash.toString('hex'), tx);
        await store.putLedger(write);
        // Never more than one batch behind.
        expect((store.highest() ?? 0) - (store.lowest() ?? 0) + 1).toBeLessThanOrEqual(5 + 3 + 1);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      // The ranges rise before a batch is written; its counters come with the write.
      await waitUntil(async () => store.lowest() === 125 && (await store.status()).counters.ledgerCount === 5n, 10_000, 'ledgers below 125 to be removed', 10);
      expect(store.ranges).toEqual([{ first: 125, last: 129 }]);
      expect((await store.status()).counters).toMatchObject({ ledgerCount: 5n, transactionCount: 10n });
    });
  });

  describe.each(engines)('ledgers an import left unproven on %s', (_name, createEngine) => {
    /** The sender and accounts of a stored transaction, re-derived from its bytes as sync derives them. */
    const indexOf: HistoryOptions['indexOf'] = (tx, position) => indexTransactionOrPlaceholder(tx.txBlob, tx.metaBlob, profile, position).index;
    const run = () => MAINNET_RUN.map((ledgerIndex) => mainnetLedgerWrite(ledgerIndex));
    const at = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });

    async function openStore(engine: Engine) {
      const outcomes: unknown[] = [];
      const store = await LedgerStore.open(await engine.open(), { indexOf, onUnproven: (outcome) => outcomes.push(outcome) });
      cleanups.push(() => store.close());
      return { store, outcomes };
    }

    /** What the reads answer for a stored ledger: by index, by hash, its first transaction, its sender's history and count there. */
    async function readsOf(store: LedgerStore, write: LedgerWrite) {
      const sender = write.transactions[0]!.senderAccountId;
      return {
        byIndex: await store.getLedger(at(write.ledgerIndex), TxDetail.NONE),
        byHash: await store.getLedger({ selector: { $case: 'hash', hash: write.ledgerHash } }, TxDetail.NONE),
        transaction: await store.getTransaction(write.transactions[0]!.hash),
        history: (await accountTransactions(store, { accountId: sender, direction: Direction.BOTH, forward: true, limit: 0, transactionType: '', ledgerRange: { first: write.ledgerIndex, last: write.ledgerIndex } })).transactions.length,
      };
    }

    it('stores them served by no read, out of the complete ranges and the status, kept across a reopen', async () => {
      const engine = await createEngine();
      const { store } = await openStore(engine);
      const writes = run();
      expect(await store.putUnprovenLedgers(writes)).toBe(writes.length);
      expect(store.ranges).toEqual([]);
      expect(store.unprovenRanges).toEqual([{ first: MAINNET_RUN[0], last: MAINNET_RUN.at(-1) }]);
      for (const write of writes) {
        expect(await readsOf(store, write)).toEqual({ byIndex: undefined, byHash: undefined, transaction: undefined, history: 0 });
      }
      expect(await store.getLedger({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, TxDetail.NONE)).toBeUndefined();
      expect((await statusResponse(store)).unprovenRanges).toEqual([{ first: MAINNET_RUN[0], last: MAINNET_RUN.at(-1) }]);
      // Nothing unproven names the chain.
      expect((await store.status()).chainIdentity).toBeUndefined();
      await store.close();
      const reopened = await LedgerStore.open(await engine.open(), { indexOf });
      cleanups.push(() => reopened.close());
      expect(reopened.unprovenRanges).toEqual([{ first: MAINNET_RUN[0], last: MAINNET_RUN.at(-1) }]);
      expect(await reopened.getLedger(at(MAINNET_RUN[2]), TxDetail.NONE)).toBeUndefined();
    });

    it('proves the whole run below a proven ledger that names its highest as parent, and serves it from then on', async () => {
      const { store, outcomes } = await openStore(await createEngine());
      const writes = run();
      await store.putUnprovenLedgers(writes.slice(0, -1));
      const controller = new AbortController();
      cleanups.push(() => controller.abort());
      const ranges = store.watchRanges(controller.signal)[Symbol.asyncIterator]();
      expect(((await ranges.next()).value as RangesEvent).completeRanges).toEqual([]);
      expect(await store.putLedger(writes.at(-1))).toBe(true);
      expect(store.ranges).toEqual([{ first: MAINNET_RUN[0], last: MAINNET_RUN.at(-1) }]);
      expect(store.unprovenRanges).toEqual([]);
      expect(outcomes).toEqual([{ proven: { first: MAINNET_RUN[0], last: MAINNET_RUN.at(-2) }, by: MAINNET_RUN.at(-1) }]);
      for (const write of writes.slice(0, -1)) {
        const reads = await readsOf(store, write);
        expect(reads.byIndex?.ledgerHash).toEqual(write.ledgerHash);
        expect(reads.byHash?.ledgerIndex).toBe(write.ledgerIndex);
        expect(reads.transaction?.hash).toEqual(write.transactions[0]!.hash);
        expect(reads.history).toBeGreaterThan(0);
      }
      // Watchers of the ranges hear of the ledgers that joined.
      expect((await ranges.next()).value).toEqual({ change: 'stored_below_tip', completeRanges: [{ first: MAINNET_RUN[0], last: MAINNET_RUN.at(-1) }], removed: [] });
    });

    it('proves an unproven ledger written again proven, and its run below; the ledgers above it stay unproven', async () => {
      const { store } = await openStore(await createEngine());
      const writes = run();
      await store.putUnprovenLedgers(writes);
      expect(await store.putLedger(writes[3])).toBe(false);
      expect(store.ranges).toEqual([{ first: MAINNET_RUN[0], last: MAINNET_RUN[3] }]);
      expect(store.unprovenRanges).toEqual([{ first: MAINNET_RUN[4], last: MAINNET_RUN[5] }]);
      expect((await readsOf(store, writes[4]!)).byIndex).toBeUndefined();
      expect((await readsOf(store, writes[2]!)).byIndex?.ledgerIndex).toBe(MAINNET_RUN[2]);
    });

    if (_name !== 'PostgreSQL') {
      it('goes below the floor of bounded history with the ledgers around it, out of the unproven ranges', async () => {
        const store = await LedgerStore.open(await (await createEngine()).open(), { history: { ledgers: 5, indexOf, batch: 4, intervalMs: 10 } });
        cleanups.push(() => store.close());
        const empty = (ledgerIndex: number) => syntheticLedgerWrite(ledgerIndex, { transactionCount: 0 });
        await store.putLedger(empty(100));
        await store.putUnprovenLedgers([105, 106, 107].map(empty));
        for (let ledgerIndex = 110; ledgerIndex <= 120; ledgerIndex++) await store.putLedger(empty(ledgerIndex));
        await waitUntil(() => store.ranges[0]?.first === 116 || undefined, 10_000, 'bounded history to settle', 10);
        expect(store.unprovenRanges).toEqual([]);
        expect(await store.backend.headers([105, 106, 107])).toEqual([]);
        expect((await store.status()).counters.ledgerCount).toBe(5n);
      });
    }

    it('removes what a proven ledger contradicts: another ledger at its index with the unproven ones above, another parent, a child naming another parent', async () => {
      const engine = await createEngine();
      const { store, outcomes } = await openStore(engine);
      const writes = run();
      await store.putUnprovenLedgers(writes);
      const sender = writes[4]!.transactions[0]!.senderAccountId;
      // The network's ledger at MAINNET_RUN[4] is another: it and the one above it go; its parent names another hash, so that one goes too.
      const other = syntheticLedgerWrite(MAINNET_RUN[4]);
      expect(await store.putLedger(other)).toBe(true);
      expect(store.ranges).toEqual([{ first: MAINNET_RUN[4], last: MAINNET_RUN[4] }]);
      expect(store.unprovenRanges).toEqual([{ first: MAINNET_RUN[0], last: MAINNET_RUN[2] }]);
      expect(outcomes).toEqual([
        { removed: { first: MAINNET_RUN[4], last: MAINNET_RUN[5] }, reason: expect.stringMatching(new RegExp(`^the network's ledger ${MAINNET_RUN[4]} is [0-9A-F]{64}, not [0-9A-F]{64}$`)) },
        { removed: { first: MAINNET_RUN[3], last: MAINNET_RUN[3] }, reason: expect.stringMatching(new RegExp(`^the network's ledger ${MAINNET_RUN[4]} names parent [0-9A-F]{64}, not [0-9A-F]{64}$`)) },
      ]);
      expect((await store.getLedger(at(MAINNET_RUN[4]), TxDetail.NONE))?.ledgerHash).toEqual(other.ledgerHash);
      // Removed whole: no header, no transaction, no index entry of the removed ledgers is left.
      expect(await store.backend.header(MAINNET_RUN[5])).toBeUndefined();
      expect(await store.backend.transactions([writes[5]!.transactions[0]!.hash])).toEqual([undefined]);
      expect(await collect(store.backend.accountTransactionEntries(sender, { firstLedger: MAINNET_RUN[3], lastLedger: MAINNET_RUN[5] }))).toEqual([]);
      expect((await store.status()).counters.ledgerCount).toBe(4n);

      // A proven ledger below the run whose hash its lowest does not name as parent removes the run.
      const below = syntheticLedgerWrite(MAINNET_RUN[0] - 1);
      expect(await store.putLedger(below)).toBe(true);
      expect(store.unprovenRanges).toEqual([]);
      expect(outcomes.at(-1)).toEqual({ removed: { first: MAINNET_RUN[0], last: MAINNET_RUN[2] }, reason: expect.stringMatching(/^it names parent [0-9A-F]{64}, and the network's ledger \d+ is [0-9A-F]{64}$/) });
      expect((await store.status()).counters.ledgerCount).toBe(2n);
    });
  });

  /**
   * The NFT index over recorded real NFToken transactions, each in a ledger of its own at its real
   * ledger index: token T offered at 1104 and sold at 1197 (a sell offer accepted), token X sold at
   * 1799495 (a buy offer accepted) and burned by its buyer at 1799496.
   */
  describe.each(engines)('the NFT index on %s', (name, createEngine) => {
    const T = Buffer.from('0008000083CD166E1806EF2076C55077AEFD418E771A516C0000099B00000000', 'hex');
    const X = Buffer.from('000800006203F49C21D5D6E022CB16DE3538F248662FC73C29ABA6A90000000D', 'hex');
    const ledgers = () => [
      corpusLedgerWrite(1104, ['NFTokenCreateOffer-37DD2EC6']),
      corpusLedgerWrite(1197, ['NFTokenAcceptOffer-00769286']),
      corpusLedgerWrite(1799495, ['NFTokenAcceptOffer-21C60F25']),
      corpusLedgerWrite(1799496, ['NFTokenBurn-0804FB2E']),
    ];
    const indexOf: HistoryOptions['indexOf'] = (tx, position) => indexTransactionOrPlaceholder(tx.txBlob, tx.metaBlob, profile, position).index;
    const address = (bytes: Buffer | undefined) => bytes && profile.codec.encodeAccountId(bytes);

    async function openStore(engine: Engine, history?: HistoryOptions) {
      const store = await LedgerStore.open(await engine.open(), { indexOf, history });
      cleanups.push(() => store.close());
      return store;
    }

    const infoAt = async (store: LedgerStore, nftId: Buffer, ledgerIndex?: number) => {
      const answer = await nftAt(store, { nftId, ledger: ledgerIndex === undefined ? undefined : atIndex(ledgerIndex) });
      return { owner: address(answer.nft?.ownerAccountId), burned: answer.nft?.burned, uri: answer.nft?.uri.toString('hex'), changed: answer.changedLedgerIndex, at: answer.ledgerIndex };
    };
    const positions = async (store: LedgerStore, nftId: Buffer, request: { forward?: boolean; limit?: number; first?: number; last?: number } = {}) => {
      const seen: string[] = [];
      let marker: Buffer = Buffer.alloc(0);
      do {
        const page = await nftTransactions(store, {
          nftId,
          forward: request.forward ?? false,
          limit: request.limit ?? 0,
          marker,
          ledgerRange: request.first === undefined ? undefined : { first: request.first, last: request.last! },
        });
        seen.push(...page.transactions.map((tx) => `${tx.ledgerIndex}/${tx.txIndex}`));
        marker = page.marker;
      } while (marker.length > 0);
      return seen;
    };

    it("answers each token as the newest ledger at or below the one asked that changed it left it, and pages the transactions that touched it", async () => {
      const store = await openStore(await createEngine());
      const writes = ledgers();
      for (const write of [writes[3], writes[0], writes[2], writes[1]]) await store.putLedger(write!);
      // A buy offer accepted by X's seller: the token is the buy offer's owner's.
      const xSeller = 'r9AExd6v3keXaXa3nXAMHHcP9nWy9Aef2g';
      const xHolder = 'rfFRmXUR1yfxeUfXj7WwKhETrtToYx1hYh';

      // An offer changes no token: before its sale T is no stored ledger's change.
      expect((await failure(nftAt(store, { nftId: T, ledger: atIndex(1104) }))).kind).toBe('not_found');
      // A sell offer accepted: the token is the accepting account's.
      expect(await infoAt(store, T, 1197)).toMatchObject({ owner: address(writes[1]!.transactions[0]!.senderAccountId), burned: false, changed: 1197, at: 1197 });
      expect(await infoAt(store, T)).toMatchObject({ changed: 1197, at: 1799496 });
      expect(await infoAt(store, X, 1799495)).toMatchObject({ owner: xHolder, burned: false, changed: 1799495 });
      expect(await infoAt(store, X, 1799496)).toMatchObject({ owner: xHolder, burned: true, changed: 1799496 });
      expect(await infoAt(store, X, 1799495)).not.toMatchObject({ owner: xSeller });
      // A ledger the store does not hold is out of range; a token no ledger changed is not found.
      expect((await failure(nftAt(store, { nftId: X, ledger: atIndex(1799497) }))).kind).toBe('out_of_range');
      expect((await failure(nftAt(store, { nftId: Buffer.alloc(32, 7) }))).kind).toBe('not_found');
      expect((await failure(nftAt(store, { nftId: Buffer.alloc(20) }))).kind).toBe('invalid_params');

      expect(await positions(store, T)).toEqual(['1197/0', '1104/0']);
      expect(await positions(store, T, { forward: true, limit: 1 })).toEqual(['1104/0', '1197/0']);
      expect(await positions(store, X, { limit: 1 })).toEqual(['1799496/0', '1799495/4']);
      expect(await positions(store, X, { first: 1799496, last: 1799496 })).toEqual(['1799496/0']);
      const [page] = (await nftTransactions(store, { nftId: X, forward: true, limit: 1, marker: Buffer.alloc(0) })).transactions;
      expect(page).toMatchObject({ ledgerIndex: 1799495, txIndex: 4, hash: writes[2]!.transactions[0]!.hash });
      await expect(nftTransactions(store, { nftId: X, forward: true, limit: 1001, marker: Buffer.alloc(0) })).rejects.toThrow(/limit must be at most 1000/);
    });

    it('removes a deleted ledger’s entries with it, and storing it again restores them', async () => {
      const store = await openStore(await createEngine());
      const writes = ledgers();
      for (const write of writes) await store.putLedger(write);
      const before = { info: await infoAt(store, X), history: await positions(store, X) };
      await store.deleteLedger(writes[3]!);
      expect(await positions(store, X)).toEqual(['1799495/4']);
      expect(await infoAt(store, X)).toMatchObject({ burned: false, changed: 1799495, at: 1799495 });
      await store.putLedger(writes[3]!);
      expect({ info: await infoAt(store, X), history: await positions(store, X) }).toEqual(before);
    });

    it('serves nothing of ledgers an import left unproven', async () => {
      const store = await openStore(await createEngine());
      const writes = ledgers();
      await store.putLedger(writes[0]!);
      await store.putLedger(writes[1]!);
      expect(await store.putUnprovenLedgers(writes.slice(2))).toBe(2);
      expect(await positions(store, X)).toEqual([]);
      expect((await failure(nftAt(store, { nftId: X }))).kind).toBe('not_found');
      expect((await failure(nftAt(store, { nftId: X, ledger: atIndex(1799496) }))).kind).toBe('out_of_range');
      expect(await positions(store, T)).toEqual(['1197/0', '1104/0']);
    });

    if (name === 'PostgreSQL') return;

    it('bounded history removes the touching transactions of the ledgers it removes, and keeps the state a read at a kept ledger needs', async () => {
      const engine = await createEngine();
      const unbounded = await LedgerStore.open(await engine.open());
      for (const write of ledgers()) await unbounded.putLedger(write);
      await unbounded.putLedger(syntheticLedgerWrite(1799497, { transactionCount: 0 }));
      await unbounded.close();

      const pruned: LedgerRange[] = [];
      let settled = false;
      const store = await openStore(engine, { ledgers: 1, indexOf, batch: 2, onPruned: (range) => pruned.push(range), onSettled: () => (settled = true) });
      await waitUntil(() => settled, 10_000, 'the history to settle', 10);
      expect(store.ranges).toEqual([{ first: 1799497, last: 1799497 }]);
      expect(await positions(store, T)).toEqual([]);
      expect(await positions(store, X)).toEqual([]);
      // T last changed at 1197, X at 1799496, both removed: a read at the kept ledger still finds them.
      expect(await infoAt(store, T)).toMatchObject({ changed: 1197, burned: false, at: 1799497 });
      expect(await infoAt(store, X)).toMatchObject({ changed: 1799496, burned: true, at: 1799497 });
      // The states no read reaches any more are gone: X's sale, superseded by its burn.
      expect((await collect(store.backend.nftStatesAtOrBelow(X, 1799497))).map((state) => state.ledgerIndex)).toEqual([1799496]);
    });
  });
}
