import { describe, expect, it } from 'vitest';
import { getProfile, keylet, stateEntryFromLedgerJson, StateTree } from '@ledger-node/chain';
import { Direction, StateChangeKind, type LedgerSelector, type LedgerWrite, type StateObjectChange } from '@ledger-node/contracts';
import type { LedgerNodeError } from '@ledger-node/errors';
import { readFixture, rejectionOf } from '@ledger-node/test-utils';
import { ledgerWriteFromJson, syntheticAccount, syntheticLedgerWrite, type LedgerFixture } from '../../test/support/ledgerWrites';
import { accountTransactionCount, accountTransactions, MAX_ACCOUNT_TRANSACTIONS_PER_PAGE } from '../accounts/history';
import { Bucket } from '../storage/buckets';
import { memoryKeyValue } from '../storage/memory';
import { KvLedgerBackend } from '../backend/kv-backend';
import { LedgerStore } from '../store';
import { accountState, listStateObjects } from './reads';

const xrpl = getProfile('xrpl');
const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });
const hex = (bytes: Buffer | undefined) => bytes?.toString('hex').toUpperCase();

const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);

/** Every object of the state at a ledger, by key (hex), listed page by page. */
async function objectsAt(store: LedgerStore, ledgerIndex: number): Promise<Map<string, Buffer>> {
  const objects = new Map<string, Buffer>();
  let afterKey: Buffer = Buffer.alloc(0);
  for (;;) {
    const page = await listStateObjects(store, ledgerIndex, afterKey, 100);
    for (const object of page.objects) objects.set(object.key.toString('hex'), object.blob);
    if (!page.nextAfterKey) return objects;
    afterKey = page.nextAfterKey;
  }
}

async function rootAt(store: LedgerStore, ledgerIndex: number): Promise<string> {
  const tree = new StateTree();
  for (const [key, blob] of await objectsAt(store, ledgerIndex)) tree.set(key, blob);
  return tree.root().toUpperCase();
}

describe('the full-state fixture (mainnet ledger 38129) through PutStateObjects', () => {
  const fixture = readFixture<LedgerFixture>('xrpl/ledgers/mainnet/38129-full-state.json');
  const entries: Record<string, any>[] = fixture.ledger.accountState;

  async function loadedStore(pageSize: number) {
    const store = await LedgerStore.open(new KvLedgerBackend(memoryKeyValue()));
    await store.putLedger({ ...ledgerWriteFromJson(fixture), stateChanges: [] });
    for (let start = 0; start < entries.length; start += pageSize) {
      const page = entries.slice(start, start + pageSize);
      const last = start + pageSize >= entries.length;
      await store.putStateObjects({
        ledgerIndex: 38129,
        objects: page.map((entry) => {
          const { index, blob } = stateEntryFromLedgerJson(entry, xrpl);
          const owners = entry.LedgerEntryType === 'RippleState' ? [entry.LowLimit.issuer, entry.HighLimit.issuer] : [];
          return {
            key: Buffer.from(index, 'hex'),
            blob: Buffer.from(blob, 'hex'),
            ledgerEntryType: entry.LedgerEntryType,
            ownerAccountIds: owners.map((address: string) => Buffer.from(xrpl.codec.decodeAccountId(address))),
          };
        }),
        marker: last ? Buffer.alloc(0) : Buffer.from(JSON.stringify(page.at(-1)!.index)),
        complete: false,
        abandon: false,
      });
    }
    return store;
  }

  it('stores every page with its marker and recomputes the header account_hash from what it holds', async () => {
    const store = await loadedStore(50);
    expect(store.stateDownload).toEqual({ ledgerIndex: 38129, marker: Buffer.alloc(0), complete: false, objectCount: 261n });
    // Before it is marked complete the state is listed only at the download's own ledger, for verification.
    expect(await rootAt(store, 38129)).toBe(fixture.ledger.account_hash);
    expect((await failure(accountState(store, syntheticAccount(1), atIndex(38129)))).kind).toBe('out_of_range');

    await store.putStateObjects({ ledgerIndex: 38129, objects: [], marker: Buffer.alloc(0), complete: true, abandon: false });
    expect(store.stateDownload.complete).toBe(true);
    expect(store.stateRangeAnswered()).toEqual({ first: 38129, last: 38129 });
    expect(await rootAt(store, 38129)).toBe(fixture.ledger.account_hash);
  });

  it('answers account state and lists the state with exactly the fixture AccountRoot, RippleState and Offer objects', async () => {
    const store = await loadedStore(100);
    await store.putStateObjects({ ledgerIndex: 38129, objects: [], marker: Buffer.alloc(0), complete: true, abandon: false });
    const lines = entries.filter((entry) => entry.LedgerEntryType === 'RippleState');
    // Each account that is a side of a trust line, and one without any.
    const addresses = new Set<string>(lines.flatMap((line) => [line.LowLimit.issuer, line.HighLimit.issuer]));
    addresses.add(entries.find((entry) => entry.LedgerEntryType === 'AccountRoot' && !addresses.has(entry.Account))!.Account);
    for (const address of addresses) {
      const accountId = Buffer.from(xrpl.codec.decodeAccountId(address));
      const state = await accountState(store, accountId, atIndex(38129));
      const root = entries.find((entry) => entry.LedgerEntryType === 'AccountRoot' && entry.Account === address);
      expect(hex(state.accountRootBlob)).toBe(root && stateEntryFromLedgerJson(root, xrpl).blob);
      const expectedLines = lines
        .filter((line) => line.LowLimit.issuer === address || line.HighLimit.issuer === address)
        .map((line) => stateEntryFromLedgerJson(line, xrpl))
        .sort((a, b) => (a.index < b.index ? -1 : 1))
        .map((line) => line.blob);
      expect(state.trustLineBlobs.map((blob) => hex(blob))).toEqual(expectedLines);
      expect(state.header.ledgerIndex).toBe(38129);
    }
    const offer = entries.find((entry) => entry.LedgerEntryType === 'Offer')!;
    const listed = await objectsAt(store, 38129);
    expect(hex(listed.get(offer.index.toLowerCase()))).toBe(stateEntryFromLedgerJson(offer, xrpl).blob);
    // An address that never existed has no root and no lines.
    const nobody = await accountState(store, syntheticAccount(424242), atIndex(38129));
    expect(nobody.accountRootBlob).toBeUndefined();
    expect(nobody.trustLineBlobs).toEqual([]);
  });
});

