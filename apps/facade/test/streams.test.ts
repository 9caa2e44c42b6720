/**
 * The node's streams, on a whole node following a devnet under load: rippled's `ledger`,
 * `transactions` and account streams (API v1 and v2) on -ws, and jt_subscribe over /v1/ws on
 * -rpcport. Every ledger and transaction a stream carries is compared with the node's store
 * (jt_getBlockByNumber): none missing, none twice, in order. A client that disconnects and
 * resumes from its last ledger gets every ledger after it, then the live ones; a resume point the
 * store cannot serve, or further back than -max_resume_ledgers, is refused before any read; resumes
 * read the store within the node-wide -resume_rate budget while other clients are answered; a
 * client that stops reading is closed with the reason.
 *
 * The devnet runs first, then the node with -start_ledger, so that the store holds a range that
 * begins above the genesis (a resume point below it exists).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, devnetValidatorsFile, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil, type RunningProcess, WsClient } from '@ledger-node/test-utils';
import { jsonRpcRequester, rippledRequester, type Json } from './support/stream-client';

/** The oldest ledger the node stores. */
const START_LEDGER = 12;
const QUEUE_BYTES = 65_536;
/**
 * -max_resume_ledgers: more than the 32 ledgers the follower holds in memory, so that a resume at
 * the window's edge reads the store.
 */
const RESUME_WINDOW = 64;
/**
 * -resume_rate: low enough that a few resumes at once spend it, high enough that each still gains
 * on the devnet's four ledgers a second.
 */
const RESUME_RATE = 30;
/** A valid address no devnet transaction affects: an account stream of it sends nothing. */
const UNUSED_ACCOUNT = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

let node: RunningProcess;
let removeDir: () => void;
let rippledUrl: string;
let jsonRpcWsUrl: string;
let metricsUrl: string;
let call: ReturnType<typeof rpcClient>;
const clients: WsClient[] = [];

async function connect(url: string): Promise<WsClient> {
  const client = await WsClient.open(url);
  clients.push(client);
  return client;
}

/** A stored ledger as the node's store answers it: hash and transaction hashes in ledger order. */
async function stored(ledgerIndex: number): Promise<{ hash: string; txHashes: string[] }> {
  const block = (await call('jt_getBlockByNumber', [ledgerIndex, false])).result;
  expect(block, `ledger ${ledgerIndex} is stored`).not.toBeNull();
  return { hash: block.ledger_hash, txHashes: block.ledger.transactions };
}

const tip = async () => (await call('jt_blockNumber')).result as number;

/**
 * What a rippled stream carried, ledger by ledger: each ledgerClosed and the transactions after it.
 * The last ledger is left out: its transactions may still be on their way.
 */
interface StreamedLedger {
  ledgerIndex: number;
  hash: string;
  txnCount: number;
  txHashes: string[];
}

function streamedLedgers(messages: Json[]): StreamedLedger[] {
  const ledgers: StreamedLedger[] = [];
  for (const message of messages) {
    if (message.type === 'ledgerClosed') {
      ledgers.push({ ledgerIndex: message.ledger_index, hash: message.ledger_hash, txnCount: message.txn_count, txHashes: [] });
    } else if (message.type === 'transaction') {
      const current = ledgers.at(-1);
      expect(current, 'a transaction message comes after its ledgerClosed').toBeDefined();
      expect(message.ledger_index).toBe(current!.ledgerIndex);
      current!.txHashes.push(message.hash ?? message.transaction.hash);
    }
  }
  return ledgers.slice(0, -1);
}

/** Each streamed ledger is the stored one, with every transaction in order, and the indexes follow one another from `first`. */
async function expectStoredLedgers(ledgers: StreamedLedger[], first: number): Promise<number> {
  expect(ledgers.map((ledger) => ledger.ledgerIndex)).toEqual(ledgers.map((_, position) => first + position));
  let transactions = 0;
  for (const ledger of ledgers) {
    const expected = await stored(ledger.ledgerIndex);
    expect(ledger.hash, `ledger ${ledger.ledgerIndex}`).toBe(expected.hash);
    expect(ledger.txHashes, `transactions of ledger ${ledger.ledgerIndex}`).toEqual(expected.txHashes);
    expect(ledger.txnCount).toBe(expected.txHashes.length);
    transactions += ledger.txHashes.length;
  }
  return transactions;
}

