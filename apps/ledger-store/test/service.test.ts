import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeLedgerHeader, getProfile, stateEntryFromLedgerJson } from '@ledger-node/chain';
import { KvLedgerBackend } from '../src/backend/kv-backend';
import { LedgerStoreServiceService, LedgerTag, RangesChange, TxDetail, type LedgerSelector, type WatchRangesResponse } from '@ledger-node/contracts';
import { Conflict, InvalidParams, type LedgerNodeError } from '@ledger-node/errors';
import { checkHealth, createGrpcClient, fromItemError, useTlsIdentity } from '@ledger-node/grpc';
import { cliEntry, freePort, readFixture, rejectionOf, serviceCertificate, startProcess, stopAll, storedHeaders, tempDir, testAuthority, tlsFlags, waitUntil } from '@ledger-node/test-utils';
import { openRocksDb } from '../src/storage/rocksdb';
import { FORMAT_VERSION_KEY } from '../src/repositories/storeMeta';
import { LedgerStore, STORE_FORMAT_VERSION } from '../src/store';
import { ledgerWriteFromJson, MAINNET_RUN, mainnetFixture, mainnetLedgerWrite, syntheticLedgerWrite, type LedgerFixture } from './support/ledgerWrites';

const cleanups: (() => void)[] = [];
const clients: { close(): void }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  useTlsIdentity(undefined);
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function freshDataDir(): string {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  return dir;
}

/** A data dir whose database already holds (synthetic) ledgers at `indexes`. */
async function dataDirWithLedgers(indexes: number[]): Promise<string> {
  const dir = freshDataDir();
  const store = await LedgerStore.open(new KvLedgerBackend(await openRocksDb(`${dir}/node.db`)));
  for (const ledgerIndex of indexes) await store.putLedger(syntheticLedgerWrite(ledgerIndex));
  await store.close();
  return dir;
}

/** A real `ledger-node serve ledger-store` process on `dir` and a gRPC client to it. */
async function serveStore(dir: string) {
  const address = `unix:${dir}/run/ledger-store.sock`;
  const process = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address]);
  await process.waitFor(/"msg":"serving"/);
  const client = createGrpcClient(LedgerStoreServiceService, address, { serviceLabel: 'ledger-store' });
  cleanups.push(() => client.close());
  return { process, client };
}

const failure = (promise: Promise<unknown>) => rejectionOf<LedgerNodeError>(promise);

const xrpl = getProfile('xrpl');
const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });
const hex = (bytes: Buffer | undefined) => bytes?.toString('hex').toUpperCase();