/** The account of a test object: each object is that account's AccountRoot, so account state reads it. */
const account = (name: string) => syntheticAccount(name.charCodeAt(0) * 1000);
const object = (name: string) => Buffer.from(keylet.account(account(name)), 'hex');
const image = (name: string, version: number) => Buffer.from(`1100${Buffer.from(`${name}${version}`).toString('hex')}`, 'hex');

function change(name: string, kind: StateChangeKind, before: number | 'absent' | undefined, after: number | 'absent'): StateObjectChange {
  return {
    key: object(name),
    kind,
    blob: after === 'absent' ? Buffer.alloc(0) : image(name, after),
    previousBlob: before === undefined ? undefined : before === 'absent' ? Buffer.alloc(0) : image(name, before),
    ledgerEntryType: 'AccountRoot',
    ownerAccountIds: [],
    accountId: Buffer.alloc(0),
  };
}

const withState = (ledgerIndex: number, stateChanges: StateObjectChange[], complete = true): LedgerWrite => ({
  ...syntheticLedgerWrite(ledgerIndex, { transactionCount: 0 }),
  stateChanges,
  stateChangesComplete: complete,
});

/**
 * Ledgers 10-20 with a state download at 15. A: unchanged throughout (snapshot only). B: v0 until
 * 11, v1 from 12, v2 from 17. C: created at 13 (v1). D: deleted at 18. E: created at 11, deleted at
 * 14 (never in the snapshot). Ledger 20 is stored without complete state changes.
 */
async function versionedStore(): Promise<LedgerStore<KvLedgerBackend>> {
  const store = await LedgerStore.open(new KvLedgerBackend(memoryKeyValue()));
  const ledgers: Record<number, StateObjectChange[]> = {
    11: [change('E', StateChangeKind.CREATED, 'absent', 1)],
    12: [change('B', StateChangeKind.MODIFIED, 0, 1)],
    13: [change('C', StateChangeKind.CREATED, 'absent', 1)],
    14: [change('E', StateChangeKind.DELETED, 1, 'absent')],
    17: [change('B', StateChangeKind.MODIFIED, 1, 2)],
    18: [change('D', StateChangeKind.DELETED, 1, 'absent')],
  };
  // Live ledgers upward from the anchor, backfill downward, as sync writes them.
  for (const ledgerIndex of [15, 16, 17, 18, 19, 14, 13, 12, 11, 10]) await store.putLedger(withState(ledgerIndex, ledgers[ledgerIndex] ?? []));
  await store.putLedger(withState(20, [], false));
  await store.putStateObjects({
    ledgerIndex: 15,
    objects: ['A', 'B', 'C', 'D'].map((name) => ({ key: object(name), blob: image(name, name === 'A' ? 0 : 1), ledgerEntryType: 'AccountRoot', ownerAccountIds: [] })),
    marker: Buffer.alloc(0),
    complete: true,
    abandon: false,
  });
  return store;
}