const ledgerClosedAtLeast = (ledgerIndex: number) => (message: Json) => message.type === 'ledgerClosed' && message.ledger_index >= ledgerIndex;

const slowCloses = () => (node.output().match(/closing a WebSocket client/g) ?? []).length;

/** The facade's figure for a metric: the sum of its series whose labels include `labels` (from /metrics on -rpcport). */
async function metric(name: string, labels = ''): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if ((line.startsWith(`${name}{`) || line.startsWith(`${name} `)) && line.includes(labels)) total += Number(line.split(' ').at(-1));
  }
  return total;
}

const catchUpsRunning = () => metric('ledger_node_stream_catch_ups');

/** Calls of a LedgerStore method the facade has made so far (grpc_client_handling_seconds_count, every status). */
const storeCalls = (method: string) => metric('grpc_client_handling_seconds_count', `grpc_method="${method}"`);

/** The earliest resume point a refusal names: rippled's `resume after ledger N`, JSON-RPC's `fromBlock N`. */
function earliestNamed(message: string): number {
  const named = /(?:resume after ledger|give fromBlock) (\d+) or later/.exec(message);
  expect(named, `a refusal naming the earliest resume point: ${message}`).not.toBeNull();
  return Number(named![1]);
}

beforeAll(async () => {
  const { dir, remove } = tempDir('streams-');
  removeDir = remove;
  const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-load', '10', '-load_accounts', '4', '-close_ms', '250']);
  const devnetUrl = (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/))[1]!;
  const upstream = await WsClient.open(devnetUrl);
  const askDevnet = rippledRequester(upstream);
  await waitUntil(async () => (await askDevnet('ledger_closed')).result.ledger_index >= START_LEDGER + 5, 60_000, 'the devnet past the start ledger');
  upstream.terminate();

  const [rpcPort, wsPort] = [await freePort(), await freePort()];
  rippledUrl = `ws://127.0.0.1:${wsPort}`;
  jsonRpcWsUrl = `ws://127.0.0.1:${rpcPort}/v1/ws`;
  metricsUrl = `http://127.0.0.1:${rpcPort}/metrics`;
  node = startProcess([
    cliEntry(), '-endpoint', devnetUrl, '-validators', devnetValidatorsFile(dir), '-start_ledger', String(START_LEDGER),
    '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort),
    '-ws_queue_bytes', String(QUEUE_BYTES), '-data_dir', dir, '-thread_count', '2', '-network_id', '0',
    '-max_resume_ledgers', String(RESUME_WINDOW), '-resume_rate', String(RESUME_RATE), '-listener_metrics',
  ]);
  await node.waitFor(/facade\s+ready/, 90_000);
  call = rpcClient(rpcPort);
  // The store holds one range from the start ledger up, and the node follows the devnet.
  await waitUntil(
    async () => (await call('jt_getBlockByNumber', ['earliest', false])).result?.ledger_index === START_LEDGER && (await call('jt_syncing')).result === false,
    90_000,
    `the store holding ${START_LEDGER} and up, in sync`,
    250,
  );
}, 180_000);

afterEach(() => {
  for (const client of clients.splice(0)) client.terminate();
});

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

