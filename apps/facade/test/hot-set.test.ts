/**
 * The hot set on a whole node (`ledger-node -dev` under a payment load): the answers of the
 * transactions of each ledger just stored are rendered ahead, so that a client asking for one
 * finds it there (the facade's /metrics count the hot set's hits); asked for, an answer moves into
 * the answer cache. That they are the answers rendered on demand is src/queries/hot-set.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil } from '@ledger-node/test-utils';

const { dir, remove } = tempDir('hot-set-');
let call: ReturnType<typeof rpcClient>;
let rpcPort: number;

/** The sum of a metric's samples on the facade's JSON-RPC listener (-listener_metrics), by a label filter. */
async function metric(name: string, labels: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${rpcPort}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

beforeAll(async () => {
  rpcPort = await freePort();
  call = rpcClient(rpcPort);
  const node = startProcess([
    cliEntry(), '-dev', '-read_only', '-close_ms', '250', '-load', '10', '-load_accounts', '4',
    '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-listener_metrics', '-data_dir', dir, '-thread_count', '2',
  ]);
  await node.waitFor(/facade\s+ready/, 60_000);
}, 120_000);

afterAll(async () => {
  await stopAll();
  remove();
});

describe('the hot set', () => {
  it('answers the transactions of a ledger just stored from the answers rendered ahead, and from the answer cache once asked', async () => {
    // A few ledgers with transactions followed live (rendered as each was stored).
    await waitUntil(async () => (await metric('ledger_node_facade_hot_set_bytes', '')) > 0, 60_000, 'answers rendered ahead', 250);
    const tip = (await call('jt_blockNumber')).result as number;
    const hashes: string[] = [];
    for (let ledgerIndex = tip; ledgerIndex > tip - 4 && hashes.length === 0; ledgerIndex--) {
      hashes.push(...((await call('jt_getBlockByNumber', [String(ledgerIndex), false])).result.ledger.transactions as string[]));
    }
    expect(hashes.length).toBeGreaterThan(0);
    // Rendered as each was stored: a ledger stored after them means their turn has come and gone.
    await waitUntil(async () => ((await call('jt_blockNumber')).result as number) > tip, 30_000, 'a ledger stored after them', 50);
    const hits = await metric('ledger_node_facade_hot_set_lookups_total', 'result="hit"');
    const answers = await Promise.all(hashes.map(async (hash) => [(await call('jt_getTransactionByHash', [hash])).result, (await call('jt_getTransactionReceipt', [hash])).result]));
    expect(await metric('ledger_node_facade_hot_set_lookups_total', 'result="hit"')).toBe(hits + 2 * hashes.length);
    // Asked for, each is now in the answer cache: asked again, the same answer, from there.
    for (const [position, hash] of hashes.entries()) {
      expect((await call('jt_getTransactionByHash', [hash])).result).toEqual(answers[position]![0]);
      expect(answers[position]![0]).toMatchObject({ hash });
      expect(answers[position]![1]).toMatchObject({ hash });
    }
    expect(await metric('ledger_node_facade_hot_set_lookups_total', 'result="hit"')).toBe(hits + 2 * hashes.length);
  });
});
