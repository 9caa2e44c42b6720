import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, devnetValidatorsFile, fixturesDir, freePort, startProcess, stopAll, tempDir } from '@ledger-node/test-utils';
import { rpcClient, waitUntil } from '@ledger-node/test-utils';

/** The recorded mainnet run 11119599..11119604, replayed to a full node; answers checked against the recording. */
const first = 11119599;
const last = 11119604;
const recorded = new Map<number, { ledger: Record<string, any>; ledger_hash: string }>();
let call: ReturnType<typeof rpcClient>;
let apiPort: number;
let removeDir: () => void;

/** Older rippled printed `type`/`type_hex` in each path step: JSON decoration, not part of the signed bytes. */
function withoutPathDecoration<T extends Record<string, any>>(tx: T): T {
  if (!Array.isArray(tx.Paths)) return tx;
  const Paths = tx.Paths.map((path: Record<string, unknown>[]) => path.map(({ type: _t, type_hex: _h, ...step }) => step));
  return { ...tx, Paths };
}

beforeAll(async () => {
  const { dir, remove } = tempDir();
  removeDir = remove;
  const replayDir = path.join(dir, 'replay');
  mkdirSync(replayDir);
  for (let index = first; index <= last; index++) {
    const file = path.join(fixturesDir(), `xrpl/ledgers/mainnet/${index}.json`);
    cpSync(file, path.join(replayDir, `${index}.json`));
    recorded.set(index, JSON.parse(readFileSync(file, 'utf8')));
  }
  const [upstreamPort, rpcPort] = [await freePort(), await freePort()];
  apiPort = await freePort();
  const devnet = startProcess([cliEntry(), 'devnet', '-port', String(upstreamPort), '-replay', replayDir, '-replay_rate', '20']);
  await devnet.waitFor(/devnet listening on/);
  const node = startProcess([
    cliEntry(),
    '-endpoint', `ws://127.0.0.1:${upstreamPort}`,
    '-validators', devnetValidatorsFile(dir),
    '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
    '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
    '-data_dir', path.join(dir, 'node'),
    '-start_ledger', String(first),
  ]);
  await node.waitFor(/facade\s+ready/);
  call = rpcClient(rpcPort);
  const allStored = async () => {
    for (let index = first; index <= last; index++) {
      if ((await call('jt_getBlockTransactionCountByNumber', [index])).result === null) return false;
    }
    return true;
  };
  await waitUntil(allStored, 60_000, 'the replayed run to be stored');
}, 90_000);

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

