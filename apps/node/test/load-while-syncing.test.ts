/**
 * Load while syncing, as figures: a node (the CLI supervisor, -rpc -api) backfills a devnet's
 * history and follows its live ledgers while a bounded HTTP load (autocannon: 50 connections in
 * `npm test`, 200 under `npm run soak`) calls every read JSON-RPC method and five REST reads with
 * params drawn (from a printed seed) among the devnet's real ledgers, transactions and accounts
 * that the node has stored at that moment. During the load: every answer is checked, sync's lag
 * and each service's resident memory are sampled. Errors, wrong answers and restarts must be 0,
 * the lag must stay within `-ready_lag` (so /readyz stays ready) and each service under its
 * memory ceiling. Printed: `figures load-while-syncing: …` with p50/p99 latency per method
 * (reported, never asserted: the machine is shared).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { afterEach, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { allFlags } from '@ledger-node/config';
import { LedgerStoreServiceService, SyncServiceService, type GetStatusResponse, type GetSyncStatusResponse } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import {
  cliEntry,
  connectUpstream,
  childPids,
  devnetValidatorsFile,
  freePort,
  printFigures,
  processesNaming,
  quantile,
  runSeed,
  seededRandom,
  soaking,
  startProcess,
  stopAll,
  supervisorStatus,
  tempDir,
  waitUntil,
  type RunningProcess,
} from '@ledger-node/test-utils';

/**
 * Peak resident memory (VmHWM) allowed per service, in MiB. docs/internals.md "Performance" measured peaks of
 * 196 (ledger-store), 221 (sync), 217 (facade), 143 (submission) and 227 MiB (keystore, deriving
 * scrypt keys there; nothing is signed here) against a 300 MiB goal, at 50 connections; these
 * allow about half as much again, for up to 200 connections and a machine shared with other runs.
 */
const RSS_CEILING_MB = { 'ledger-store': 300, sync: 350, facade: 350, submission: 250, keystore: 350 } as const;
type ServiceName = keyof typeof RSS_CEILING_MB;
const SERVICES = Object.keys(RSS_CEILING_MB) as ServiceName[];

/** The node's own -ready_lag default: /readyz fails beyond it, so the load must not push sync past it. */
const READY_LAG = Number(allFlags.find((flag) => flag.name === 'ready_lag')!.default);

/** JSON-RPC codes of the "not found" kind (account not found at that ledger, not found): counted apart. */
const NOT_FOUND_CODES = new Set([-32003, -32009]);

/**
 * The size of a run: `historyLedgers` ledgers of one payment each (after the load accounts' set-up)
 * for sync to backfill; the load is bounded by a request count and a time, whichever comes first.
 */
const SIZE = soaking()
  ? { historyLedgers: 3000, rpcConnections: 160, restConnections: 40, rpcRequests: 800_000, restRequests: 200_000, maxLoadMs: 120_000 }
  : { historyLedgers: 800, rpcConnections: 40, restConnections: 10, rpcRequests: 80_000, restRequests: 20_000, maxLoadMs: 15_000 };

/** How often lag and memory are sampled during the load. */
const SAMPLE_EVERY_MS = 250;

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await stopAll();
});

// ---------------------------------------------------------------- what the devnet holds

interface PoolTransaction {
  hash: string;
  account: string;
  destination: string | undefined;
  ledgerIndex: number;
}

interface PoolLedger {
  hash: string;
  txHashes: string[];
}

/** Ledgers 1..last of the devnet with their transactions, as the draws need them. */
interface Pool {
  last: number;
  ledgers: Map<number, PoolLedger>;
  /** Every transaction of those ledgers, by ledger index ascending. */
  transactions: PoolTransaction[];
  /** The ledger that created each account (its first payment received); the genesis account's is 1. */
  createdIn: Map<string, number>;
}

type Upstream = Awaited<ReturnType<typeof connectUpstream>>;