describe('versioned state', () => {
  const expected: Record<string, (ledgerIndex: number) => string | undefined> = {
    A: () => 'A0',
    B: (ledgerIndex) => (ledgerIndex < 12 ? 'B0' : ledgerIndex < 17 ? 'B1' : 'B2'),
    C: (ledgerIndex) => (ledgerIndex < 13 ? undefined : 'C1'),
    D: (ledgerIndex) => (ledgerIndex < 18 ? 'D1' : undefined),
    E: (ledgerIndex) => (ledgerIndex >= 11 && ledgerIndex < 14 ? 'E1' : undefined),
  };

  it('answers every object at every ledger of the window: at, before and after its changes, below and above the download ledger', async () => {
    const store = await versionedStore();
    expect(store.stateRangeAnswered()).toEqual({ first: 10, last: 19 });
    for (let ledgerIndex = 10; ledgerIndex <= 19; ledgerIndex++) {
      for (const [name, at] of Object.entries(expected)) {
        const { accountRootBlob: blob } = await accountState(store, account(name), atIndex(ledgerIndex));
        expect([ledgerIndex, name, blob && blob.subarray(2).toString()]).toEqual([ledgerIndex, name, at(ledgerIndex)]);
      }
      const listed = (await listStateObjects(store, ledgerIndex, Buffer.alloc(0), 0)).objects.map((entry) => entry.blob.subarray(2).toString()).sort();
      expect(listed).toEqual(Object.values(expected).map((at) => at(ledgerIndex)).filter((name) => name !== undefined).sort());
    }
  });

  it('refuses a ledger whose state is not known, naming the stored state range', async () => {
    const store = await versionedStore();
    const above = await failure(accountState(store, account('A'), atIndex(20)));
    expect(above.kind).toBe('out_of_range');
    expect(above.message).toBe('ledger 20 is outside the ledgers whose account state is stored (10-19)');
    const missing = await failure(accountState(store, syntheticAccount(1), atIndex(9)));
    expect(missing.message).toBe('the ledger asked for is not stored; account state is stored for ledgers 10-19');
    expect((await failure(accountState(store, Buffer.alloc(19), atIndex(12)))).details.param).toBe('account_id');
  });

  it('keeps a before-image from backfill without overwriting a version the ledger below wrote itself', async () => {
    const store = await versionedStore();
    const versions = [];
    for await (const version of store.backend.stateObjects.versions(object('B'))) versions.push([version.ledgerIndex, version.deleted ? null : version.blob.subarray(2).toString()]);
    expect(versions).toEqual([
      [11, 'B0'],
      [12, 'B1'],
      [15, 'B1'],
      [16, 'B1'],
      [17, 'B2'],
    ]);
  });
});

