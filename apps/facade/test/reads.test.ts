import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';

/**
 * How the facade reads the ledger-store for transactions and balances, seen from outside: the gRPC
 * calls its own Prometheus metrics count, on a node synced from a devnet under load.
 */
let node: RunningProcess;
let rpcPort: number;
let call: ReturnType<typeof rpcClient>;
let removeDir: () => void;
const txHashes: string[] = [];
const senders: string[] = [];
let tip: number;

beforeAll(async () => {
  const { dir, remove } = tempDir();
  removeDir = remove;
  rpcPort = await freePort();
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '250', '-load', '20', '-load_accounts', '4',
    '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-data_dir', dir, '-thread_count', '4', '-listener_metrics',
    // The reads of the store itself are tested here: no answers rendered ahead (test/hot-set.test.ts has those).
    '-hot_set_mb', '0',
  ]);
  await node.waitFor(/facade\s+ready/);
  call = rpcClient(rpcPort);
  await waitUntil(async () => ((await call('jt_blockNumber')).result as number) >= 8, 90_000, 'eight ledgers stored');
  await waitUntil(async () => (await call('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'validated'])).status === 'success', 60_000, 'account state');
  tip = (await call('jt_blockNumber')).result as number;
  for (let ledgerIndex = 1; ledgerIndex <= tip; ledgerIndex++) {
    for (const tx of (await call('jt_getBlockByNumber', [ledgerIndex, true])).result.ledger.transactions as { hash: string; Account: string }[]) {
      txHashes.push(tx.hash);
      if (!senders.includes(tx.Account)) senders.push(tx.Account);
    }
  }
}, 150_000);

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

/** How many calls of a LedgerStore method the facade has made so far (grpc_client_handling_seconds_count, every status). */
async function storeCalls(method: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${rpcPort}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('grpc_client_handling_seconds_count{') && line.includes(`grpc_method="${method}"`)) total += Number(line.split(' ').at(-1));
  }
  return total;
}

async function batch(calls: { method: string; params: unknown[] }[]): Promise<Record<string, any>[]> {
  const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((entry, id) => ({ jsonrpc: '2.0', id, ...entry }))),
  });
  return (await response.json()) as Record<string, any>[];
}

describe('jt_getTransactionByHash and jt_getTransactionReceipt', () => {
  it('gathers the lookups of a batch into one GetTransactions call, and answers them again from the cache with none', async () => {
    expect(txHashes.length).toBeGreaterThanOrEqual(20);
    const asked = txHashes.slice(0, 20);
    const before = await storeCalls('GetTransactions');
    const first = await batch(asked.map((hash) => ({ method: 'jt_getTransactionByHash', params: [hash] })));
    expect(first.map((answer) => answer.result?.hash)).toEqual(asked);
    expect(await storeCalls('GetTransactions')).toBe(before + 1);

    const again = await batch(asked.map((hash) => ({ method: 'jt_getTransactionByHash', params: [hash] })));
    expect(again).toEqual(first);
    expect(await storeCalls('GetTransactions')).toBe(before + 1);
    // The receipt is an answer of its own: read once, then kept too.
    const receipt = await call('jt_getTransactionReceipt', [asked[0]]);
    expect(receipt.result).toMatchObject({ hash: asked[0], TransactionResult: expect.any(String) });
    expect(await call('jt_getTransactionReceipt', [asked[0]])).toEqual({ ...receipt, id: expect.any(Number) });
    expect(await storeCalls('GetTransactions')).toBe(before + 2);
  });

  it('never keeps "not found": a hash not stored is asked of the store each time', async () => {
    const absent = 'AB'.repeat(32);
    const before = await storeCalls('GetTransactions');
    expect((await call('jt_getTransactionByHash', [absent])).result).toBeNull();
    expect((await call('jt_getTransactionByHash', [absent])).result).toBeNull();
    expect(await storeCalls('GetTransactions')).toBe(before + 2);
  });
});

describe('jt_getBalance', () => {
  it('keeps the balances at a ledger named by index, but asks the store again for a tag (it moves)', async () => {
    const ledgerIndex = tip - 1;
    const before = await storeCalls('GetAccountStates');
    const first = await batch(senders.map((address) => ({ method: 'jt_getBalance', params: [address, ledgerIndex] })));
    expect(first.every((answer) => answer.status === 'success' && answer.result.ledger_index === ledgerIndex)).toBe(true);
    expect(await storeCalls('GetAccountStates')).toBe(before + 1);
    expect(await batch(senders.map((address) => ({ method: 'jt_getBalance', params: [address, String(ledgerIndex)] })))).toEqual(first);
    expect(await storeCalls('GetAccountStates')).toBe(before + 1);

    await call('jt_getBalance', [senders[0], 'validated']);
    await call('jt_getBalance', [senders[0], 'validated']);
    expect(await storeCalls('GetAccountStates')).toBe(before + 3);
  });

  it('answers an account that did not exist at the ledger with its error each time, never kept', async () => {
    const unfunded = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
    const before = await storeCalls('GetAccountStates');
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await call('jt_getBalance', [unfunded, tip - 1])).error).toMatchObject({ code: -32003 });
    }
    expect(await storeCalls('GetAccountStates')).toBe(before + 2);
  });
});