async function fetchPool(upstream: Upstream, last: number): Promise<Pool> {
  const ledgers = new Map<number, PoolLedger>();
  const transactions: PoolTransaction[] = [];
  const inFlight = 8;
  for (let first = 1; first <= last; first += inFlight) {
    const indexes = Array.from({ length: Math.min(inFlight, last - first + 1) }, (_, offset) => first + offset);
    const answers = await Promise.all(indexes.map((ledgerIndex) => upstream.request('ledger', { ledger_index: ledgerIndex, transactions: true, expand: true })));
    answers.forEach((answer, position) => {
      const ledgerIndex = indexes[position]!;
      const ledger = answer.result?.ledger;
      if (!ledger) throw new Error(`the devnet did not serve ledger ${ledgerIndex}: ${JSON.stringify(answer).slice(0, 300)}`);
      const txs = ledger.transactions as { hash: string; Account: string; Destination?: string }[];
      ledgers.set(ledgerIndex, { hash: String(answer.result.ledger_hash ?? ledger.ledger_hash), txHashes: txs.map((tx) => tx.hash) });
      for (const tx of txs) transactions.push({ hash: tx.hash, account: tx.Account, destination: tx.Destination, ledgerIndex });
    });
  }
  const createdIn = new Map<string, number>([[getProfile('xrpl').genesis.address, 1]]);
  for (const tx of transactions) if (tx.destination !== undefined && !createdIn.has(tx.destination)) createdIn.set(tx.destination, tx.ledgerIndex);
  return { last, ledgers, transactions, createdIn };
}

/** Position of the first transaction at or above `ledgerIndex` (pool transactions are sorted by ledger). */
function firstTxAtOrAbove(pool: Pool, ledgerIndex: number): number {
  let low = 0;
  let high = pool.transactions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (pool.transactions[middle]!.ledgerIndex < ledgerIndex) low = middle + 1;
    else high = middle;
  }
  return low;
}

// ---------------------------------------------------------------- the node's processes

/** Restarts the supervisor reported (a crashed child it started again). */
function restartsOf(node: RunningProcess): number {
  return supervisorStatus(node).filter((status) => status.state === 'crashed').length;
}

/** Peak resident set (VmHWM) of a process in MiB; undefined once it is gone. */
function peakRssMb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** CPU seconds (user + system) a process has used so far; undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The promise's value, or a rejection once `ms` have passed (a sample must not hang the run). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------- the load

/** What the load may ask for right now: pool ledgers the node has stored, and the ledgers it has state for. */
interface View {
  /** Pool ledgers low..high are in the node's stored range that holds its tip. */
  low: number;
  high: number;
  stateLow: number;
  stateHigh: number;
}

/** One request: its body or path, and what the answer must be (a problem text, or undefined when right). */
interface Call {
  body?: string;
  path?: string;
  check(answer: any): string | undefined;
  /** True for an error that is the right answer to this draw (what the node cannot know yet). */
  unknownYet?(error: { code: number; message: string }): boolean;
}

interface Tally {
  answers: number;
  errors: number;
  notFound: number;
  unknownYet: number;
  wrong: number;
  latenciesMs: number[];
}

const sameHash = (a: unknown, b: string) => typeof a === 'string' && a.toUpperCase() === b.toUpperCase();