describe('a state download whose root does not verify', () => {
  const forged = (name: string) => ({ key: object(name), blob: image(name, 9), ledgerEntryType: 'AccountRoot', ownerAccountIds: [] });
  const page = (ledgerIndex: number, names: string[], extra: Partial<{ complete: boolean; abandon: boolean }> = {}) => ({
    ledgerIndex,
    objects: names.map(forged),
    marker: Buffer.alloc(0),
    complete: false,
    abandon: false,
    ...extra,
  });

  async function storeWithLedgers(): Promise<LedgerStore<KvLedgerBackend>> {
    const store = await LedgerStore.open(new KvLedgerBackend(memoryKeyValue()));
    for (let ledgerIndex = 10; ledgerIndex <= 20; ledgerIndex++) await store.putLedger(withState(ledgerIndex, []));
    return store;
  }

  /** Every stored key but the download record's. */
  async function storedKeys(store: LedgerStore<KvLedgerBackend>): Promise<string[]> {
    const keys: string[] = [];
    for await (const [entryKey] of store.backend.kv.entries({})) if (entryKey[0] !== Bucket.stateMeta) keys.push(entryKey.toString('hex'));
    return keys;
  }

  it('is seen by nothing but the downloader before it completes, and abandoned it leaves nothing behind', async () => {
    const store = await storeWithLedgers();
    const before = await storedKeys(store);
    await store.putStateObjects(page(15, ['X', 'Y']));
    // Staged: listed at the download's ledger for the downloader, answered by no state read.
    expect((await listStateObjects(store, 15, Buffer.alloc(0), 0)).objects.map((entry) => hex(entry.blob))).toEqual(['X', 'Y'].map((name) => hex(image(name, 9))));
    expect((await failure(accountState(store, account('X'), atIndex(15)))).kind).toBe('out_of_range');
    const versions = [];
    for await (const version of store.backend.stateObjects.versions(object('X'))) versions.push(version);
    expect(versions).toEqual([]);

    await store.putStateObjects(page(15, [], { abandon: true }));
    expect(store.stateDownload).toEqual({ ledgerIndex: 0, marker: Buffer.alloc(0), complete: false, objectCount: 0n });
    expect(await storedKeys(store)).toEqual(before);
  });

  it('restarted at another ledger, its pages are removed whole and the next download alone becomes the state', async () => {
    const store = await storeWithLedgers();
    await store.putStateObjects(page(15, ['X', 'Y']));
    await store.putStateObjects(page(16, ['A'], { complete: true }));
    expect(store.stateDownload).toMatchObject({ ledgerIndex: 16, complete: true, objectCount: 1n });
    for (let ledgerIndex = 10; ledgerIndex <= 20; ledgerIndex++) {
      expect((await accountState(store, account('X'), atIndex(ledgerIndex))).accountRootBlob).toBeUndefined();
      expect(hex((await accountState(store, account('A'), atIndex(ledgerIndex))).accountRootBlob)).toBe(hex(image('A', 9)));
    }
    expect(await store.backend.stagedState.page(undefined, 10)).toEqual([]);
  });

  it('refuses to abandon with objects or while completing', async () => {
    const store = await storeWithLedgers();
    expect((await failure(store.putStateObjects(page(15, ['X'], { abandon: true })))).message).toMatch(/abandon ends a download/);
    expect((await failure(store.putStateObjects(page(15, [], { abandon: true, complete: true })))).kind).toBe('invalid_params');
  });

  it('refuses a page that holds one object twice, staging nothing', async () => {
    const store = await storeWithLedgers();
    const twice = await failure(store.putStateObjects(page(15, ['X', 'Y', 'X'])));
    expect([twice.kind, twice.message, twice.details.param]).toEqual(['invalid_params', 'objects[2].key appears twice in the page', 'objects[2].key']);
    expect(await store.backend.stagedState.page(undefined, 10)).toEqual([]);
  });
});

