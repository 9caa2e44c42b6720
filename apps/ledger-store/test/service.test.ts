import { afterEach, describe, expect, it } from 'vitest';
import { LedgerStoreServiceService } from '@ledger-node/contracts';
import { checkHealth, createGrpcClient } from '@ledger-node/grpc';
import { cliEntry, freePort, startProcess, stopAll, tempDir } from '@ledger-node/test-utils';
import { LedgerRepository } from '../src/repositories/ledgers';
import { openRocksDb } from '../src/storage/rocksdb';

const cleanups: (() => void)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A data dir whose database already holds headers for `indexes`. */
async function dataDirWithLedgers(indexes: number[]): Promise<string> {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  const kv = await openRocksDb(`${dir}/node.db`);
  const ledgers = new LedgerRepository(kv);
  await kv.batch(indexes.flatMap((ledgerIndex) => ledgers.putOperations({ ledgerIndex, header: Buffer.alloc(118), ledgerHash: Buffer.alloc(32, ledgerIndex) })));
  await kv.close();
  return dir;
}

describe('ledger-store as a separate process', () => {
  it.each([
    ['a unix socket', (dir: string) => Promise.resolve(`unix:${dir}/run/ledger-store.sock`)],
    ['TCP', async () => `127.0.0.1:${await freePort()}`],
  ])('serves gRPC health and GetStatus over %s, from RocksDB in <data_dir>/node.db', async (_label, addressFor) => {
    const dir = await dataDirWithLedgers([5, 6, 7, 8, 9]);
    const address = await addressFor(dir);
    const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', address]);
    await store.waitFor(/"msg":"serving"/);
    expect(await checkHealth(address)).toBe('SERVING');
    expect(await checkHealth(address, 'ledgernode.ledgerstore.v1.LedgerStoreService')).toBe('SERVING');
    const client = createGrpcClient(LedgerStoreServiceService, address);
    try {
      const status = await client.getStatus({});
      expect(status.lowestLedgerIndex).toBe(5);
      expect(status.highestLedgerIndex).toBe(9);
      expect(status.dbSizeBytes).toBeGreaterThan(0n);
    } finally {
      client.close();
    }
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
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const first = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir]);
    await first.waitFor(/"msg":"serving"/);
    // RocksDB's lock file: a second process on the same database must fail cleanly.
    const second = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', `unix:${dir}/other.sock`]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`cannot open the database at ${dir}/node.db`);
  });
});