describe("rippled's ledger and transactions streams", () => {
  it('answers subscribe with the newest ledger, then sends each ledger after it with its transactions, as stored (API v1 and v2)', async () => {
    const v1 = await connect(rippledUrl);
    const v2 = await connect(rippledUrl);
    const [answer1, answer2] = await Promise.all([
      rippledRequester(v1)('subscribe', { streams: ['ledger', 'transactions'] }),
      rippledRequester(v2)('subscribe', { streams: ['ledger', 'transactions'], api_version: 2 }),
    ]);
    for (const answer of [answer1, answer2]) {
      expect(answer.status).toBe('success');
      expect(answer.result).toMatchObject({ fee_base: 10, fee_ref: 10, reserve_base: 1_000_000, reserve_inc: 200_000, network_id: 0 });
      expect(answer.result.validated_ledgers).toMatch(new RegExp(`^${START_LEDGER}-\\d+$`));
      expect(answer.result.ledger_hash).toBe((await stored(answer.result.ledger_index)).hash);
    }
    const until = Math.max(answer1.result.ledger_index, answer2.result.ledger_index) + 6;
    await Promise.all([v1.waitFor(ledgerClosedAtLeast(until)), v2.waitFor(ledgerClosedAtLeast(until))]);
    let transactions = 0;
    for (const [client, answer] of [[v1, answer1], [v2, answer2]] as const) {
      transactions += await expectStoredLedgers(streamedLedgers(client.messages((message) => message.type !== 'response')), answer.result.ledger_index + 1);
    }
    expect(transactions).toBeGreaterThan(10);

    const payment = (client: WsClient) => client.messages((message) => message.type === 'transaction' && (message.transaction ?? message.tx_json).TransactionType === 'Payment')[0]!;
    const asV1 = payment(v1);
    expect(asV1).toMatchObject({ type: 'transaction', status: 'closed', validated: true, engine_result: 'tesSUCCESS', engine_result_code: 0 });
    expect(asV1.transaction).toMatchObject({ TransactionType: 'Payment', hash: expect.any(String), date: expect.any(Number) });
    expect(asV1.transaction.Amount).toBeDefined();
    expect(asV1.meta.delivered_amount).toBeDefined();
    const asV2 = payment(v2);
    expect(asV2.transaction).toBeUndefined();
    expect(asV2).toMatchObject({ hash: expect.any(String), close_time_iso: expect.stringMatching(/Z$/) });
    expect(asV2.tx_json.DeliverMax).toBeDefined();
    expect(asV2.tx_json.Amount).toBeUndefined();
  });

  it('sends an account stream only the transactions affecting the accounts named', async () => {
    const watcher = await connect(rippledUrl);
    const ask = rippledRequester(watcher);
    const recent = (await call('jt_getBlockByNumber', ['latest', true])).result;
    const destination = await waitUntil(
      async () => {
        for (let ledgerIndex = await tip(); ledgerIndex > START_LEDGER; ledgerIndex--) {
          const block = (await call('jt_getBlockByNumber', [ledgerIndex, true])).result;
          const found = (block.ledger.transactions as Json[]).find((tx) => tx.TransactionType === 'Payment' && typeof tx.Destination === 'string');
          if (found) return found.Destination as string;
        }
        return undefined;
      },
      30_000,
      'a payment destination',
    );
    expect(recent).not.toBeNull();
    const answer = await ask('subscribe', { streams: ['ledger'], accounts: [destination] });
    const first = answer.result.ledger_index + 1;
    await watcher.waitFor(ledgerClosedAtLeast(first + 8));
    const ledgers = streamedLedgers(watcher.messages((message) => message.type !== 'response'));
    expect(ledgers.map((ledger) => ledger.ledgerIndex)).toEqual(ledgers.map((_, position) => first + position));
    let everything = 0;
    let affecting = 0;
    for (const ledger of ledgers) {
      const block = (await call('jt_getBlockByNumber', [ledger.ledgerIndex, true])).result;
      const transactions = block.ledger.transactions as Json[];
      everything += transactions.length;
      const expected = transactions.filter((tx) => JSON.stringify(tx).includes(destination)).map((tx) => tx.hash);
      expect(ledger.txHashes, `transactions of ledger ${ledger.ledgerIndex} affecting ${destination}`).toEqual(expected);
      affecting += expected.length;
    }
    expect(affecting).toBeGreaterThan(0);
    expect(affecting).toBeLessThan(everything);
  });
});