describe('a node synced from the replayed mainnet run 11119599..11119604', () => {
  it('stores every ledger with its recorded hash', async () => {
    for (let index = first; index <= last; index++) {
      const { result } = await call('jt_getBlockByNumber', [String(index), false]);
      expect(result.ledger_hash).toBe(recorded.get(index)!.ledger_hash);
      expect(result.ledger.parent_hash).toBe(recorded.get(index)!.ledger.parent_hash);
    }
  });

  it('jt_getBlockByNumber returns the recorded header fields and transactions', async () => {
    for (let index = first; index <= last; index++) {
      const { ledger } = recorded.get(index)!;
      const { result } = await call('jt_getBlockByNumber', [`0x${index.toString(16)}`, true]);
      for (const field of ['account_hash', 'close_time', 'close_time_resolution', 'parent_hash', 'total_coins', 'transaction_hash']) {
        expect(result.ledger[field], field).toEqual(ledger[field]);
      }
      const served = new Map<string, Record<string, any>>(result.ledger.transactions.map((tx: Record<string, any>) => [tx.hash, tx]));
      expect(served.size).toBe(ledger.transactions.length);
      for (const tx of ledger.transactions) expect(served.get(tx.hash)).toEqual(withoutPathDecoration(tx));
    }
  });

  it('jt_getTransactionByHash and jt_getTransactionReceipt return the recorded fields of every transaction', async () => {
    for (const [index, { ledger }] of recorded) {
      for (const { metaData, ...fields } of ledger.transactions) {
        const tx = (await call('jt_getTransactionByHash', [fields.hash])).result;
        expect(tx).toEqual({ ...withoutPathDecoration(fields), date: ledger.close_time, inLedger: index, ledger_hash: recorded.get(index)!.ledger_hash, ledger_index: index, validated: true });
        const receipt = (await call('jt_getTransactionReceipt', [fields.hash])).result;
        const delivered = metaData.TransactionResult === 'tesSUCCESS' && fields.TransactionType === 'Payment' ? { delivered_amount: metaData.DeliveredAmount ?? fields.Amount } : {};
        expect(receipt).toEqual({ ...metaData, hash: fields.hash, ...delivered });
        const byIndex = (await call('jt_getTransactionByBlockNumberAndIndex', [String(index), metaData.TransactionIndex])).result;
        expect(byIndex).toEqual(tx);
        const byHashAndIndex = (await call('jt_getTransactionByBlockHashAndIndex', [recorded.get(index)!.ledger_hash, `0x${metaData.TransactionIndex.toString(16)}`])).result;
        expect(byHashAndIndex).toEqual(tx);
      }
    }
  });

  it('counts each block\'s transactions by number, tag and hash', async () => {
    for (const [index, { ledger, ledger_hash }] of recorded) {
      expect((await call('jt_getBlockTransactionCountByNumber', [index])).result).toBe(ledger.transactions.length);
      expect((await call('jt_getBlockTransactionCountByHash', [ledger_hash])).result).toBe(ledger.transactions.length);
    }
    expect((await call('jt_getBlockTransactionCountByNumber', ['latest'])).result).toBe(recorded.get(last)!.ledger.transactions.length);
  });

  it.each([
    ['earliest', first],
    ['latest', last],
    ['validated', last],
    ['closed', last],
    ['current', last],
    ['pending', last],
  ])('tag %s names ledger %d', async (tag, index) => {
    expect((await call('jt_getBlockByNumber', [tag, false])).result.ledger_index).toBe(index);
  });

  it.each([
    ['jt_getBlockByNumber', [String(last + 1), false]],
    ['jt_getBlockByNumber', [String(first - 1), true]],
    ['jt_getBlockByHash', ['0'.repeat(64), false]],
    ['jt_getBlockTransactionCountByHash', ['F'.repeat(64)]],
    ['jt_getBlockTransactionCountByNumber', ['1']],
    ['jt_getTransactionByHash', ['0'.repeat(64)]],
    ['jt_getTransactionReceipt', ['0'.repeat(64)]],
    ['jt_getTransactionByBlockNumberAndIndex', [String(first), 9999]],
    ['jt_getTransactionByBlockHashAndIndex', ['1'.repeat(64), 0]],
  ])('%s%j is null when absent', async (method, params) => {
    expect(await call(method, params)).toMatchObject({ result: null, status: 'success' });
  });

  it.each([
    ['jt_getBlockByNumber', ['nope', true], 'blockNumber'],
    ['jt_getBlockByNumber', [String(first), 'yes'], 'fullTransactions'],
    ['jt_getBlockByHash', ['12', false], 'blockHash'],
    ['jt_getTransactionByHash', [42], 'transactionHash'],
    ['jt_getTransactionReceipt', ['zz'], 'transactionHash'],
    ['jt_getTransactionByBlockNumberAndIndex', ['latest', -1], 'transactionIndex'],
    ['jt_getTransactionByBlockHashAndIndex', ['A'.repeat(64), 'first'], 'transactionIndex'],
    ['jt_getBlockTransactionCountByNumber', [null], 'blockNumber'],
  ])('%s%j is -32602 naming %s', async (method, params, name) => {
    const answer = await call(method, params);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain(`(${name})`);
    expect(answer.status).toBe('error');
  });

  it('jt_syncing is false once caught up', async () => {
    expect(await call('jt_syncing')).toMatchObject({ result: false, status: 'success' });
  });

  it('REST serves the same ledgers and transactions', async () => {
    const base = `http://127.0.0.1:${apiPort}/v1`;
    const ledger = (await (await fetch(`${base}/ledgers/${first + 1}?transactions=true`)).json()) as Record<string, any>;
    expect(ledger.ledger.ledger_hash).toBe(recorded.get(first + 1)!.ledger_hash);
    expect(ledger.ledger.transactions).toHaveLength(recorded.get(first + 1)!.ledger.transactions.length);
    const byHash = (await (await fetch(`${base}/ledgers/${recorded.get(last)!.ledger_hash}`)).json()) as Record<string, any>;
    expect(byHash.ledger.ledger_index).toBe(last);
    const tx = recorded.get(first)!.ledger.transactions[0];
    const served = (await (await fetch(`${base}/transactions/${tx.hash}`)).json()) as Record<string, any>;
    expect(served.transaction.meta).toEqual(tx.metaData);
    const missing = await fetch(`${base}/ledgers/${last + 5}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'not_found', message: `ledger ${last + 5} is not stored` } });
    const bad = await fetch(`${base}/ledgers/abc`);
    expect(bad.status).toBe(400);
    const status = (await (await fetch(`${base}/status`)).json()) as Record<string, any>;
    expect(status.store.complete_ranges).toEqual([`${first}-${last}`]);
    expect(status.sync).toMatchObject({ enabled: true, syncing: false });
  });
});
