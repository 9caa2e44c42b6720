import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KvLedgerBackend } from '../src/backend/kv-backend';
import { LedgerStoreServiceService, type LedgerWrite } from '@ledger-node/contracts';
import type { LedgerNodeError } from '@ledger-node/errors';
import { createGrpcClient } from '@ledger-node/grpc';
import { cliEntry, startProcess, stopAll, tempDir } from '@ledger-node/test-utils';
import { rangesOf } from '../src/ledgers/ranges';
import { Bucket, bucketRange, Keys } from '../src/storage/buckets';
import { openRocksDb } from '../src/storage/rocksdb';
import { LedgerStore } from '../src/store';
import { crashLedgerSize, syntheticLedgerWrite } from './support/ledgerWrites';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const FIRST = 5000;
const COUNT = 400;
const writerScript = path.join(import.meta.dirname, 'support/crashWriter.ts');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const expectedWrites = new Map<number, LedgerWrite>();
/** The ledger the writers store at `ledgerIndex` (made once: every check compares against it). */
function expectedWrite(ledgerIndex: number): LedgerWrite {
  let write = expectedWrites.get(ledgerIndex);
  if (!write) {
    write = syntheticLedgerWrite(ledgerIndex, { transactionCount: crashLedgerSize(ledgerIndex) });
    expectedWrites.set(ledgerIndex, write);
  }
  return write;
}

/**
 * Opens the database a killed process left behind and checks that it holds whole ledgers only:
 * every stored header has all its transactions, their rows and index entries; nothing exists for
 * a ledger without a header; the ranges and counters equal what the headers say. Returns the
 * stored indexes.
 */
async function expectOnlyWholeLedgers(databasePath: string): Promise<number[]> {
  const store = await LedgerStore.open(new KvLedgerBackend(await openRocksDb(databasePath)));
  try {
    const indexes: number[] = [];
    for await (const ledgerIndex of store.backend.ledgers.indexes()) indexes.push(ledgerIndex);
    expect(store.ranges).toEqual(rangesOf(indexes));

    let transactionCount = 0n;
    for (const ledgerIndex of indexes) {
      const expected = expectedWrite(ledgerIndex);
      const header = (await store.backend.ledgers.get(ledgerIndex))!;
      expect(header.ledgerHash.equals(expected.ledgerHash)).toBe(true);
      expect(await store.backend.ledgers.indexOfHash(expected.ledgerHash)).toBe(ledgerIndex);
      expect(header.transactionCount).toBe(expected.transactions.length);
      const rows = await store.backend.ledgerTransactions.ofLedger(ledgerIndex);
      expect(rows.map((row) => row.hash.toString('hex'))).toEqual(expected.transactions.map((tx) => tx.hash.toString('hex')));
      const records = await store.backend.transactionRecords.getMany(rows.map((row) => row.hash));
      expect(records.every((record) => record?.ledgerIndex === ledgerIndex)).toBe(true);
      const lastTx = expected.transactions.at(-1)!;
      const senderEntry = await store.backend.kv.get(Keys.accountTransaction.encode({ accountId: lastTx.senderAccountId, ledgerIndex, txIndex: lastTx.txIndex }));
      // Direction OUT (2), then the transaction type, so type filters page through the index alone.
      expect(senderEntry).toEqual(Buffer.concat([Buffer.of(2), Buffer.from(lastTx.transactionType, 'ascii')]));
      expect(await store.backend.stateObjects.at(expected.stateChanges.at(-1)!.key, ledgerIndex)).toMatchObject({ ledgerIndex, deleted: false });
      transactionCount += BigInt(expected.transactions.length);
    }

    // Nothing of a ledger whose header is missing: every transaction belongs to a stored ledger.
    const stored = new Set(indexes);
    let transactionRecords = 0n;
    for await (const [, value] of store.backend.kv.entries(bucketRange(Bucket.transaction))) {
      expect(stored.has(value.readUInt32BE(0))).toBe(true);
      transactionRecords++;
    }
    expect(transactionRecords).toBe(transactionCount);
    expect((await store.status()).counters).toMatchObject({ ledgerCount: BigInt(indexes.length), transactionCount });
    return indexes;
  } finally {
    await store.close();
  }
}