describe('resuming a rippled stream from the last ledger seen (from_ledger)', () => {
  it('sends every ledger and transaction after it from the store, then the live ones, with no gap and no duplicate', async () => {
    const first = await connect(rippledUrl);
    const answer = await rippledRequester(first)('subscribe', { streams: ['ledger', 'transactions'] });
    const lastSeen = (await first.waitFor(ledgerClosedAtLeast(answer.result.ledger_index + 2))).ledger_index as number;
    first.terminate();
    // Ledgers go by while the client is away.
    await waitUntil(async () => (await tip()) >= lastSeen + 8, 30_000, 'eight ledgers while the client is away');
    const tipAtResume = await tip();

    const resumed = await connect(rippledUrl);
    const resumedAnswer = await rippledRequester(resumed)('subscribe', { streams: ['ledger', 'transactions'], from_ledger: lastSeen });
    expect(resumedAnswer.status).toBe('success');
    await resumed.waitFor(ledgerClosedAtLeast(tipAtResume + 4));
    const ledgers = streamedLedgers(resumed.messages((message) => message.type !== 'response'));
    const transactions = await expectStoredLedgers(ledgers, lastSeen + 1);
    expect(transactions).toBeGreaterThan(10);
  });

  it('refuses a resume point the store cannot serve without a gap, with lgrNotFound naming the earliest allowed, and serves from it', async () => {
    const client = await connect(rippledUrl);
    const ask = rippledRequester(client);
    const below = await ask('subscribe', { streams: ['ledger'], from_ledger: START_LEDGER - 5 });
    expect(below).toMatchObject({ status: 'error', error: 'lgrNotFound', error_code: 21 });
    // The store begins at the start ledger; the window may hold the resume back further. The
    // earliest point only moves up: the one before it stays refused.
    const earliest = earliestNamed(below.error_message);
    expect(earliest).toBeGreaterThanOrEqual(START_LEDGER - 1);
    expect(await ask('subscribe', { streams: ['ledger'], from_ledger: earliest - 1 })).toMatchObject({ status: 'error', error: 'lgrNotFound' });
    const beyond = await ask('subscribe', { streams: ['ledger'], from_ledger: 4_000_000_000 });
    expect(beyond).toMatchObject({ status: 'error', error: 'lgrNotFound' });
    expect(beyond.error_message).toMatch(/the newest stored ledger is \d+/);
    const malformed = await ask('subscribe', { streams: ['ledger'], from_ledger: 'yesterday' });
    expect(malformed).toMatchObject({ status: 'error', error: 'invalidParams' });

    // Near the earliest resume point (the newest ledger moves on meanwhile): every ledger after it,
    // read from the store rather than the follower's memory of recent ledgers, then the live ones.
    const from = earliest + 8;
    const accepted = await ask('subscribe', { streams: ['ledger', 'transactions'], from_ledger: from });
    expect(accepted.status).toBe('success');
    const live = await tip();
    await client.waitFor(ledgerClosedAtLeast(live + 3));
    await expectStoredLedgers(streamedLedgers(client.messages((message) => message.type !== 'response')), from + 1);
    const again = await ask('subscribe', { streams: ['transactions'], from_ledger: from });
    expect(again).toMatchObject({ status: 'error', error: 'invalidParams' });
  });
});

