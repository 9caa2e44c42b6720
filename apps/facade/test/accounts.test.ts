import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, devnetValidatorsFile, freePort, startProcess, stopAll, tempDir, type RunningProcess } from '@ledger-node/test-utils';
import { connectUpstream, rpcClient, waitUntil } from '@ledger-node/test-utils';

/**
 * Account state at synced ledgers, checked against the devnet that produced them: the node starts
 * after the devnet has history, so it answers both above and below its state-download ledger.
 */
let call: ReturnType<typeof rpcClient>;
let node: RunningProcess;
let upstream: Awaited<ReturnType<typeof connectUpstream>>;
let removeDir: () => void;
let tip: number;
/** Every transaction of the devnet up to `tip`: ledger index, hash, sender. */
const history: { ledgerIndex: number; hash: string; account: string }[] = [];
const accounts = new Set<string>();

beforeAll(async () => {
  const { dir, remove } = tempDir();
  removeDir = remove;
  const [devnetPort, rpcPort] = [await freePort(), await freePort()];
  const devnet = startProcess([cliEntry(), 'devnet', '-port', String(devnetPort), '-close_ms', '200', '-load', '15', '-load_accounts', '4']);
  await devnet.waitFor(/devnet listening on/);
  upstream = await connectUpstream(`ws://127.0.0.1:${devnetPort}`);
  await waitUntil(async () => ((await upstream.request('ledger_closed')).result.ledger_index as number) >= 25, 60_000, 'devnet history');
  node = startProcess([
    cliEntry(), '-endpoint', `ws://127.0.0.1:${devnetPort}`, '-validators', devnetValidatorsFile(dir), '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-data_dir', dir, '-thread_count', '4',
  ]);
  await node.waitFor(/facade\s+ready/);
  call = rpcClient(rpcPort);
  // Synced down to genesis, with the state downloaded.
  await waitUntil(async () => (await call('jt_getBlockByNumber', ['1', false])).result !== null && (await call('jt_syncing')).result === false, 90_000, 'backfill to genesis');
  tip = (await call('jt_blockNumber')).result;
  await waitUntil(async () => (await call('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'validated'])).status === 'success', 60_000, 'account state');
  // Account state below the download ledger is proven going down after backfill stored the ledgers.
  await waitUntil(async () => (await call('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', '1'])).status === 'success', 90_000, 'account state proven down to the first ledger');
  for (let index = 1; index <= tip; index++) {
    const { ledger } = (await upstream.request('ledger', { ledger_index: index, transactions: true, expand: true })).result;
    for (const tx of ledger.transactions) {
      history.push({ ledgerIndex: index, hash: tx.hash, account: tx.Account });
      accounts.add(tx.Account);
      if (tx.Destination) accounts.add(tx.Destination);
    }
  }
}, 240_000);

afterAll(async () => {
  upstream?.close();
  await stopAll();
  removeDir?.();
});

/** Ledgers to check: early, middle, late, and the tip. */
const sampleLedgers = () => [...new Set([2, 5, Math.floor(tip / 3), Math.floor(tip / 2), tip - 3, tip])].filter((index) => index >= 1);

describe('jt_getBalance', () => {
  it("equals the devnet's account_info and account_lines at past and present ledgers", async () => {
    let compared = 0;
    for (const account of accounts) {
      for (const ledgerIndex of sampleLedgers()) {
        const info = await upstream.request('account_info', { account, ledger_index: ledgerIndex });
        const answer = await call('jt_getBalance', [account, String(ledgerIndex)]);
        if (info.status === 'error') {
          expect(info.error).toBe('actNotFound');
          expect(answer.error).toMatchObject({ code: -32003, message: `account ${account} not found at ledger ${ledgerIndex}` });
          continue;
        }
        const lines = (await upstream.request('account_lines', { account, ledger_index: ledgerIndex })).result.lines as Record<string, any>[];
        const header = (await upstream.request('ledger', { ledger_index: ledgerIndex })).result;
        expect(answer.result).toEqual({
          account,
          balance: info.result.account_data.Balance,
          coins: lines.map((line) => ({
            account: line.account,
            balance: line.balance,
            currency: line.currency,
            limit: line.limit,
            limit_peer: line.limit_peer,
            no_ripple: line.no_ripple ?? false,
            quality_in: line.quality_in,
            quality_out: line.quality_out,
          })),
          ledger_hash: header.ledger_hash,
          ledger_index: ledgerIndex,
          validated: true,
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('accepts a ledger hash and the current/validated/closed tags', async () => {
    const header = (await upstream.request('ledger', { ledger_index: 5 })).result;
    const byHash = await call('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', header.ledger_hash]);
    expect(byHash.result.ledger_index).toBe(5);
    for (const tag of ['current', 'validated', 'closed']) {
      expect((await call('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', tag])).result.ledger_index).toBeGreaterThanOrEqual(tip);
    }
  });

  it.each([
    [['not-an-address', 'validated'], -32602, /\(address\)/],
    [['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj', 'validated'], -32602, /not a valid XRP Ledger address/],
    [['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'earliest'], -32602, /\(block\)/],
    [['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'], -32602, /takes 2 parameter/],
  ])('%j is an error', async (params, code, message) => {
    const { error } = await call('jt_getBalance', params);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('names the stored range for a ledger outside it', async () => {
    const { error } = await call('jt_getBalance', ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', String(tip + 1000)]);
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/1-\d+/);
  });
});

describe('jt_getTransactionCount', () => {
  it('equals the number of transactions the account sent up to each ledger', async () => {
    for (const account of accounts) {
      for (const ledgerIndex of sampleLedgers()) {
        const expected = history.filter((tx) => tx.account === account && tx.ledgerIndex <= ledgerIndex).length;
        expect((await call('jt_getTransactionCount', [account, ledgerIndex])).result, `${account} at ${ledgerIndex}`).toBe(expected);
      }
    }
  });
});

describe('jt_account', () => {
  let syncPid: number;
  let frozenTip: number;

  // History that grows while pages are read would shift the pages: pause the node's sync meanwhile.
  beforeAll(async () => {
    syncPid = Number([...node.output().matchAll(/sync\s+(?:ready|restarted)\s+pid (\d+)/g)].at(-1)![1]);
    process.kill(syncPid, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    frozenTip = (await call('jt_blockNumber')).result;
  });
  afterAll(() => {
    process.kill(syncPid, 'SIGCONT');
  });

  const busiest = () => [...accounts].sort((a, b) => history.filter((tx) => tx.account === b).length - history.filter((tx) => tx.account === a).length)[0]!;

  it.each([
    ['both', true],
    ['both', false],
    ['in', true],
    ['in', false],
    ['out', true],
    ['out', false],
  ] as const)('direction %s, newest first %s: every transaction exactly once across pages', async (direction, newestFirst) => {
    const account = busiest();
    const all = (await upstream.request('account_tx', { account, ledger_index_min: 1, ledger_index_max: frozenTip, limit: 1000 })).result.transactions as Record<string, any>[];
    const expected = all
      .map((entry) => entry.tx ?? entry.tx_json)
      .filter((tx) => (direction === 'both' ? true : direction === 'out' ? tx.Account === account : tx.Account !== account))
      .map((tx) => tx.hash as string);
    const seen: string[] = [];
    for (let page = 0; ; page++) {
      const { result } = await call('jt_account', [account, page, 3, newestFirst, direction]);
      seen.push(...result.map((entry: Record<string, any>) => entry.hash));
      if (result.length < 3) break;
    }
    expect(seen.filter((hash) => expected.includes(hash)).length).toBe(expected.length);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it('gives the entry fields of SPEC §2.7', async () => {
    const account = busiest();
    const [entry] = (await call('jt_account', [account, 0, 1])).result;
    expect(entry).toEqual({
      amount: expect.stringMatching(/^\d+(\.\d+)?$/),
      ...(entry.currency ? { currency: expect.any(String), issuer: expect.any(String) } : {}),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
      from_address: expect.any(String),
      hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      to_address: expect.any(String),
      type: expect.any(String),
    });
  });

  it('refuses a page size over the maximum, naming perPage', async () => {
    const { error } = await call('jt_account', [busiest(), 0, 5000]);
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/\(perPage\): the page size is at most 1000/) });
  });
});