/** Draws calls from the seed, within what the view says the node has stored. */
function callMakers(pool: Pool, view: View, random: () => number) {
  const below = (count: number) => Math.floor(random() * count);
  const between = (low: number, high: number) => low + below(high - low + 1);
  const oneOf = <T>(items: readonly T[]) => items[below(items.length)]!;
  /** A QUANTITY in each form docs/api.md accepts: JSON integer, decimal string, 0x hex. */
  const quantity = (value: number) => oneOf([value, String(value), `0x${value.toString(16)}`]);
  /** A stored transaction of the pool (the wait before the load makes sure there is one). */
  const storedTx = (): PoolTransaction => {
    const first = firstTxAtOrAbove(pool, view.low);
    const end = firstTxAtOrAbove(pool, view.high + 1);
    return pool.transactions[first + below(Math.max(1, end - first))]!;
  };
  const storedLedger = () => {
    const ledgerIndex = between(view.low, view.high);
    return { ledgerIndex, ...pool.ledgers.get(ledgerIndex)! };
  };
  /** An account and a ledger at which it exists and its state is stored: a sender of a transaction at or below that ledger. */
  const accountAtStateLedger = () => {
    const ledgerIndex = between(view.stateLow, view.stateHigh);
    const senders = firstTxAtOrAbove(pool, ledgerIndex + 1);
    const account = pool.transactions[below(Math.max(1, senders))]!.account;
    const hash = pool.ledgers.get(ledgerIndex)?.hash;
    const selector = oneOf(['number', 'number', 'hash', 'tag'] as const);
    if (selector === 'tag') return { account, ledgerIndex: undefined, selector: oneOf(['validated', 'current', 'closed']) };
    if (selector === 'hash' && hash !== undefined) return { account, ledgerIndex, selector: hash };
    return { account, ledgerIndex, selector: String(ledgerIndex) };
  };
  const rpc = (method: string, params: unknown[], check: (result: any) => string | undefined): Call => ({
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    check: (answer) => (answer.jsonrpc === '2.0' && answer.id === 1 && answer.status === 'success' && 'result' in answer ? check(answer.result) : `not a success envelope: ${JSON.stringify(answer).slice(0, 200)}`),
  });
  const blockCheck = (ledgerIndex: number, hash: string, txHashes: string[], full: boolean) => (result: any) => {
    if (result === null) return `ledger ${ledgerIndex} is stored but answered null`;
    if (result.ledger_index !== ledgerIndex || !sameHash(result.ledger_hash, hash)) return `asked for ledger ${ledgerIndex} ${hash}, got ${result.ledger_index} ${result.ledger_hash}`;
    const listed = (result.ledger?.transactions ?? []) as unknown[];
    if (listed.length !== txHashes.length) return `ledger ${ledgerIndex} lists ${listed.length} transactions, the devnet ${txHashes.length}`;
    if (!full && !listed.every((hash) => txHashes.some((known) => sameHash(hash, known)))) return `ledger ${ledgerIndex} lists other transaction hashes`;
    return undefined;
  };
  const countCheck = (ledgerIndex: number, count: number) => (result: any) =>
    result === count ? undefined : `ledger ${ledgerIndex} holds ${count} transactions, answered ${JSON.stringify(result)}`;
  const byIndexCheck = (ledgerIndex: number, txHashes: string[]) => (result: any) => {
    if (result === null) return `a transaction of stored ledger ${ledgerIndex} answered null`;
    return result.ledger_index === ledgerIndex && txHashes.some((known) => sameHash(result.hash, known))
      ? undefined
      : `asked for a transaction of ledger ${ledgerIndex}, got ${result.hash} of ${result.ledger_index}`;
  };
  const withTxs = () => {
    const tx = storedTx();
    const ledger = pool.ledgers.get(tx.ledgerIndex)!;
    return { ledgerIndex: tx.ledgerIndex, hash: ledger.hash, txHashes: ledger.txHashes, txIndex: below(ledger.txHashes.length) };
  };

  const jsonRpc: Record<string, () => Call> = {
    jt_blockNumber: () => {
      const stored = view.high;
      return rpc('jt_blockNumber', [], (result) => (Number.isInteger(result) && result >= stored ? undefined : `block number ${result} is below stored ledger ${stored}`));
    },
    jt_syncing: () => rpc('jt_syncing', [], (result) => (result === false || Number.isInteger(result?.currentBlock) ? undefined : `not a sync status: ${JSON.stringify(result)}`)),
    jt_getBlockByHash: () => {
      const ledger = storedLedger();
      const full = random() < 0.5;
      return rpc('jt_getBlockByHash', [ledger.hash, full], blockCheck(ledger.ledgerIndex, ledger.hash, ledger.txHashes, full));
    },
    jt_getBlockByNumber: () => {
      const ledger = storedLedger();
      const full = random() < 0.5;
      return rpc('jt_getBlockByNumber', [quantity(ledger.ledgerIndex), full], blockCheck(ledger.ledgerIndex, ledger.hash, ledger.txHashes, full));
    },
    jt_getBlockTransactionCountByHash: () => {
      const ledger = storedLedger();
      return rpc('jt_getBlockTransactionCountByHash', [ledger.hash], countCheck(ledger.ledgerIndex, ledger.txHashes.length));
    },
    jt_getBlockTransactionCountByNumber: () => {
      const ledger = storedLedger();
      return rpc('jt_getBlockTransactionCountByNumber', [quantity(ledger.ledgerIndex)], countCheck(ledger.ledgerIndex, ledger.txHashes.length));
    },
    jt_getTransactionByHash: () => {
      const tx = storedTx();
      return rpc('jt_getTransactionByHash', [tx.hash], (result) =>
        sameHash(result?.hash, tx.hash) && result.ledger_index === tx.ledgerIndex ? undefined : `stored transaction ${tx.hash} answered ${JSON.stringify(result)?.slice(0, 200)}`,
      );
    },
    jt_getTransactionByBlockHashAndIndex: () => {
      const at = withTxs();
      return rpc('jt_getTransactionByBlockHashAndIndex', [at.hash, quantity(at.txIndex)], byIndexCheck(at.ledgerIndex, at.txHashes));
    },
    jt_getTransactionByBlockNumberAndIndex: () => {
      const at = withTxs();
      return rpc('jt_getTransactionByBlockNumberAndIndex', [quantity(at.ledgerIndex), quantity(at.txIndex)], byIndexCheck(at.ledgerIndex, at.txHashes));
    },
    jt_getTransactionReceipt: () => {
      const tx = storedTx();
      return rpc('jt_getTransactionReceipt', [tx.hash], (result) =>
        sameHash(result?.hash, tx.hash) && typeof result.TransactionResult === 'string' ? undefined : `stored transaction ${tx.hash} has receipt ${JSON.stringify(result)?.slice(0, 200)}`,
      );
    },
    jt_getBalance: () => {
      const at = accountAtStateLedger();
      return rpc('jt_getBalance', [at.account, at.selector], (result) =>
        result?.account === at.account && /^\d+$/.test(result.balance) && (at.ledgerIndex === undefined || result.ledger_index === at.ledgerIndex)
          ? undefined
          : `balance of ${at.account} at ${at.selector}: ${JSON.stringify(result)?.slice(0, 200)}`,
      );
    },
    jt_getTransactionCount: () => {
      const at = accountAtStateLedger();
      // A count is known once the stored history reaches back to the account's creation (docs/api.md: -32002, history too short for a count).
      const createdIn = pool.createdIn.get(at.account) ?? 1;
      const storedFrom = view.low;
      return {
        ...rpc('jt_getTransactionCount', [at.account, at.selector], (result) =>
          Number.isInteger(result) && result >= 0 ? undefined : `transaction count of ${at.account} at ${at.selector}: ${JSON.stringify(result)}`,
        ),
        unknownYet: (error) => error.code === -32002 && createdIn < storedFrom,
      };
    },
    jt_account: () => {
      const tx = storedTx();
      const direction = oneOf(['both', 'out', 'in'] as const);
      return rpc('jt_account', [tx.account, 0, 10, random() < 0.5, direction], (result) => {
        if (!Array.isArray(result) || result.length > 10) return `history of ${tx.account}: ${JSON.stringify(result)?.slice(0, 200)}`;
        // The account sent a stored transaction, so its outgoing history is not empty.
        return direction !== 'in' && result.length === 0 ? `history (${direction}) of ${tx.account} is empty, yet it sent stored ${tx.hash}` : undefined;
      });
    },
    jt_accounts: () => rpc('jt_accounts', [], (result) => (Array.isArray(result) ? undefined : `not a list: ${JSON.stringify(result)}`)),
  };

  const rest: Record<string, () => Call> = {
    rest_status: () => ({ path: '/v1/status', check: (answer) => (Number.isInteger(answer.store?.highest_ledger_index) ? undefined : 'status without a stored tip') }),
    rest_ledger: () => {
      const ledger = storedLedger();
      return {
        path: `/v1/ledgers/${ledger.ledgerIndex}?transactions=true`,
        check: (answer) =>
          sameHash(answer.ledger?.ledger_hash, ledger.hash) && answer.ledger.transaction_count === ledger.txHashes.length ? undefined : `ledger ${ledger.ledgerIndex}: ${JSON.stringify(answer).slice(0, 200)}`,
      };
    },
    rest_transaction: () => {
      const tx = storedTx();
      return { path: `/v1/transactions/${tx.hash}`, check: (answer) => (sameHash(answer.transaction?.hash, tx.hash) ? undefined : `transaction ${tx.hash}: ${JSON.stringify(answer).slice(0, 200)}`) };
    },
    rest_balances: () => {
      const at = accountAtStateLedger();
      return {
        path: `/v1/accounts/${at.account}/balances?ledger=${at.selector}`,
        check: (answer) => (answer.account === at.account && Array.isArray(answer.balances) ? undefined : `balances of ${at.account}: ${JSON.stringify(answer).slice(0, 200)}`),
      };
    },
    rest_account_transactions: () => {
      const tx = storedTx();
      return {
        path: `/v1/accounts/${tx.account}/transactions?limit=10&descending=${random() < 0.5}`,
        check: (answer) =>
          Array.isArray(answer.transactions) && answer.transactions.length > 0 ? undefined : `transactions of ${tx.account}, which sent stored ${tx.hash}: ${JSON.stringify(answer).slice(0, 200)}`,
      };
    },
  };
  return { jsonRpc, rest };
}

