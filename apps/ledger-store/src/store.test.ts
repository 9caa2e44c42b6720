import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader, getProfile, hashLedgerHeader } from '@ledger-node/chain';
import { LedgerTag, StateChangeKind, TxDetail, type LedgerWrite } from '@ledger-node/contracts';
import { Conflict, InvalidParams, type LedgerNodeError } from '@ledger-node/errors';
import { rejectionOf, tempDir } from '@ledger-node/test-utils';
import { MAINNET_RUN, mainnetFixture, mainnetLedgerWrite, syntheticAccount, syntheticLedgerWrite } from '../test/support/ledgerWrites';
import { memoryKeyValue } from './storage/memory';
import { openRocksDb } from './storage/rocksdb';
import type { KeyValue } from './storage/kv';
import { FORMAT_VERSION_KEY } from './repositories/storeMeta';
import { KvLedgerBackend } from './backend/kv-backend';
import { LedgerStore, STORE_FORMAT_VERSION } from './store';
import type { LedgerEvent } from './ledgers/events';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Both backends answer the same specification: the in-memory one and real RocksDB on disk. */
const backends: [string, () => Promise<{ kv: KeyValue; reopen: () => Promise<KeyValue> }>][] = [
  [
    'in memory',
    async () => {
      const kv = memoryKeyValue();
      return { kv, reopen: async () => kv };
    },
  ],
  [
    'RocksDB',
    async () => {
      const { dir, remove } = tempDir('ledger-store-unit-');
      cleanups.push(remove);
      const open = () => openRocksDb(`${dir}/node.db`);
      return { kv: await open(), reopen: open };
    },
  ],
];

const profile = getProfile('xrpl');
const byTxIndex = (write: LedgerWrite) => [...write.transactions].sort((a, b) => a.txIndex - b.txIndex);
const accountId = (address: string) => Buffer.from(profile.codec.decodeAccountId(address));

const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);