describe('ledger-store as a separate process', () => {
  it.each([
    ['a unix socket', (dir: string) => Promise.resolve({ address: `unix:${dir}/run/ledger-store.sock`, flags: [] as string[] })],
    [
      'TCP with mutual TLS',
      async (dir: string) => {
        // The test's client calls as the facade: any service certificate of the CA may read.
        const ca = testAuthority('deployment-ca');
        const facade = serviceCertificate(ca, 'facade', dir);
        useTlsIdentity({ cert: readFileSync(facade.cert), key: readFileSync(facade.key), ca: readFileSync(facade.ca) });
        return { address: `127.0.0.1:${await freePort()}`, flags: tlsFlags(serviceCertificate(ca, 'ledger-store', dir)) };
      },
    ],
  ])('serves gRPC health and GetStatus over %s, from RocksDB in <data_dir>/node.db', async (_label, listenerFor) => {
    const dir = await dataDirWithLedgers([5, 6, 7, 8, 9]);
    const { address, flags } = await listenerFor(dir);
    const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address, ...flags]);
    await store.waitFor(/"msg":"serving"/);
    expect(await checkHealth(address)).toBe('SERVING');
    expect(await checkHealth(address, 'ledgernode.ledgerstore.v1.LedgerStoreService')).toBe('SERVING');
    // The exec probe of a Kubernetes pod: the CLI with the service's own address and certificate.
    const probe = (service: string) => spawnSync(process.execPath, [cliEntry(), 'probe', service, '-data_dir', dir, '-ledger_store_addr', address, ...flags], { encoding: 'utf8' });
    expect(probe('ledger-store')).toMatchObject({ status: 0, stdout: 'ledger-store SERVING\n' });
    expect(probe('sync')).toMatchObject({ status: 1, stdout: expect.stringMatching(/^sync UNREACHABLE: sync unavailable: cannot connect/) });
    const client = createGrpcClient(LedgerStoreServiceService, address);
    try {
      const status = await client.getStatus({});
      expect(status.lowestLedgerIndex).toBe(5);
      expect(status.highestLedgerIndex).toBe(9);
      expect(status.completeRanges).toEqual([{ first: 5, last: 9 }]);
      expect(status.ledgerCount).toBe(5n);
      expect(status.transactionCount).toBe(15n);
      expect(status.dbSizeBytes).toBeGreaterThan(0n);
    } finally {
      client.close();
    }
    expect(await store.stop('SIGTERM')).toBe(0);
  });

  it('over mutual TLS takes writes from sync\'s certificate only', async () => {
    const dir = await dataDirWithLedgers([5]);
    const ca = testAuthority('deployment-ca');
    const address = `127.0.0.1:${await freePort()}`;
    const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address, ...tlsFlags(serviceCertificate(ca, 'ledger-store', dir))]);
    await store.waitFor(/"msg":"serving"/);
    const clientAs = (service: string) => {
      const files = serviceCertificate(ca, service, dir);
      useTlsIdentity({ cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca) });
      const client = createGrpcClient(LedgerStoreServiceService, address, { serviceLabel: 'ledger-store' });
      clients.push(client);
      return client;
    };
    const write = { ledgers: [mainnetLedgerWrite(MAINNET_RUN[0])] };
    for (const service of ['facade', 'submission']) {
      const refused = await failure(clientAs(service).putLedgers(write));
      expect([refused.kind, refused.message]).toEqual(['unauthorized', `LedgerStoreService.PutLedgers admits sync only; the caller's certificate names ${service}`]);
      await expect(clientAs(service).getStatus({})).resolves.toMatchObject({ highestLedgerIndex: 5 });
    }
    await clientAs('sync').putLedgers(write);
    expect((await clientAs('facade').getStatus({})).completeRanges).toEqual([{ first: 5, last: 5 }, { first: MAINNET_RUN[0], last: MAINNET_RUN[0] }]);
    expect(await store.stop('SIGTERM')).toBe(0);
  });

  it('feeds jt_blockNumber through a separate facade process: the highest stored ledger', async () => {
    const dir = await dataDirWithLedgers([41, 42]);
    const port = await freePort();
    const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir]);
    const facade = startProcess([cliEntry(), 'serve', 'facade', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-data_dir', dir]);
    await Promise.all([store.waitFor(/"msg":"serving"/), facade.waitFor(/facade serving/)]);
    const response = await fetch(`http://127.0.0.1:${port}/v1/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","method":"jt_blockNumber","params":[],"id":1}',
    });
    expect(await response.text()).toBe('{"id":1,"jsonrpc":"2.0","result":42,"status":"success"}');
  });

  it('refuses to start when the database cannot be opened, naming it', async () => {
    const dir = freshDataDir();
    const first = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir]);
    await first.waitFor(/"msg":"serving"/);
    // RocksDB's lock file: a second process on the same database must fail cleanly.
    const second = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', `unix:${dir}/other.sock`]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`cannot open the database at ${dir}/node.db`);
  });

  it('refuses a database of another store format, naming the database and both formats, and leaves it as it was', async () => {
    const dir = await dataDirWithLedgers([41]);
    const kv = await openRocksDb(`${dir}/node.db`);
    const laterFormat = Buffer.from([0, 0, 0, STORE_FORMAT_VERSION + 1]);
    await kv.batch([{ type: 'put', key: FORMAT_VERSION_KEY, value: laterFormat }]);
    await kv.close();
    const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir]);
    expect(await store.exited).toBe(1);
    expect(store.output()).toContain(`the database at ${dir}/node.db is in store format ${STORE_FORMAT_VERSION + 1}, and this ledger-node reads and writes format ${STORE_FORMAT_VERSION} only`);
    const after = await openRocksDb(`${dir}/node.db`);
    cleanups.push(() => after.close());
    expect(await after.get(FORMAT_VERSION_KEY)).toEqual(laterFormat);
  });
});

describe('LedgerStore over gRPC with the mainnet run 11119599..11119604', () => {
  it('merges complete ranges as ledgers arrive out of order and reads them back byte-exact by index, hash and tag', async () => {
    const { client } = await serveStore(freshDataDir());
    expect(await client.putLedgers({ ledgers: [mainnetLedgerWrite(11119599)] })).toEqual({ storedCount: 1, completeRanges: [{ first: 11119599, last: 11119599 }] });
    expect(await client.putLedgers({ ledgers: [mainnetLedgerWrite(11119601)] })).toEqual({
      storedCount: 1,
      completeRanges: [
        { first: 11119599, last: 11119599 },
        { first: 11119601, last: 11119601 },
      ],
    });
    expect(await client.putLedgers({ ledgers: [mainnetLedgerWrite(11119600)] })).toEqual({ storedCount: 1, completeRanges: [{ first: 11119599, last: 11119601 }] });
    const rest = await client.putLedgers({ ledgers: [11119604, 11119603, 11119602, 11119600].map(mainnetLedgerWrite) });
    // 11119600 was stored already: accepted again, not counted.
    expect(rest).toEqual({ storedCount: 3, completeRanges: [{ first: 11119599, last: 11119604 }] });

    for (const ledgerIndex of MAINNET_RUN) {
      const fixture = mainnetFixture(ledgerIndex);
      const write = mainnetLedgerWrite(ledgerIndex);
      const { ledger } = await client.getLedger({ ledger: atIndex(ledgerIndex), txDetail: TxDetail.FULL });
      expect(hex(ledger?.ledgerHash)).toBe(fixture.ledger_hash);
      expect(ledger?.headerBlob.equals(write.headerBlob)).toBe(true);
      expect(ledger?.transactionCount).toBe(fixture.ledger.transactions!.length);
      const expectedTransactions = [...write.transactions]
        .sort((a, b) => a.txIndex - b.txIndex)
        .map((tx) => ({ hash: hex(tx.hash), tx: hex(tx.txBlob), meta: hex(tx.metaBlob), txIndex: tx.txIndex }));
      expect(ledger?.transactions.map((tx) => ({ hash: hex(tx.hash), tx: hex(tx.txBlob), meta: hex(tx.metaBlob), txIndex: tx.txIndex }))).toEqual(
        expectedTransactions,
      );
      const byHash = await client.getLedger({ ledger: { selector: { $case: 'hash', hash: write.ledgerHash } }, txDetail: TxDetail.HASHES });
      expect(byHash.ledger?.ledgerIndex).toBe(ledgerIndex);
      expect(byHash.ledger?.transactionHashes.map(hex)).toEqual(expectedTransactions.map((tx) => tx.hash));
    }
    const byTag = async (tag: LedgerTag) => (await client.getLedger({ ledger: { selector: { $case: 'tag', tag } }, txDetail: TxDetail.NONE })).ledger?.ledgerIndex;
    expect(await byTag(LedgerTag.LATEST)).toBe(11119604);
    expect(await byTag(LedgerTag.VALIDATED)).toBe(11119604);
    expect(await byTag(LedgerTag.CURRENT)).toBe(11119604);
    expect(await byTag(LedgerTag.PENDING)).toBe(11119604);
    expect(await byTag(LedgerTag.EARLIEST)).toBe(11119599);
    expect(await client.getLedger({ ledger: atIndex(11119605), txDetail: TxDetail.FULL })).toEqual({ ledger: undefined });

    // The headers of the stored ledgers around the run carry each ledger's hash and its parent's, for chain checks.
    const ledgers = await storedHeaders(client, 11119598, 11119610);
    expect(ledgers.map((ledger) => ledger.ledgerIndex)).toEqual([...MAINNET_RUN]);
    for (let position = 1; position < ledgers.length; position++) {
      expect(decodeLedgerHeader(ledgers[position].headerBlob).parentHash).toBe(hex(ledgers[position - 1].ledgerHash));
    }

    const status = await client.getStatus({});
    expect(status).toMatchObject({
      completeRanges: [{ first: 11119599, last: 11119604 }],
      lowestLedgerIndex: 11119599,
      highestLedgerIndex: 11119604,
      ledgerCount: 6n,
      transactionCount: BigInt(19 + 13 + 29 + 19 + 49 + 30),
    });
  });

  it('answers GetTransaction and GetTransactionByIndex for every transaction of the run', async () => {
    const { client } = await serveStore(freshDataDir());
    await client.putLedgers({ ledgers: [...MAINNET_RUN].reverse().map(mainnetLedgerWrite) });
    let answered = 0;
    for (const ledgerIndex of MAINNET_RUN) {
      const fixture = mainnetFixture(ledgerIndex);
      for (const tx of mainnetLedgerWrite(ledgerIndex).transactions) {
        const expected = {
          hash: hex(tx.hash),
          txBlob: hex(tx.txBlob),
          metaBlob: hex(tx.metaBlob),
          ledgerIndex,
          txIndex: tx.txIndex,
          ledgerHash: fixture.ledger_hash,
          closeTimeRippleEpoch: fixture.ledger.close_time,
        };
        const readable = (record: Awaited<ReturnType<typeof client.getTransaction>>['transaction']) =>
          record && { ...record, hash: hex(record.hash), txBlob: hex(record.txBlob), metaBlob: hex(record.metaBlob), ledgerHash: hex(record.ledgerHash) };
        expect(readable((await client.getTransaction({ hash: tx.hash })).transaction)).toEqual(expected);
        expect(readable((await client.getTransactionByIndex({ ledger: atIndex(ledgerIndex), txIndex: tx.txIndex })).transaction)).toEqual(expected);
        answered++;
      }
    }
    expect(answered).toBe(159);
    expect(await client.getTransaction({ hash: Buffer.alloc(32) })).toEqual({ transaction: undefined });
    const error = await failure(client.getTransaction({ hash: Buffer.alloc(31) }));
    expect(error).toBeInstanceOf(InvalidParams);
    expect(error.details.param).toBe('hash');
  });

  it('answers GetTransactions with the stored ones among the hashes, in the order asked, as GetTransaction answers each', async () => {
    const { client } = await serveStore(freshDataDir());
    await client.putLedgers({ ledgers: [11119600, 11119603].map(mainnetLedgerWrite) });
    const stored = [11119603, 11119600].flatMap((ledgerIndex) => mainnetLedgerWrite(ledgerIndex).transactions.map((tx) => tx.hash));
    const absent = [Buffer.alloc(32, 1), mainnetLedgerWrite(11119601).transactions[0].hash];
    const asked = [absent[0], ...stored.slice(0, 20), absent[1], ...stored.slice(20)];
    const { transactions } = await client.getTransactions({ hashes: asked });
    expect(transactions.map((record) => hex(record.hash))).toEqual(stored.map(hex));
    for (const record of transactions) expect((await client.getTransaction({ hash: record.hash })).transaction).toEqual(record);
    expect(await client.getTransactions({ hashes: [] })).toEqual({ transactions: [] });

    const malformed = await failure(client.getTransactions({ hashes: [stored[0], Buffer.alloc(31)] }));
    expect(malformed).toBeInstanceOf(InvalidParams);
    expect(malformed.details.param).toBe('hashes[1]');
    const tooMany = await failure(client.getTransactions({ hashes: Array.from({ length: 1001 }, () => stored[0]) }));
    expect(tooMany.details.param).toBe('hashes');
  });

  it('refuses a conflicting hash at a stored index and changes nothing; names the field of a malformed write', async () => {
    const { client } = await serveStore(freshDataDir());
    await client.putLedgers({ ledgers: [mainnetLedgerWrite(11119602)] });
    const before = await client.getStatus({});

    const conflicting = syntheticLedgerWrite(11119602);
    const conflict = await failure(client.putLedgers({ ledgers: [conflicting] }));
    expect(conflict).toBeInstanceOf(Conflict);
    expect(conflict.message).toContain(`ledger 11119602 is stored with hash ${mainnetFixture(11119602).ledger_hash}`);
    expect((await client.getStatus({})).transactionCount).toBe(before.transactionCount);
    expect((await client.getStatus({})).ledgerCount).toBe(before.ledgerCount);
    expect(await client.getTransaction({ hash: conflicting.transactions[0].hash })).toEqual({ transaction: undefined });
    expect(hex((await client.getLedger({ ledger: atIndex(11119602), txDetail: TxDetail.NONE })).ledger?.ledgerHash)).toBe(mainnetFixture(11119602).ledger_hash);

    const malformed = mainnetLedgerWrite(11119603);
    malformed.transactions[7].senderAccountId = Buffer.alloc(21);
    const invalid = await failure(client.putLedgers({ ledgers: [malformed] }));
    expect(invalid).toBeInstanceOf(InvalidParams);
    expect(invalid.details.param).toBe('ledgers[0].transactions[7].sender_account_id');
    expect((await client.getStatus({})).completeRanges).toEqual([{ first: 11119602, last: 11119602 }]);
  });

  it('PutLedgersStream stores batch after batch, answered in order, and ends at a refused batch with nothing after it written', async () => {
    const { client } = await serveStore(freshDataDir());
    const answersOf = async (batches: number[][], refused?: { batch: number; write: ReturnType<typeof mainnetLedgerWrite> }) => {
      const call = client.putLedgersStream();
      batches.forEach((batch, position) => call.send({ ledgers: position === refused?.batch ? [refused.write] : batch.map(mainnetLedgerWrite) }));
      call.end();
      const answers: string[] = [];
      try {
        for await (const answer of call.responses) answers.push(`${answer.storedCount}:${answer.completeRanges.map(({ first, last }) => `${first}-${last}`).join(',')}`);
      } catch (error) {
        answers.push((error as LedgerNodeError).kind);
      }
      return answers;
    };
    // Backfill's order: the newest batch first, each batch descending.
    expect(await answersOf([[11119604, 11119603], [11119602]])).toEqual(['2:11119603-11119604', '1:11119602-11119604']);
    // A batch refused (another hash at a stored index) ends the stream; the batch sent after it is not written.
    const conflicting = syntheticLedgerWrite(11119602);
    expect(await answersOf([[11119601], [], [11119599]], { batch: 1, write: conflicting })).toEqual(['1:11119601-11119604', 'conflict']);
    const status = await client.getStatus({});
    expect(status.completeRanges).toEqual([{ first: 11119601, last: 11119604 }]);
    expect(status.ledgerCount).toBe(4n);
  });

  it('WatchLedgers replays stored ledgers in order with each outcome, then follows new ones', async () => {
    const { client, process } = await serveStore(freshDataDir());
    await client.putLedgers({ ledgers: [11119601, 11119599, 11119600].map(mainnetLedgerWrite) });
    const controller = new AbortController();
    const received: { ledgerIndex: number; hash?: string; closeTime: number; outcomes: [string | undefined, string][] }[] = [];
    const watching = (async () => {
      for await (const event of client.watchLedgers({ fromLedgerIndex: 11119599, includeBackfill: false }, { signal: controller.signal })) {
        received.push({
          ledgerIndex: event.ledgerIndex,
          hash: hex(event.ledgerHash),
          closeTime: event.closeTimeRippleEpoch,
          outcomes: event.transactions.map((tx) => [hex(tx.hash), tx.engineResult]),
        });
        if (received.length === 3) await client.putLedgers({ ledgers: [mainnetLedgerWrite(11119602)] });
        if (received.length === 4) controller.abort();
      }
    })();
    await watching;
    expect(received).toEqual(
      [11119599, 11119600, 11119601, 11119602].map((ledgerIndex) => {
        const fixture = mainnetFixture(ledgerIndex);
        return {
          ledgerIndex,
          hash: fixture.ledger_hash,
          closeTime: fixture.ledger.close_time,
          outcomes: [...fixture.ledger.transactions!]
            .sort((a, b) => a.metaData.TransactionIndex - b.metaData.TransactionIndex)
            .map((tx) => [tx.hash, tx.metaData.TransactionResult]),
        };
      }),
    );

    // A stream still open when the service stops is ended, so the stop is prompt and clean.
    const live = client.watchLedgers({ includeBackfill: true })[Symbol.asyncIterator]();
    const nextEvent = live.next();
    await client.getStatus({});
    const stopStarted = Date.now();
    expect(await process.stop('SIGTERM')).toBe(0);
    expect(Date.now() - stopStarted).toBeLessThan(3_000);
    expect(await nextEvent).toEqual({ done: true, value: undefined });
  });

  it('WatchRanges says what the store holds, then each removal of bounded history and of DeleteLedger; GetStatus reports the retention floor', async () => {
    const dir = freshDataDir();
    const address = `unix:${dir}/run/ledger-store.sock`;
    startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address, '-ledger_history', '3']);
    const client = createGrpcClient(LedgerStoreServiceService, address, { serviceLabel: 'ledger-store' });
    clients.push(client);
    await waitUntil(async () => (await client.getStatus({}).catch(() => undefined)) !== undefined || undefined, 20_000, 'the ledger-store to answer');
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const announced: WatchRangesResponse[] = [];
    void (async () => {
      for await (const message of client.watchRanges({}, { signal: controller.signal })) announced.push(message);
    })().catch(() => undefined);
    await waitUntil(() => announced.length > 0 || undefined, 10_000, 'what the store holds');
    expect(announced[0]).toEqual({ change: RangesChange.CURRENT, completeRanges: [], removedRanges: [] });

    await client.putLedgers({ ledgers: MAINNET_RUN.map(mainnetLedgerWrite) });
    await waitUntil(async () => ((await client.getStatus({})).completeRanges[0]?.first === 11119602 && announced.at(-1)?.completeRanges[0]?.first === 11119602) || undefined, 10_000, 'the lowest three to be removed and announced');
    expect((await client.getStatus({})).retentionFloor).toBe(11119602);
    const removals = announced.slice(1);
    expect(removals.every((message) => message.change === RangesChange.RETENTION && message.retentionFloor === 11119602)).toBe(true);
    expect(removals.flatMap((message) => message.removedRanges)).toEqual([{ first: 11119599, last: 11119601 }]);

    await client.deleteLedger({ ledger: { ...mainnetLedgerWrite(11119603), stateChanges: [] } });
    await waitUntil(() => announced.length > removals.length + 1 || undefined, 10_000, 'the deletion to be announced');
    expect(announced.at(-1)).toEqual({
      change: RangesChange.LEDGER_DELETED,
      completeRanges: [{ first: 11119602, last: 11119602 }, { first: 11119604, last: 11119604 }],
      retentionFloor: 11119602,
      removedRanges: [{ first: 11119603, last: 11119603 }],
    });
  });

  it('keeps everything stored across a restart', async () => {
    const dir = freshDataDir();
    const first = await serveStore(dir);
    await first.client.putLedgers({ ledgers: [11119603, 11119604].map(mainnetLedgerWrite) });
    expect(await first.process.stop('SIGTERM')).toBe(0);

    const second = await serveStore(dir);
    expect(await second.client.getStatus({})).toMatchObject({ completeRanges: [{ first: 11119603, last: 11119604 }], ledgerCount: 2n, transactionCount: 79n });
    expect((await storedHeaders(second.client, 11119603, 11119604)).map((ledger) => hex(ledger.ledgerHash))).toEqual(
      [11119603, 11119604].map((ledgerIndex) => mainnetFixture(ledgerIndex).ledger_hash),
    );
  });
});

/** A ledger-store process holding mainnet ledger 38129 with its full state (the fixture), downloaded and complete. */
async function serveFullState() {
  const fixture = readFixture<LedgerFixture>('xrpl/ledgers/mainnet/38129-full-state.json');
  const entries: Record<string, any>[] = fixture.ledger.accountState;
  const { client } = await serveStore(freshDataDir());
  await client.putLedgers({ ledgers: [{ ...ledgerWriteFromJson(fixture), stateChanges: [] }] });
  await client.putStateObjects({
    ledgerIndex: 38129,
    objects: entries.map((entry) => {
      const { index, blob } = stateEntryFromLedgerJson(entry, xrpl);
      const owners: string[] = entry.LedgerEntryType === 'RippleState' ? [entry.LowLimit.issuer, entry.HighLimit.issuer] : [];
      return {
        key: Buffer.from(index, 'hex'),
        blob: Buffer.from(blob, 'hex'),
        ledgerEntryType: entry.LedgerEntryType,
        ownerAccountIds: owners.map((address) => Buffer.from(xrpl.codec.decodeAccountId(address))),
      };
    }),
    marker: Buffer.alloc(0),
    complete: true,
    abandon: false,
  });
  return { client, fixture, entries };
}

describe('GetAccountStates over gRPC with the full state of mainnet ledger 38129', () => {
  it('answers each read with the fixture objects as it answers the read alone, and refuses a read on its own with its error', async () => {
    const { client, fixture, entries } = await serveFullState();
    const lines = entries.filter((entry) => entry.LedgerEntryType === 'RippleState');
    const addresses = [...new Set(lines.flatMap((line) => [line.LowLimit.issuer as string, line.HighLimit.issuer as string]))].slice(0, 4);
    const accountIds = addresses.map((address) => Buffer.from(xrpl.codec.decodeAccountId(address)));
    const reads = [
      ...accountIds.map((accountId) => ({ accountId, ledger: atIndex(38129) })),
      { accountId: accountIds[0], ledger: atIndex(38130) },
      { accountId: Buffer.alloc(19), ledger: atIndex(38129) },
    ];
    const { results } = await client.getAccountStates({ requests: reads });
    expect(results).toHaveLength(reads.length);
    // Each read is answered as the same read alone in a call of its own.
    for (const [position, read] of reads.entries()) {
      expect(results[position]).toEqual((await client.getAccountStates({ requests: [read] })).results[0]);
    }

    const blobOf = (entry: Record<string, any>) => Buffer.from(stateEntryFromLedgerJson(entry, xrpl).blob, 'hex');
    for (const [position, address] of addresses.entries()) {
      const root = entries.find((entry) => entry.LedgerEntryType === 'AccountRoot' && entry.Account === address);
      const trustLines = lines
        .filter((line) => line.LowLimit.issuer === address || line.HighLimit.issuer === address)
        .sort((a, b) => (stateEntryFromLedgerJson(a, xrpl).index < stateEntryFromLedgerJson(b, xrpl).index ? -1 : 1));
      expect(results[position].result).toEqual({
        $case: 'state',
        state: { accountRootBlob: root && blobOf(root), trustLineBlobs: trustLines.map(blobOf), ledgerIndex: 38129, ledgerHash: Buffer.from(fixture.ledger_hash, 'hex') },
      });
    }
    expect(results[0].result?.$case === 'state' && results[0].result.state.trustLineBlobs.length).toBeGreaterThan(0);
    const refusal = (position: number) => {
      const result = results[position].result;
      if (result?.$case !== 'error') throw new Error(`read ${position} was answered, not refused`);
      const error = fromItemError(result.error);
      return { kind: error.kind, message: error.message, details: error.details };
    };
    expect(refusal(4)).toEqual({
      kind: 'out_of_range',
      message: 'the ledger asked for is not stored; account state is stored for ledgers 38129-38129',
      details: { data: { state_range: { first: 38129, last: 38129 }, complete_ranges: [{ first: 38129, last: 38129 }] } },
    });
    expect(refusal(5)).toEqual({ kind: 'invalid_params', message: 'account_id must be 20 bytes, got 19', details: { param: 'account_id' } });
    const tooMany = await failure(client.getAccountStates({ requests: Array.from({ length: 1001 }, () => reads[0]) }));
    expect(tooMany.details.param).toBe('requests');
  });
});

describe('GetStateObjects and ListStateObjects over gRPC with the full state of mainnet ledger 38129', () => {
  it('reads objects by key in the order asked, lists one key range page by page, and refuses as the state reads do', async () => {
    const { client, fixture, entries } = await serveFullState();
    const ledgerHash = Buffer.from(fixture.ledger_hash, 'hex');
    const stored = entries.map((entry) => stateEntryFromLedgerJson(entry, xrpl)).sort((a, b) => (a.index < b.index ? -1 : 1));
    const keyOf = (position: number) => Buffer.from(stored[position].index, 'hex');
    const blobOf = (position: number) => Buffer.from(stored[position].blob, 'hex');
    const neverSeen = Buffer.alloc(32, 0xee);

    const keys = [keyOf(7), neverSeen, keyOf(0), keyOf(stored.length - 1), keyOf(7)];
    expect(await client.getStateObjects({ keys, ledger: atIndex(38129) })).toEqual({
      objects: [
        { key: keyOf(7), blob: blobOf(7) },
        { key: neverSeen, blob: undefined },
        { key: keyOf(0), blob: blobOf(0) },
        { key: keyOf(stored.length - 1), blob: blobOf(stored.length - 1) },
        { key: keyOf(7), blob: blobOf(7) },
      ],
      ledgerIndex: 38129,
      ledgerHash,
    });
    const outside = await failure(client.getStateObjects({ keys, ledger: atIndex(38130) }));
    expect({ kind: outside.kind, message: outside.message, data: outside.details.data }).toEqual({
      kind: 'out_of_range',
      message: 'the ledger asked for is not stored; account state is stored for ledgers 38129-38129',
      data: { state_range: { first: 38129, last: 38129 }, complete_ranges: [{ first: 38129, last: 38129 }] },
    });
    const malformed = await failure(client.getStateObjects({ keys: [keyOf(0), Buffer.alloc(20)], ledger: atIndex(38129) }));
    expect({ kind: malformed.kind, message: malformed.message, param: malformed.details.param }).toEqual({ kind: 'invalid_params', message: 'keys[1] must be 32 bytes, got 20', param: 'keys[1]' });

    // The objects strictly between the 10th and the 50th key, five a page, the ledger named by tag.
    const listed: Buffer[] = [];
    let afterKey: Buffer = keyOf(10);
    for (let pages = 0; ; pages++) {
      const page = await client.listStateObjects({ ledgerIndex: 0, ledger: { selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, afterKey, beforeKey: keyOf(50), limit: 5 });
      expect({ ledgerIndex: page.ledgerIndex, ledgerHash: page.ledgerHash }).toEqual({ ledgerIndex: 38129, ledgerHash });
      listed.push(...page.objects.map((object) => object.key));
      expect(page.objects.map((object) => object.blob)).toEqual(page.objects.map((object) => blobOf(stored.findIndex((entry) => entry.index === hex(object.key)))));
      if (page.nextAfterKey.length === 0) break;
      expect(page.objects).toHaveLength(5);
      expect(pages).toBeLessThan(20);
      afterKey = page.nextAfterKey;
    }
    expect(listed).toEqual(stored.slice(11, 50).map((entry) => Buffer.from(entry.index, 'hex')));
    // By index as before (no selector), bounded the same.
    const byIndex = await client.listStateObjects({ ledgerIndex: 38129, afterKey: keyOf(10), beforeKey: keyOf(50), limit: 0 });
    expect({ keys: byIndex.objects.map((object) => object.key), next: byIndex.nextAfterKey, ledgerHash: byIndex.ledgerHash }).toEqual({ keys: listed, next: Buffer.alloc(0), ledgerHash });

    const both = await failure(client.listStateObjects({ ledgerIndex: 38129, ledger: atIndex(38129), afterKey: Buffer.alloc(0), beforeKey: Buffer.alloc(0), limit: 1 }));
    expect({ kind: both.kind, param: both.details.param }).toEqual({ kind: 'invalid_params', param: 'ledger' });
    const badBound = await failure(client.listStateObjects({ ledgerIndex: 38129, afterKey: Buffer.alloc(0), beforeKey: Buffer.alloc(31), limit: 1 }));
    expect({ kind: badBound.kind, param: badBound.details.param }).toEqual({ kind: 'invalid_params', param: 'before_key' });
    expect((await failure(client.listStateObjects({ ledgerIndex: 0, ledger: atIndex(38130), afterKey: Buffer.alloc(0), beforeKey: Buffer.alloc(0), limit: 1 }))).kind).toBe('out_of_range');
  });
});