/**
 * One autocannon run: each connection cycles through `makers` (one request per name), drawing fresh
 * params for each request; every answer is checked and timed under its name.
 */
function runLoad(options: {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  amount: number;
  maxMs: number;
  makers: Record<string, () => Call>;
  tallies: Map<string, Tally>;
  problems: string[];
  /** When each error was answered (ms since the epoch). */
  errorTimes: number[];
}) {
  const note = (problem: string) => {
    if (options.problems.length < 10) options.problems.push(problem);
  };
  const failed = (tally: Tally, problem: string) => {
    tally.errors++;
    options.errorTimes.push(Date.now());
    note(problem);
  };
  // recordBody (our onResponse) and the instance's 'response' event run back to back for one answer.
  let answered: Tally | undefined;
  const requests: autocannon.Request[] = Object.entries(options.makers).map(([name, make]) => {
    const tally: Tally = { answers: 0, errors: 0, notFound: 0, unknownYet: 0, wrong: 0, latenciesMs: [] };
    options.tallies.set(name, tally);
    return {
      method: options.method,
      headers: { 'content-type': 'application/json' },
      // Each connection has one request in flight (no pipelining), and its context is its own.
      setupRequest: (request, context) => {
        const call = make();
        (context as { call?: Call }).call = call;
        return call.body === undefined ? { ...request, path: call.path } : { ...request, body: call.body };
      },
      onResponse: (status, body, context) => {
        const call = (context as { call?: Call }).call!;
        answered = tally;
        tally.answers++;
        if (status < 200 || status > 299) {
          failed(tally, `${name}: HTTP ${status} ${body.slice(0, 300)}`);
          return;
        }
        let answer: any;
        try {
          answer = JSON.parse(body);
        } catch {
          failed(tally, `${name}: not JSON: ${body.slice(0, 300)}`);
          return;
        }
        if (answer.error !== undefined && call.body !== undefined) {
          if (call.unknownYet?.(answer.error)) {
            tally.unknownYet++;
            return;
          }
          const problem = `${name}: ${call.body} → ${JSON.stringify(answer.error).slice(0, 300)}`;
          if (NOT_FOUND_CODES.has(answer.error.code)) {
            tally.notFound++;
            note(problem);
          } else failed(tally, problem);
          return;
        }
        const problem = call.check(answer);
        if (problem !== undefined) {
          tally.wrong++;
          note(`${name}: ${problem}`);
        }
      },
    };
  });
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: options.url, connections: options.connections, amount: options.amount, timeout: 30, requests },
      (error: unknown, result: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
      answered?.latenciesMs.push(responseTimeMs);
      answered = undefined;
    });
    // Bounded in time as well as in count.
    const timer = setTimeout(() => instance.stop(), options.maxMs);
    instance.on('done', () => clearTimeout(timer));
  });
}