describe('crash safety: kill -9 at a random moment leaves whole ledgers only', () => {
  it('a writer killed four times mid-stream, then let finish, leaves every ledger once and one complete range', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const databasePath = `${dir}/node.db`;
    let storedBefore = 0;
    for (let round = 1; round <= 4; round++) {
      const writer = startProcess(['--import', 'tsx', writerScript, databasePath, String(FIRST), String(COUNT), String(round * 7919)]);
      await writer.waitFor(/writing/);
      await sleep(150 + Math.floor(Math.random() * 600));
      // A late round may find little left to write and end before the kill: its ledgers are checked all the same.
      const ended = await writer.stop('SIGKILL');
      expect([0, 'SIGKILL']).toContain(ended);
      const stored = await expectOnlyWholeLedgers(databasePath);
      // What a killed writer wrote stays, and nothing else: a kill that lands after its last write
      // (while it closes the database) finds every ledger stored.
      expect(stored.length).toBeLessThanOrEqual(COUNT);
      expect(stored.length).toBeGreaterThanOrEqual(storedBefore);
      storedBefore = stored.length;
    }
    expect(storedBefore).toBeGreaterThan(0);

    const finisher = startProcess(['--import', 'tsx', writerScript, databasePath, String(FIRST), String(COUNT), '1']);
    await finisher.waitFor(/done/, 60_000);
    expect(await finisher.exited).toBe(0);
    const stored = await expectOnlyWholeLedgers(databasePath);
    expect(stored).toEqual(Array.from({ length: COUNT }, (_, offset) => FIRST + offset));
  });

  it('the ledger-store service killed while a client streams PutLedgers one ledger a call keeps whole ledgers, and a restart accepts the rest', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const address = `unix:${dir}/run/ledger-store.sock`;
    const serve = () => startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address]);
    const writes = Array.from({ length: 120 }, (_, offset) => FIRST + offset)
      .reverse()
      .map(expectedWrite);

    const service = serve();
    await service.waitFor(/"msg":"serving"/);
    const client = createGrpcClient(LedgerStoreServiceService, address, { deadlineMs: 5_000 });
    cleanups.push(() => client.close());
    let acknowledged = 0;
    const streaming = (async () => {
      try {
        for (const ledger of writes) {
          await client.putLedgers({ ledgers: [ledger] });
          acknowledged++;
        }
      } catch (error) {
        return { acknowledged, error: error as LedgerNodeError };
      }
      return { acknowledged, error: undefined };
    })();
    // Killed after a random number of acknowledged writes: a moment inside the stream whatever the machine's speed.
    const killAfter = 5 + Math.floor(Math.random() * 60);
    while (acknowledged < killAfter) await sleep(2);
    await service.stop('SIGKILL');
    const { error } = await streaming;
    // The service died under the client: the call in flight fails as unavailable.
    expect(error?.kind).toBe('unavailable');
    const stored = await expectOnlyWholeLedgers(`${dir}/node.db`);
    expect(acknowledged).toBeLessThan(writes.length);
    // Every acknowledged write is stored (at most the one in flight is stored but unacknowledged).
    expect(stored.length - acknowledged).toBeGreaterThanOrEqual(0);
    expect(stored.length - acknowledged).toBeLessThanOrEqual(1);

    const restarted = serve();
    await restarted.waitFor(/"msg":"serving"/);
    const response = await client.putLedgers({ ledgers: writes });
    expect(response.storedCount).toBe(writes.length - stored.length);
    expect(response.completeRanges).toEqual([{ first: FIRST, last: FIRST + 119 }]);
    expect(await restarted.stop('SIGTERM')).toBe(0);
    await expectOnlyWholeLedgers(`${dir}/node.db`);
  });
});