describe('account history pages', () => {
  const account = syntheticAccount(1);
  /** Ledgers 1-30; the account sends some transactions and is touched (IN) by every other one. */
  function historyWrites(): LedgerWrite[] {
    return Array.from({ length: 30 }, (_, position) => {
      const write = syntheticLedgerWrite(position + 1, { transactionCount: (position % 4) + 1 });
      for (const tx of write.transactions) {
        if (!tx.senderAccountId.equals(account)) tx.affectedAccounts.push({ accountId: account, direction: Direction.IN });
      }
      return write;
    });
  }

  async function historyStore() {
    const store = await LedgerStore.open(new KvLedgerBackend(memoryKeyValue()));
    const writes = historyWrites();
    for (const write of writes) await store.putLedger(write);
    const all = writes.flatMap((write) =>
      write.transactions.map((tx) => ({ hash: hex(tx.hash)!, out: tx.senderAccountId.equals(account), ledgerIndex: write.ledgerIndex })),
    );
    return { store, all };
  }

  it.each([
    ['both', Direction.UNSPECIFIED],
    ['in', Direction.IN],
    ['out', Direction.OUT],
  ])('lists every %s transaction exactly once across pages, oldest or newest first, by page number and by marker', async (_label, direction) => {
    const { store, all } = await historyStore();
    const wanted = all.filter((entry) => direction === Direction.UNSPECIFIED || entry.out === (direction === Direction.OUT)).map((entry) => entry.hash);
    expect(wanted.length).toBeGreaterThan(7);
    for (const forward of [true, false]) {
      const expectedOrder = forward ? wanted : [...wanted].reverse();
      const byPage: string[] = [];
      for (let page = 0; ; page++) {
        const answer = await accountTransactions(store, { accountId: account, direction, forward, limit: 7, position: { $case: 'page', page }, transactionType: '' });
        byPage.push(...answer.transactions.map((tx) => hex(tx.hash)!));
        if (answer.transactions.length < 7) break;
      }
      expect(byPage).toEqual(expectedOrder);
      const byMarker: string[] = [];
      let marker: Buffer | undefined;
      do {
        const answer = await accountTransactions(store, {
          accountId: account,
          direction,
          forward,
          limit: 7,
          position: marker ? { $case: 'marker', marker } : undefined,
          transactionType: '',
        });
        byMarker.push(...answer.transactions.map((tx) => hex(tx.hash)!));
        marker = answer.marker.length > 0 ? answer.marker : undefined;
      } while (marker);
      expect(byMarker).toEqual(expectedOrder);
    }
  });

  it('stops a scan whose caller went away', async () => {
    const { store } = await historyStore();
    const request = { accountId: account, direction: Direction.BOTH, forward: true, limit: 1, position: { $case: 'page' as const, page: 3 }, transactionType: '' };
    expect((await accountTransactions(store, request, new AbortController().signal)).transactions).toHaveLength(1);
    const gone = await failure(accountTransactions(store, request, AbortSignal.abort()));
    expect([gone.kind, gone.message]).toEqual(['unavailable', 'cancelled: the caller went away or its deadline passed']);
  });

  it('filters by ledger range and transaction type, and refuses a page size above the maximum naming limit', async () => {
    const { store, all } = await historyStore();
    const answer = await accountTransactions(store, {
      accountId: account,
      direction: Direction.BOTH,
      forward: true,
      limit: 0,
      ledgerRange: { first: 5, last: 9 },
      transactionType: 'Payment',
    });
    expect(answer.transactions.map((tx) => hex(tx.hash))).toEqual(all.filter((entry) => entry.ledgerIndex >= 5 && entry.ledgerIndex <= 9).map((entry) => entry.hash));
    expect(answer.transactions[0].ledgerHash).toHaveLength(32);
    const none = await accountTransactions(store, { accountId: account, direction: Direction.BOTH, forward: true, limit: 0, transactionType: 'OfferCreate' });
    expect(none).toEqual({ transactions: [], marker: Buffer.alloc(0) });
    const tooMany = await failure(
      accountTransactions(store, { accountId: account, direction: Direction.BOTH, forward: true, limit: MAX_ACCOUNT_TRANSACTIONS_PER_PAGE + 1, transactionType: '' }),
    );
    expect([tooMany.kind, tooMany.details.param]).toEqual(['invalid_params', 'limit']);
    const badMarker = await failure(
      accountTransactions(store, { accountId: account, direction: Direction.BOTH, forward: true, limit: 5, position: { $case: 'marker', marker: Buffer.alloc(3) }, transactionType: '' }),
    );
    expect(badMarker.details.param).toBe('marker');
  });
});

describe('GetAccountTransactionCount', () => {
  it('counts sent transactions up to the ledger and covers the lifetime only from a stored creation on', async () => {
    const store = await LedgerStore.open(new KvLedgerBackend(memoryKeyValue()));
    const created = syntheticAccount(77);
    const writes = Array.from({ length: 10 }, (_, position) => syntheticLedgerWrite(position + 101, { transactionCount: 2 }));
    // Ledger 104 creates `created`'s AccountRoot; it then sends one transaction in each later ledger.
    writes[3].stateChanges = [{ ...change('Z', StateChangeKind.CREATED, 'absent', 1), accountId: created }];
    for (const write of writes.slice(4)) write.transactions[0].senderAccountId = created;
    for (const write of writes) await store.putLedger(write);

    const countAt = (accountId: Buffer, ledgerIndex: number) => accountTransactionCount(store, accountId, atIndex(ledgerIndex));
    expect(await countAt(created, 110)).toMatchObject({ sentCount: 6n, coversAccountLifetime: true, earliestStoredLedgerIndex: 101 });
    expect(await countAt(created, 106)).toMatchObject({ sentCount: 2n, coversAccountLifetime: true });
    // An account whose creation is not stored: the count is of the stored history only.
    const sender = writes[0].transactions[0].senderAccountId;
    const older = await countAt(sender, 110);
    expect(older.coversAccountLifetime).toBe(false);
    expect(older.sentCount).toBe(
      BigInt(writes.flatMap((write) => write.transactions).filter((tx) => tx.senderAccountId.equals(sender)).length),
    );
    const outside = await failure(countAt(created, 99));
    expect([outside.kind, outside.message]).toEqual(['out_of_range', 'the ledger asked for is not stored; stored ledgers: 101-110']);
  });
});