// ---------------------------------------------------------------- the suite

describe('load while syncing', () => {
  it(`${SIZE.rpcConnections + SIZE.restConnections} connections reading every jt_* read method and REST while sync backfills and follows: no error, lag within -ready_lag, memory under the ceilings, no restart`, async () => {
    const seed = runSeed('load-while-syncing');
    const random = seededRandom(seed);

    // A devnet that builds a history before it listens, then closes a ledger a second under load.
    const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-load', '10', '-load_accounts', '10', '-close_ms', '1000'], {
      env: { LEDGER_NODE_DEVNET_HISTORY: `${SIZE.historyLedgers}x1` },
    });
    const devnetUrl = (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, 300_000))[1]!;
    const upstream = await connectUpstream(devnetUrl);
    cleanups.push(() => upstream.close());
    const historyTip = Number((await upstream.request('ledger_closed')).result.ledger_index);

    const { dir, remove } = tempDir('ledger-node-load-');
    cleanups.push(remove);
    // Whatever outlives the node (a failure of this test included) is killed by its pid.
    cleanups.push(() => processesNaming(dir).forEach(killIfAlive));
    const [rpcPort, apiPort] = [await freePort(), await freePort()];
    const node = startProcess([
      cliEntry(),
      '-endpoint', devnetUrl,
      '-validators', devnetValidatorsFile(dir),
      '-data_dir', dir,
      '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
      '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
      '-log_level', 'warn',
      '-slow_ms', '10000',
    ]);
    cleanups.push(async () => void (await node.stop('SIGTERM', 12_000)));
    const store = createGrpcClient(LedgerStoreServiceService, `unix:${dir}/run/ledger-store.sock`, { deadlineMs: 10_000, serviceLabel: 'ledger-store' });
    const sync = createGrpcClient(SyncServiceService, `unix:${dir}/run/sync.sock`, { deadlineMs: 10_000, serviceLabel: 'sync' });
    cleanups.push(() => {
      store.close();
      sync.close();
    });

    // The history, read from the devnet while the node starts.
    const pool = await fetchPool(upstream, historyTip);
    await node.waitFor(/facade\s+ready/, 60_000);

    const view: View = { low: 0, high: -1, stateLow: 0, stateHigh: -1 };
    const viewFrom = (status: GetStatusResponse) => {
      const tip = status.highestLedgerIndex;
      const range = status.completeRanges.find((candidate) => tip !== undefined && candidate.first <= tip && tip <= candidate.last);
      if (range) {
        view.low = Math.max(1, range.first);
        view.high = Math.min(pool.last, range.last);
      }
      if (status.stateRange) {
        view.stateLow = status.stateRange.first;
        view.stateHigh = status.stateRange.last;
      }
    };
    // The load starts as soon as the node has stored a pool ledger holding a transaction, and account state.
    const startStatus = await waitUntil(async () => {
      const status = await store.getStatus({});
      viewFrom(status);
      const stored = firstTxAtOrAbove(pool, view.high + 1) - firstTxAtOrAbove(pool, view.low);
      return view.high >= view.low && stored > 0 && view.stateHigh >= view.stateLow ? status : undefined;
    }, 120_000, 'a stored history ledger with a transaction, and account state', 100);
    const syncAtStart = await sync.getSyncStatus({});

    // Sampled during the load: lag (sync's own, as /readyz reads it, and the devnet's tip less the
    // stored tip), each service's peak memory, and the view the draws use.
    const peaksMb = new Map<string, number>();
    let maxLag = 0;
    let maxUpstreamLag = 0;
    let samples = 0;
    let sampleFailures = 0;
    /** How long sync takes to answer GetSyncStatus to this process (not loaded), beside the facade's view of it. */
    const directSyncStatusMs: number[] = [];
    let notReady = 0;
    let firstNotReady: string | undefined;
    /** The facade's /readyz, as a Kubernetes probe sees it (its own 1 s timeout aside). */
    const readyz = async () => {
      try {
        const response = await fetch(`http://127.0.0.1:${apiPort}/readyz`, { signal: AbortSignal.timeout(10_000) });
        const text = await response.text();
        if (response.status === 200) return;
        firstNotReady ??= `HTTP ${response.status} ${text.slice(0, 300)}`;
      } catch (error) {
        firstNotReady ??= (error as Error).message;
      }
      notReady++;
    };
    let lastSync: GetSyncStatusResponse = syncAtStart;
    let backfilledAt: number | undefined;
    let loading = true;
    const sampleMemory = () => {
      for (const [service, pid] of childPids(node)) {
        const peak = peakRssMb(pid);
        if (peak !== undefined) peaksMb.set(service, Math.max(peaksMb.get(service) ?? 0, peak));
      }
    };
    const sampler = (async () => {
      while (loading) {
        const startedAt = Date.now();
        try {
          const [syncStatus, storeStatus, closed] = await Promise.all([
            sync.getSyncStatus({}).then((status) => {
              directSyncStatusMs.push(Date.now() - startedAt);
              return status;
            }),
            store.getStatus({}),
            within(10_000, upstream.request('ledger_closed')),
            readyz(),
          ]);
          viewFrom(storeStatus);
          lastSync = syncStatus;
          if (backfilledAt === undefined && syncStatus.backfillRemainingLedgers === 0n && storeStatus.lowestLedgerIndex === 1) backfilledAt = Date.now();
          maxLag = Math.max(maxLag, syncStatus.lagLedgers);
          maxUpstreamLag = Math.max(maxUpstreamLag, Number(closed.result.ledger_index) - (storeStatus.highestLedgerIndex ?? 0));
          samples++;
        } catch {
          sampleFailures++;
        }
        sampleMemory();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, SAMPLE_EVERY_MS - (Date.now() - startedAt))));
      }
    })();

    const tallies = new Map<string, Tally>();
    const problems: string[] = [];
    const errorTimes: number[] = [];
    const { jsonRpc, rest } = callMakers(pool, view, random);
    const loadStartedAt = Date.now();
    const cpuAtStart = process.cpuUsage();
    const serviceCpuAtStart = new Map([...childPids(node)].map(([service, pid]) => [service, cpuSeconds(pid) ?? 0]));
    serviceCpuAtStart.set('devnet', cpuSeconds(devnet.pid) ?? 0);
    let results: autocannon.Result[];
    try {
      results = await Promise.all([
        runLoad({ url: `http://127.0.0.1:${rpcPort}/v1/jsonrpc`, method: 'POST', connections: SIZE.rpcConnections, amount: SIZE.rpcRequests, maxMs: SIZE.maxLoadMs, makers: jsonRpc, tallies, problems, errorTimes }),
        runLoad({ url: `http://127.0.0.1:${apiPort}/v1/status`, method: 'GET', connections: SIZE.restConnections, amount: SIZE.restRequests, maxMs: SIZE.maxLoadMs, makers: rest, tallies, problems, errorTimes }),
      ]);
    } finally {
      loading = false;
      await sampler;
    }
    const loadSeconds = (Date.now() - loadStartedAt) / 1000;
    const generatorCpu = process.cpuUsage(cpuAtStart);
    const cpuFigures: Record<string, number> = {};
    for (const [service, pid] of [...childPids(node), ['devnet', devnet.pid] as const]) {
      cpuFigures[`cpu_pct.${service}`] = (((cpuSeconds(pid) ?? Number.NaN) - (serviceCpuAtStart.get(service) ?? 0)) / loadSeconds) * 100;
    }
    sampleMemory();
    const endStatus = await store.getStatus({});
    const restarts = restartsOf(node);

    const all = [...tallies.values()];
    const sum = (pick: (tally: Tally) => number) => all.reduce((total, tally) => total + pick(tally), 0);
    const connectionErrors = results.reduce((total, result) => total + result.errors, 0);
    const timeouts = results.reduce((total, result) => total + result.timeouts, 0);
    const errors = sum((tally) => tally.errors) + connectionErrors;
    const answers = sum((tally) => tally.answers);
    const wrongAnswers = sum((tally) => tally.wrong);
    const startTip = startStatus.highestLedgerIndex ?? 0;
    const endTip = endStatus.highestLedgerIndex ?? 0;
    const latencyFigures: Record<string, number> = {};
    for (const [name, tally] of tallies) {
      const short = name.replace(/^jt_/, '');
      latencyFigures[`${short}_p50_ms`] = quantile(tally.latenciesMs, 0.5);
      latencyFigures[`${short}_p99_ms`] = quantile(tally.latenciesMs, 0.99);
    }
    const overCeiling = SERVICES.filter((service) => !((peaksMb.get(service) ?? Number.POSITIVE_INFINITY) <= RSS_CEILING_MB[service])).map(
      (service) => `${service} ${peaksMb.get(service)?.toFixed(0) ?? 'unmeasured'} MiB > ${RSS_CEILING_MB[service]} MiB`,
    );

    printFigures('load-while-syncing', {
      seed,
      connections: SIZE.rpcConnections + SIZE.restConnections,
      load_s: loadSeconds,
      requests: answers,
      rps: answers / loadSeconds,
      generator_cpu_pct: ((generatorCpu.user + generatorCpu.system) / 1e6 / loadSeconds) * 100,
      errors,
      timeouts,
      wrong_answers: wrongAnswers,
      not_found: sum((tally) => tally.notFound),
      count_unknown_yet: sum((tally) => tally.unknownYet),
      restarts,
      ready_lag: READY_LAG,
      lag_max: maxLag,
      upstream_lag_max: maxUpstreamLag,
      lag_samples: samples,
      sample_failures: sampleFailures,
      not_ready_samples: notReady,
      direct_sync_status_p50_ms: quantile(directSyncStatusMs, 0.5),
      direct_sync_status_p99_ms: quantile(directSyncStatusMs, 0.99),
      history_ledgers: historyTip,
      backfill_left_at_start: Number(syncAtStart.backfillRemainingLedgers),
      backfill_left_at_end: Number(lastSync.backfillRemainingLedgers),
      errors_after_backfill: errorTimes.filter((at) => backfilledAt !== undefined && at > backfilledAt).length,
      backfill_done_s: backfilledAt === undefined ? Number.NaN : (backfilledAt - loadStartedAt) / 1000,
      followed_ledgers: endTip - startTip,
      ...Object.fromEntries(SERVICES.map((service) => [`rss_mb.${service}`, Math.round(peaksMb.get(service) ?? Number.NaN)])),
      ...cpuFigures,
      ...latencyFigures,
    });
    if (firstNotReady !== undefined) process.stdout.write(`load-while-syncing: first /readyz not ready: ${firstNotReady}\n`);
    if (problems.length > 0) process.stdout.write(`load-while-syncing: first problems:\n  ${problems.join('\n  ')}\n`);

    const unanswered = [...tallies].filter(([, tally]) => tally.answers === 0).map(([name]) => name);
    expect({
      errors,
      wrongAnswers,
      restarts,
      lagWithinReadyLag: maxLag <= READY_LAG,
      overCeiling,
      unanswered,
      samplesTaken: samples > 0,
    }).toEqual({ errors: 0, wrongAnswers: 0, restarts: 0, lagWithinReadyLag: true, overCeiling: [], unanswered: [], samplesTaken: true });
  }, soaking() ? 1_800_000 : 300_000);
});