describe.each(backends)('LedgerStore %s', (_name, openBackend) => {
  async function openStore(): Promise<LedgerStore<KvLedgerBackend> & { reopen(): Promise<LedgerStore<KvLedgerBackend>> }> {
    const backend = await openBackend();
    let current = await LedgerStore.open(new KvLedgerBackend(backend.kv));
    cleanups.push(() => current.close());
    return Object.assign(current, {
      async reopen() {
        await current.close();
        current = await LedgerStore.open(new KvLedgerBackend(await backend.reopen()));
        return current;
      },
    });
  }

  const outOfOrder = [11119602, 11119599, 11119604, 11119601, 11119600, 11119603];

  describe('store format version', () => {
    it('records the format version in a new store', async () => {
      const backend = await openBackend();
      const store = await LedgerStore.open(new KvLedgerBackend(backend.kv));
      cleanups.push(() => store.close());
      expect(await backend.kv.get(FORMAT_VERSION_KEY)).toEqual(Buffer.from([0, 0, 0, STORE_FORMAT_VERSION]));
    });

    it('takes a store written before versions were recorded as format 1, its ledgers kept', async () => {
      const backend = await openBackend();
      const first = await LedgerStore.open(new KvLedgerBackend(backend.kv));
      await first.putLedger(mainnetLedgerWrite(11119599));
      await backend.kv.batch([{ type: 'del', key: FORMAT_VERSION_KEY }]);
      await first.close();
      const reopened = await LedgerStore.open(new KvLedgerBackend(await backend.reopen()));
      cleanups.push(() => reopened.close());
      expect(reopened.ranges).toEqual([{ first: 11119599, last: 11119599 }]);
      expect(await reopened.backend.storeMeta.formatVersion()).toBe(1);
    });

    it.each([
      ['a later format', Buffer.from([0, 0, 0, STORE_FORMAT_VERSION + 1]), `in store format ${STORE_FORMAT_VERSION + 1}`],
      ['an unreadable version', Buffer.from('two'), 'in store format (unreadable)'],
    ])('refuses a store of %s, naming it, and writes nothing', async (_case, recorded, named) => {
      const backend = await openBackend();
      const first = await LedgerStore.open(new KvLedgerBackend(backend.kv));
      await first.putLedger(mainnetLedgerWrite(11119599));
      await backend.kv.batch([{ type: 'put', key: FORMAT_VERSION_KEY, value: recorded }]);
      await first.close();
      const kv = await backend.reopen();
      const refusal = await rejectionOf<Error>(LedgerStore.open(new KvLedgerBackend(kv, 'the database at /data/node.db')));
      expect(refusal.message).toContain(`the database at /data/node.db is ${named}, and this ledger-node reads and writes format ${STORE_FORMAT_VERSION} only`);
      const again = await backend.reopen();
      cleanups.push(() => again.close());
      expect(await again.get(FORMAT_VERSION_KEY)).toEqual(recorded);
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

  it.each<[string, (write: LedgerWrite) => unknown, string]>([
    ['a 31-byte ledger hash', (write) => (write.ledgerHash = write.ledgerHash.subarray(1)), 'ledger.ledger_hash'],
    ['a header of another ledger', (write) => (write.ledgerIndex = 11119601), 'ledger.header_blob'],
    ['a truncated header', (write) => (write.headerBlob = write.headerBlob.subarray(0, 117)), 'ledger.header_blob'],
    ['a hash the header does not hash to', (write) => (write.ledgerHash = Buffer.alloc(32, 1)), 'ledger.ledger_hash'],
    ['a transaction hash its blob does not hash to', (write) => (write.transactions[2].hash = Buffer.alloc(32, 1)), 'ledger.transactions[2].hash'],
    ['a 19-byte sender', (write) => (write.transactions[0].senderAccountId = Buffer.alloc(19)), 'ledger.transactions[0].sender_account_id'],
    ['an affected account without a side', (write) => (write.transactions[1].affectedAccounts[0].direction = 0), 'ledger.transactions[1].affected_accounts[0].direction'],
    ['two transactions at one position', (write) => (write.transactions[3].txIndex = write.transactions[4].txIndex), 'ledger.transactions[4].tx_index'],
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
    for await (const entry of store.backend.accountTransactions.entries(accountId(offer.Account))) entries.push(entry);
    expect(entries).toContainEqual({ accountId: accountId(offer.Account), ledgerIndex: 11119600, txIndex: 12, direction: 2, transactionType: 'OfferCreate' });
    // Every entry is in (ledger, position) order.
    const positions = entries.map((entry) => entry.ledgerIndex * 1000 + entry.txIndex);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    const payment = fixture.ledger.transactions!.find((tx) => tx.TransactionType === 'Payment' && tx.Destination !== tx.Account)!;
    const received = [];
    for await (const entry of store.backend.accountTransactions.entries(accountId(payment.Destination), { reverse: true })) received.push(entry);
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
        expect(await store.backend.sentCounts.sentUpTo(accountId(address), upTo)).toBe(BigInt(ledgers.filter((ledgerIndex) => ledgerIndex <= upTo).length));
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
      expect(await store.backend.sentCounts.sentUpTo(account, upTo)).toBe(BigInt(expected));
    }
  });

  it('keeps each changed object as a version at its ledger, the one before at the previous ledger, and deletions as tombstones', async () => {
    const store = await openStore();
    const write = mainnetLedgerWrite(11119601);
    await store.putLedger(write);
    const deleted = write.stateChanges.find((change) => change.kind === StateChangeKind.DELETED && change.previousBlob)!;
    expect(await store.backend.stateObjects.at(deleted.key, 11119601)).toEqual({ ledgerIndex: 11119601, deleted: true });
    expect(await store.backend.stateObjects.at(deleted.key, 11119600)).toEqual({ ledgerIndex: 11119600, deleted: false, blob: deleted.previousBlob });
    expect(await store.backend.stateObjects.at(deleted.key, 11119599)).toBeUndefined();

    const trustLine = write.stateChanges.find((change) => change.ledgerEntryType === 'RippleState' && change.kind === StateChangeKind.MODIFIED)!;
    expect(await store.backend.stateObjects.at(trustLine.key, 0xffffffff)).toEqual({ ledgerIndex: 11119601, deleted: false, blob: trustLine.blob });
    expect(trustLine.ownerAccountIds).toHaveLength(2);
    for (const owner of trustLine.ownerAccountIds) {
      expect((await store.backend.trustLines.keysOf(owner)).map((objectKey) => objectKey.toString('hex'))).toContain(trustLine.key.toString('hex'));
    }
    const versions = write.stateChanges.length + write.stateChanges.filter((change) => change.previousBlob).length;
    expect((await store.status()).counters.stateObjectVersionCount).toBe(BigInt(versions));

    // The ledger before, stored afterwards, writes its own versions over the derived ones and
    // adds no count for a version already there.
    const earlier = mainnetLedgerWrite(11119600);
    await store.putLedger(earlier);
    const touchedByBoth = earlier.stateChanges.find((change) => write.stateChanges.some((later) => later.key.equals(change.key) && later.previousBlob))!;
    expect(await store.backend.stateObjects.at(touchedByBoth.key, 11119600)).toEqual({
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
    expect(await store.backend.stateObjects.at(changed.key, 0xffffffff)).toBeUndefined();

    await store.putStateChanges({ ledgerIndex: 11119601, ledgerHash: full.ledgerHash, stateChanges: full.stateChanges });
    expect(await store.backend.stateObjects.at(changed.key, 0xffffffff)).toEqual({ ledgerIndex: 11119601, deleted: false, blob: changed.blob });
    expect(await store.backend.stateObjects.at(changed.key, 11119600)).toEqual({ ledgerIndex: 11119600, deleted: false, blob: changed.previousBlob });
    const versions = full.stateChanges.length + full.stateChanges.filter((change) => change.previousBlob).length;
    expect((await store.status()).counters.stateObjectVersionCount).toBe(BigInt(versions));
    // Sent again (a call cut by a crash): the same versions, counted once.
    await store.putStateChanges({ ledgerIndex: 11119601, ledgerHash: full.ledgerHash, stateChanges: full.stateChanges });
    expect((await store.status()).counters.stateObjectVersionCount).toBe(BigInt(versions));
    const reopened = await store.reopen();
    expect(await reopened.backend.stateObjects.at(changed.key, 11119600)).toEqual({ ledgerIndex: 11119600, deleted: false, blob: changed.previousBlob });

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
      for await (const entry of store.backend.accountTransactions.entries(sender)) entries.push(entry.ledgerIndex);
      return { status: await store.status(), sent: await store.backend.sentCounts.sentUpTo(sender, 11119601), entries };
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
});