describe('jt_subscribe over /v1/ws', () => {
  it('notifies each block from fromBlock on as jt_getBlockByNumber answers it, and each transaction as jt_getTransactionByHash does', async () => {
    const client = await connect(jsonRpcWsUrl);
    const ask = jsonRpcRequester(client);
    expect(await ask('jt_blockNumber')).toMatchObject({ jsonrpc: '2.0', result: expect.any(Number), status: 'success' });
    const fromBlock = (await tip()) - 5;
    const blocks = await ask('jt_subscribe', ['newBlocks', { fromBlock }]);
    expect(blocks.result).toMatch(/^0x[0-9a-f]{32}$/);
    const transactions = await ask('jt_subscribe', ['transactions']);
    const notified = (id: string) => client.messages((message) => message.method === 'jt_subscription' && message.params.subscription === id).map((message) => message.params.result);
    await client.waitFor((message) => message.params?.subscription === blocks.result && message.params.result.ledger_index >= fromBlock + 10);
    const blockIndexes = notified(blocks.result).map((block) => block.ledger_index);
    expect(blockIndexes).toEqual(blockIndexes.map((_, position) => fromBlock + position));
    for (const block of notified(blocks.result)) {
      expect(block).toEqual((await call('jt_getBlockByNumber', [block.ledger_index, false])).result);
    }
    const sent = notified(transactions.result);
    expect(sent.length).toBeGreaterThan(3);
    for (const tx of sent) expect(tx).toEqual((await call('jt_getTransactionByHash', [tx.hash])).result);
    // Transactions come in ledger order, each once, all of each ledger from the first.
    const byLedger = new Map<number, string[]>();
    for (const tx of sent) byLedger.set(tx.ledger_index, [...(byLedger.get(tx.ledger_index) ?? []), tx.hash]);
    const ledgerIndexes = [...byLedger.keys()];
    expect(ledgerIndexes).toEqual([...ledgerIndexes].sort((a, b) => a - b));
    for (const ledgerIndex of ledgerIndexes.slice(0, -1)) {
      expect(byLedger.get(ledgerIndex), `transactions of ledger ${ledgerIndex}`).toEqual((await stored(ledgerIndex)).txHashes);
    }

    expect(await ask('jt_unsubscribe', [blocks.result])).toMatchObject({ result: true });
    expect(await ask('jt_unsubscribe', [blocks.result])).toMatchObject({ result: false });
    const count = notified(blocks.result).length;
    await waitUntil(async () => (await tip()) >= fromBlock + count + 3, 30_000, 'three more ledgers');
    expect(notified(blocks.result).length).toBe(count);
  });

  it('resumes from a block after a reconnect with no gap and no duplicate, and refuses a fromBlock below the stored range', async () => {
    const first = await connect(jsonRpcWsUrl);
    const id = (await jsonRpcRequester(first)('jt_subscribe', ['newBlocks'])).result;
    const seen = await first.waitFor((message) => message.params?.subscription === id);
    const lastSeen = seen.params.result.ledger_index as number;
    first.terminate();
    await waitUntil(async () => (await tip()) >= lastSeen + 6, 30_000, 'six ledgers while the client is away');

    const resumed = await connect(jsonRpcWsUrl);
    const ask = jsonRpcRequester(resumed);
    const refused = await ask('jt_subscribe', ['newBlocks', { fromBlock: START_LEDGER - 3 }]);
    expect(refused.error).toMatchObject({ code: -32002 });
    expect(refused.error.data.earliest_resume_point).toBeGreaterThanOrEqual(START_LEDGER);
    expect(earliestNamed(refused.error.message)).toBe(refused.error.data.earliest_resume_point);
    const again = (await ask('jt_subscribe', ['newBlocks', { fromBlock: lastSeen + 1 }])).result;
    const target = (await tip()) + 3;
    await resumed.waitFor((message) => message.params?.subscription === again && message.params.result.ledger_index >= target);
    const indexes = resumed.messages((message) => message.params?.subscription === again).map((message) => message.params.result.ledger_index);
    expect(indexes).toEqual(indexes.map((_, position) => lastSeen + 1 + position));
  });

  it('answers jt_subscribe over plain HTTP with an error saying it needs /v1/ws', async () => {
    const answer = await call('jt_subscribe', ['newBlocks']);
    expect(answer.error).toMatchObject({ code: -32011 });
    expect(answer.error.message).toContain('/v1/ws');
  });
});

describe('what a resume may cost (-max_resume_ledgers, -resume_rate)', () => {
  it('refuses a resume further back than -max_resume_ledgers before any read: lgrNotFound on rippled, -32002 on /v1/ws, each naming the earliest allowed', async () => {
    await waitUntil(async () => (await tip()) >= START_LEDGER + RESUME_WINDOW + 10, 60_000, 'a stored range longer than the window');
    // The follower reads each new ledger while anyone subscribes: earlier tests' subscriptions are
    // let go, and one ledger passes after, so that no read of theirs is still on its way.
    await waitUntil(async () => (await metric('ledger_node_stream_subscribers')) === 0, 30_000, 'no subscription left from earlier tests');
    const quietFrom = await tip();
    await waitUntil(async () => (await tip()) > quietFrom, 30_000, 'a ledger with no subscriber');
    const rippled = rippledRequester(await connect(rippledUrl));
    const jsonRpc = jsonRpcRequester(await connect(jsonRpcWsUrl));
    const [refusedBefore, readsBefore] = [await metric('ledger_node_stream_resumes_refused_total', 'reason="window"'), await storeCalls('GetLedger')];
    const tipBefore = await tip();
    // A stored ledger, five beyond the window.
    const lastSeen = tipBefore - RESUME_WINDOW - 5;
    const onRippled = await rippled('subscribe', { accounts: [UNUSED_ACCOUNT], from_ledger: lastSeen });
    const onJsonRpc = await jsonRpc('jt_subscribe', ['transactions', { fromBlock: lastSeen + 1, accounts: [UNUSED_ACCOUNT] }]);

    // rippled's API: the earliest from_ledger is the newest validated ledger less the window.
    expect(onRippled).toMatchObject({ status: 'error', error: 'lgrNotFound', error_code: 21 });
    const newestForRippled = Number(/the newest validated ledger (\d+)/.exec(onRippled.error_message)?.[1]);
    expect(newestForRippled).toBeGreaterThanOrEqual(tipBefore);
    expect(onRippled.error_message).toBe(
      `cannot resume after ledger ${lastSeen}: it is ${newestForRippled - lastSeen} ledgers behind the newest validated ledger ${newestForRippled}, ` +
        `and a resume replays at most ${RESUME_WINDOW} (-max_resume_ledgers); resume after ledger ${newestForRippled - RESUME_WINDOW} or later, or subscribe without from_ledger`,
    );

    // JSON-RPC: the earliest fromBlock is one above, in the message and in data.
    expect(onJsonRpc.error).toMatchObject({ code: -32002, data: { max_resume_ledgers: RESUME_WINDOW } });
    const newestForJsonRpc = onJsonRpc.error.data.newest_ledger as number;
    expect(newestForJsonRpc).toBeGreaterThanOrEqual(newestForRippled);
    expect(onJsonRpc.error.data.earliest_resume_point).toBe(newestForJsonRpc - RESUME_WINDOW + 1);
    expect(onJsonRpc.error.message).toContain(`cannot resume from block ${lastSeen + 1}`);
    expect(earliestNamed(onJsonRpc.error.message)).toBe(newestForJsonRpc - RESUME_WINDOW + 1);

    expect(await metric('ledger_node_stream_resumes_refused_total', 'reason="window"')).toBe(refusedBefore + 2);
    expect(await storeCalls('GetLedger')).toBe(readsBefore);
  });

  it('paces resumes from several connections at once by the shared budget, each getting every ledger in order, while another client is answered', async () => {
    await waitUntil(async () => (await catchUpsRunning()) === 0, 30_000, 'no catch-up left from earlier tests');
    const [readsBefore, waitsBefore, clientLimitBefore] = [
      await metric('ledger_node_stream_catch_up_reads_total'),
      await metric('ledger_node_stream_catch_up_waits_total'),
      await metric('ledger_node_stream_resumes_refused_total', 'reason="client_limit"'),
    ];
    // Four ledgers inside the window (a second of the devnet's), more than pass while four subscribe.
    const lastSeen = (await tip()) - RESUME_WINDOW + 4;
    const ledgerClient = await connect(rippledUrl);
    const silentClient = await connect(rippledUrl);
    const blockClient = await connect(jsonRpcWsUrl);
    const [ledgerAnswer, silentAnswer, blockAnswer] = await Promise.all([
      rippledRequester(ledgerClient)('subscribe', { streams: ['ledger', 'transactions'], from_ledger: lastSeen }),
      // An account filter matching nothing: nothing is sent, and its reads are paced all the same.
      rippledRequester(silentClient)('subscribe', { accounts: [UNUSED_ACCOUNT], from_ledger: lastSeen }),
      jsonRpcRequester(blockClient)('jt_subscribe', ['newBlocks', { fromBlock: lastSeen + 1 }]),
    ]);
    expect([ledgerAnswer.status, silentAnswer.status, blockAnswer.status]).toEqual(['success', 'success', 'success']);

    // One address has at most 4 resumes catching up: a fourth is admitted, a fifth refused.
    const oneMore = jsonRpcRequester(await connect(jsonRpcWsUrl));
    expect((await oneMore('jt_subscribe', ['transactions', { fromBlock: lastSeen + 1, accounts: [UNUSED_ACCOUNT] }])).result).toMatch(/^0x/);
    const fifth = await oneMore('jt_subscribe', ['newBlocks', { fromBlock: lastSeen + 1 }]);
    expect(fifth.error).toMatchObject({ code: -32013 });
    expect(fifth.error.message).toContain('too many resumes catching up for this client: at most 4 at once');
    expect(await metric('ledger_node_stream_resumes_refused_total', 'reason="client_limit"')).toBe(clientLimitBefore + 1);

    // Another client asks all along and is answered while the catch-ups run.
    const bystander = rippledRequester(await connect(rippledUrl));
    let answeredDuringCatchUp = 0;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const [ping, info] = await Promise.all([bystander('ping'), bystander('server_info')]);
      expect(ping.status).toBe('success');
      expect(info.result.info.validated_ledger.seq).toBeGreaterThan(lastSeen);
      if ((await catchUpsRunning()) === 0) break;
      answeredDuringCatchUp++;
      expect(Date.now(), 'every catch-up at the newest ledger within two minutes').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answeredDuringCatchUp).toBeGreaterThanOrEqual(3);
    // The reads waited for the budget; each resume read at least the ledgers the follower no longer
    // held in memory (32 at most), the silent one included.
    expect(await metric('ledger_node_stream_catch_up_waits_total')).toBeGreaterThan(waitsBefore);
    expect((await metric('ledger_node_stream_catch_up_reads_total')) - readsBefore).toBeGreaterThanOrEqual(4 * (RESUME_WINDOW - 4 - 32));

    const live = await tip();
    await ledgerClient.waitFor(ledgerClosedAtLeast(live + 2));
    await expectStoredLedgers(streamedLedgers(ledgerClient.messages((message) => message.type !== 'response')), lastSeen + 1);
    await blockClient.waitFor((message) => message.params?.subscription === blockAnswer.result && message.params.result.ledger_index >= live + 2);
    const blocks = blockClient.messages((message) => message.params?.subscription === blockAnswer.result).map((message) => message.params.result.ledger_index);
    expect(blocks).toEqual(blocks.map((_, position) => lastSeen + 1 + position));
    expect(silentClient.messages((message) => message.type !== 'response')).toEqual([]);
  }, 180_000);
});

describe('a client that stops reading', () => {
  it('over /v1/ws is closed with 1008 and the reason once it leaves more than -ws_queue_bytes unread; others go on', async () => {
    const slow = await connect(jsonRpcWsUrl);
    const bystander = await connect(jsonRpcWsUrl);
    const ask = jsonRpcRequester(slow);
    // Many subscriptions to full blocks: hundreds of kilobytes a ledger.
    for (let subscription = 0; subscription < 32; subscription++) expect((await ask('jt_subscribe', ['newBlocks', { fullTransactions: true }])).result).toBeDefined();
    const bystanderId = (await jsonRpcRequester(bystander)('jt_subscribe', ['newBlocks'])).result;
    const before = slowCloses();
    slow.pause();
    await waitUntil(() => slowCloses() > before, 60_000, 'the facade closing the slow client', 250);
    slow.resume();
    expect(await slow.whenClosed()).toEqual({ code: 1008, reason: `client too slow: more than ${QUEUE_BYTES} bytes of messages unread (-ws_queue_bytes)` });
    const from = bystander.count;
    await bystander.waitFor((message) => message.params?.subscription === bystanderId, 30_000, from);
  }, 90_000);

  it("on rippled's stream is closed the same way", async () => {
    const slow = await connect(rippledUrl);
    const ask = rippledRequester(slow);
    expect((await ask('subscribe', { streams: ['ledger', 'transactions'] })).status).toBe('success');
    const before = slowCloses();
    slow.pause();
    // It still sends requests, whose answers (each echoing 4 KB) pile up with the stream messages.
    for (let sent = 0; sent < 5_000 && slowCloses() === before; sent++) {
      slow.send('z'.repeat(4_000));
      if (sent % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await waitUntil(() => slowCloses() > before, 30_000, 'the facade closing the slow client', 250);
    slow.resume();
    expect(await slow.whenClosed()).toEqual({ code: 1008, reason: `client too slow: more than ${QUEUE_BYTES} bytes of messages unread (-ws_queue_bytes)` });
  }, 60_000);
});
