/**
 * The node's rippled-compatible API against the rippled it syncs from: a whole `ledger-node -dev -ws`
 * node follows its devnet under load, and for the ledgers it has synced the same requests go to the
 * devnet's WebSocket and to the node's (and, over rippled's HTTP JSON-RPC, to the node again). The
 * answers are compared field by field; the few differences that are intended are listed below with
 * their reasons. Every difference found is printed; one not listed fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { channelClaimMessage } from '@ledger-node/rippled-api';
import { stopAll, waitUntil, WsClient } from '@ledger-node/test-utils';
import { ABSENT, describeDifferences, differences, intendedFor, shapeOf, summarizeDifferences, type Difference, type IntendedDifference } from './support/rippled-compare';
import { GENESIS, parseRanges, postRippled, startRippledNode, type Json, type RippledNode } from './support/rippled-node';

/** Differences between the devnet and the node that are intended, each with its reason. */
const INTENDED: IntendedDifference[] = [
  {
    command: 'account_tx',
    path: /^\$(\[\d+\])?\.result\.marker\.(ledger|seq)$/,
    reason: 'markers are opaque: the node pages as Clio does ({ledger, seq} of the last transaction returned), rippled and the devnet name the next one; each server reads back its own',
  },
  {
    command: 'ledger_data',
    path: /^\$(\[\d+\])?\.result\.marker$/,
    reason: 'markers are opaque: past a type filter the node names the last key it read, the devnet the last key it returned; each server reads back its own',
  },
  {
    command: 'server_info',
    path: /^\$\.result\.info\.pubkey_node$/,
    when: (difference) => difference.candidate === ABSENT,
    reason: "the devnet states a node identity as rippled does; the node is no peer of the network's and has none",
  },
  {
    command: 'server_info',
    path: /^\$\.result\.info\.validator_list$/,
    when: (difference) => difference.reference === ABSENT,
    reason: "the node states the validator lists that prove its ledgers (rippled's validator_list); the devnet publishes one and trusts none",
  },
  {
    command: '*',
    path: /\.DeliverMax$/,
    when: (difference) => difference.reference === ABSENT && (difference.request.api_version ?? 1) === 1,
    reason: 'in API v1 the devnet renders a Payment as rippled before 2.0 did (Amount alone), the node as rippled 2.0 and later (Amount and DeliverMax)',
  },
];

/** Fields of a WebSocket message that are the envelope, not the answer (rippled puts the rest under HTTP's `result`). */
const WS_ENVELOPE = new Set(['id', 'type', 'status', 'result', 'request', 'api_version']);
/** A valid address that never holds an account on the devnet. */
const UNFUNDED = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
/** Enough ledgers past the load generator's setup that several hold its payments. */
const SYNCED_TIP = 16;
/** The largest account_tx page the comparison asks for: each account compared has more transactions. */
const PAGED_LIMIT = 5;
/** Holders of the load generator's currency: more trust lines on its issuer than one page of account_lines at rippled's smallest limit (10). */
const HOLDER_COUNT = 12;

let node: RippledNode;
/** The devnet's answers are the reference; the node's the candidate. */
let reference: WsClient;
let candidate: WsClient;
/** The node's HTTP JSON-RPC endpoint. */
let candidateHttp: string;
/** The synced range compared: ledgers both hold. */
let first: number;
let last: number;
/** Every transaction of the range as the devnet serves it (expanded, API v1). */
let transactions: Json[];
let issuer: string;
let holders: string[];
const found: Difference[] = [];

function completeRangeOf(answer: Json): { first: number; last: number } | undefined {
  const ranges = parseRanges(String(answer.result?.info?.complete_ledgers ?? ''));
  return ranges.length === 1 ? ranges[0] : undefined;
}

/**
 * The HTTP answer rippled gives where its WebSocket answer is `ws` (ServerHandler::processRequest):
 * the result, or the error fields, with `status` inside `result`; an invalid API version is refused
 * with a plain-text 400.
 */
function asHttpAnswer(ws: Json): { httpStatus: number; text?: string; body?: Json } {
  if (ws.error === 'invalid_API_version') return { httpStatus: 400, text: 'invalid_API_version' };
  if (ws.status === 'success') return { httpStatus: 200, body: { result: { ...ws.result, status: 'success' } } };
  const fields = Object.fromEntries(Object.entries(ws).filter(([key]) => !WS_ENVELOPE.has(key)));
  return { httpStatus: 200, body: { result: { ...fields, status: 'error' } } };
}

/** The node's HTTP answer in the form asHttpAnswer gives (`request`, which echoes the call in HTTP's own form, left out). */
async function httpAnswerOf(request: Json): Promise<{ httpStatus: number; text?: string; body?: Json }> {
  const { command, ...params } = request;
  const { httpStatus, text, body } = await postRippled(candidateHttp, String(command), params);
  if (body === undefined) return { httpStatus, text: text.trim() };
  const { request: _echo, ...result } = (body.result ?? {}) as Json;
  return { httpStatus, body: body.result === undefined ? body : { ...body, result } };
}

/** The message without its `id` (each socket numbers its own requests; `request` echoes that id). */
function withoutId(message: Json): Json {
  const { id: _id, ...rest } = message;
  if (rest.request && typeof rest.request === 'object') {
    const { id: _requestId, ...request } = rest.request;
    rest.request = request;
  }
  return rest;
}

/**
 * Sends `request` to the devnet and the node, compares the answers (or their shapes, for answers
 * about a live server), and over HTTP compares the node's answer with its WebSocket answer.
 * Records what differs; returns both answers.
 */
async function compare(request: Json, options: { shape?: boolean } = {}): Promise<{ reference: Json; candidate: Json; differences: Difference[] }> {
  const [theirs, ours] = await Promise.all([reference.request(request), candidate.request(request)]);
  const [left, right] = options.shape ? [shapeOf(withoutId(theirs)), shapeOf(withoutId(ours))] : [withoutId(theirs), withoutId(ours)];
  const seen = differences(left, right, request);
  const [expected, http] = [asHttpAnswer(ours), await httpAnswerOf(request)];
  const [httpLeft, httpRight] = options.shape ? [shapeOf(expected), shapeOf(http)] : [expected, http];
  seen.push(...differences(httpLeft, httpRight, { ...request, over: 'http' }));
  found.push(...seen);
  return { reference: theirs, candidate: ours, differences: seen };
}

/**
 * Sends `request` to the node alone (a method the devnet does not serve) and compares its answer
 * with `expectedResult`, made from what the devnet serves; over HTTP too. Returns what differs.
 */
async function nodeAnswerDifferences(request: Json, expectedResult: Json): Promise<Difference[]> {
  const ours = await candidate.request(request);
  const expected: Json = { result: expectedResult, status: 'success', type: 'response' };
  if (request.api_version !== undefined) expected.api_version = request.api_version;
  const seen = differences(expected, withoutId(ours), request);
  seen.push(...differences({ httpStatus: 200, body: { result: { ...expectedResult, status: 'success' } } }, await httpAnswerOf(request), { ...request, over: 'http' }));
  return seen;
}

/** Runs the requests and fails with every difference that is not intended. */
async function expectSameAnswers(requests: Json[], options: { shape?: boolean } = {}): Promise<Json[]> {
  const answers: Json[] = [];
  const seen: Difference[] = [];
  for (const request of requests) {
    const { reference: theirs, differences: these } = await compare(request, options);
    answers.push(theirs);
    seen.push(...these);
  }
  const unlisted = seen.filter((difference) => intendedFor(difference, INTENDED) === undefined);
  expect(unlisted, unlistedMessage(unlisted)).toEqual([]);
  return answers;
}

function unlistedMessage(unlisted: readonly Difference[]): string {
  return `differences not listed as intended:\n${summarizeDifferences(unlisted, INTENDED)}\n${describeDifferences(unlisted, INTENDED, 20)}`;
}

/** The differences among `seen` that no intended difference forgives (recorded for the summary). */
function expectAllIntended(seen: Difference[]): void {
  found.push(...seen);
  const unlisted = seen.filter((difference) => intendedFor(difference, INTENDED) === undefined);
  expect(unlisted, unlistedMessage(unlisted)).toEqual([]);
}

/** Pages `account_tx` (or any marker-paged request) on one server to the end. */
async function pages(socket: WsClient, request: Json, maxPages = 200): Promise<Json[]> {
  const answers: Json[] = [];
  let marker: unknown;
  do {
    const answer = await socket.request(marker === undefined ? request : { ...request, marker });
    answers.push(answer);
    marker = answer.result?.marker;
  } while (marker !== undefined && answers.length < maxPages);
  return answers;
}

/** The ledger indexes of the range, `count` of them spread evenly, both ends included. */
function spread(count: number): number[] {
  if (last - first + 1 <= count) return Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
  return [...new Set(Array.from({ length: count }, (_, step) => first + Math.round(((last - first) * step) / (count - 1))))];
}

beforeAll(async () => {
  node = await startRippledNode(['-close_ms', '250', '-load', '20', '-load_accounts', String(HOLDER_COUNT)]);
  reference = await WsClient.open(node.devnetUrl);
  candidate = await WsClient.open(node.wsUrl);
  candidateHttp = node.httpUrl;
  // The node has backfilled to the devnet's genesis and followed it past the load generator's setup,
  // far enough that each account compared page by page has more transactions than one page holds.
  transactions = [];
  let fetchedUpTo = 0;
  await waitUntil(
    async () => {
      const synced = completeRangeOf(await candidate.request({ command: 'server_info' }));
      if (!synced || synced.first !== 1 || synced.last < SYNCED_TIP) return undefined;
      const devnetRange = completeRangeOf(await reference.request({ command: 'server_info' }))!;
      first = Math.max(synced.first, devnetRange.first);
      const upTo = Math.min(synced.last, devnetRange.last);
      for (let ledgerIndex = Math.max(first, fetchedUpTo + 1); ledgerIndex <= upTo; ledgerIndex++) {
        const answer = await reference.request({ command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true });
        transactions.push(...answer.result.ledger.transactions);
      }
      fetchedUpTo = upTo;
      last = upTo;
      holders = [...new Set(transactions.filter((tx) => tx.TransactionType === 'TrustSet').map((tx) => String(tx.Account)))];
      const sentBy = (account: string) => transactions.filter((tx) => tx.Account === account || tx.Destination === account).length;
      return holders.length === HOLDER_COUNT && holders.slice(0, 4).every((holder) => sentBy(holder) > PAGED_LIMIT) ? true : undefined;
    },
    90_000,
    `the node's complete ledgers 1-${SYNCED_TIP} or more, with more than ${PAGED_LIMIT} transactions of each account paged`,
    250,
  );
  issuer = transactions.find((tx) => tx.TransactionType === 'AccountSet')!.Account;
}, 120_000);

afterAll(async () => {
  if (found.length > 0) console.log(`rippled differential: ${found.length} difference(s) found\n${summarizeDifferences(found, INTENDED)}`);
  else console.log('rippled differential: no differences found');
  await reference?.close();
  await candidate?.close();
  await node?.stop();
  await stopAll();
});

describe('the comparison itself', () => {
  it('names each differing, missing and extra field by its path', () => {
    const request = { command: 'ledger' };
    expect(differences({ a: 1, b: [1, 2], c: { d: 'x' } }, { a: 2, b: [1], c: { d: 'x', e: null } }, request)).toEqual([
      { request, path: '$.a', reference: 1, candidate: 2 },
      { request, path: '$.b[1]', reference: 2, candidate: ABSENT },
      { request, path: '$.c.e', reference: ABSENT, candidate: null },
    ]);
    expect(differences({ n: '1' }, { n: 1 }, request)).toHaveLength(1);
    expect(differences({ same: [{ x: 1 }] }, { same: [{ x: 1 }] }, request)).toEqual([]);
  });

  it('forgives a difference only for the command and paths listed', () => {
    const intended: IntendedDifference[] = [{ command: 'server_info', path: /^\$\.result\.info\.uptime$/, reason: 'live' }];
    expect(intendedFor({ request: { command: 'server_info' }, path: '$.result.info.uptime', reference: 1, candidate: 2 }, intended)).toBeDefined();
    expect(intendedFor({ request: { command: 'server_info' }, path: '$.result.info.hostid', reference: 1, candidate: 2 }, intended)).toBeUndefined();
    expect(intendedFor({ request: { command: 'fee' }, path: '$.result.info.uptime', reference: 1, candidate: 2 }, intended)).toBeUndefined();
    // DeliverMax: only where the devnet's API v1 answer lacks it, never missing from the node's.
    const deliverMax = { request: { command: 'tx' }, path: '$.result.DeliverMax', reference: ABSENT, candidate: '1' };
    expect(intendedFor(deliverMax, INTENDED)).toBeDefined();
    expect(intendedFor({ ...deliverMax, reference: '1', candidate: ABSENT }, INTENDED)).toBeUndefined();
    expect(intendedFor({ ...deliverMax, request: { command: 'tx', api_version: 2 } }, INTENDED)).toBeUndefined();
  });

  it('compares answers about a live server by shape: fields and JSON types', () => {
    expect(shapeOf({ info: { uptime: 5, peers: [{ a: '1' }, { b: 2 }] } })).toEqual({ info: { uptime: 'number', peers: [{ a: 'string' }] } });
  });
});

describe('rippled API: the node answers as the devnet does', () => {
  it('covers a synced range with the load generator\'s transactions in it', () => {
    expect(last - first).toBeGreaterThanOrEqual(SYNCED_TIP - 1);
    expect(new Set(transactions.map((tx) => tx.TransactionType))).toEqual(new Set(['Payment', 'AccountSet', 'TrustSet']));
  });

  it('server_info: the same fields and types; complete_ledgers from the devnet\'s genesis up to a ledger the devnet has', async () => {
    const { reference: theirs, candidate: ours, differences: seen } = await compare({ command: 'server_info' }, { shape: true });
    const unlisted = seen.filter((difference) => intendedFor(difference, INTENDED) === undefined);
    expect(unlisted, unlistedMessage(unlisted)).toEqual([]);
    const [devnetRange, nodeRange] = [completeRangeOf(theirs), completeRangeOf(ours)];
    expect(nodeRange?.first).toBe(devnetRange?.first);
    expect(nodeRange!.last).toBeGreaterThanOrEqual(last);
    expect(nodeRange!.last).toBeLessThanOrEqual(devnetRange!.last);
  });

  it('ledger by index: header, with transactions, expanded, binary; API v1 and v2', async () => {
    const requests: Json[] = [];
    for (let ledgerIndex = first; ledgerIndex <= last; ledgerIndex++) {
      requests.push(
        { command: 'ledger', ledger_index: ledgerIndex },
        { command: 'ledger', ledger_index: ledgerIndex, transactions: true },
        { command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true },
        { command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true, api_version: 2 },
        { command: 'ledger', ledger_index: ledgerIndex, transactions: true, expand: true, binary: true },
        { command: 'ledger', ledger_index: ledgerIndex, binary: true },
      );
    }
    await expectSameAnswers(requests);
  });

  it('ledger by hash, and the errors for a ledger no server has and a malformed index', async () => {
    const hashes = await Promise.all(spread(3).map(async (ledgerIndex) => (await reference.request({ command: 'ledger', ledger_index: ledgerIndex })).result.ledger_hash as string));
    await expectSameAnswers([
      ...hashes.map((ledgerHash) => ({ command: 'ledger', ledger_hash: ledgerHash, transactions: true })),
      { command: 'ledger', ledger_index: 100_000_000 },
      { command: 'ledger', ledger_hash: 'F'.repeat(64) },
      { command: 'ledger', ledger_index: 'not-a-ledger' },
    ]);
  });

  it('tx by hash: API v1 and v2, JSON and binary, and a hash no ledger holds', async () => {
    // Every transaction type, then every fourth payment: enough to see each form, few enough to stay quick.
    const chosen = transactions.filter((tx, position) => tx.TransactionType !== 'Payment' || position % 4 === 0);
    const requests = chosen.flatMap((tx) => [
      { command: 'tx', transaction: tx.hash },
      { command: 'tx', transaction: tx.hash, api_version: 2 },
      { command: 'tx', transaction: tx.hash, binary: true },
    ]);
    requests.push({ command: 'tx', transaction: 'A'.repeat(64) }, { command: 'tx', transaction: 'not-a-hash' });
    await expectSameAnswers(requests);
  });

  it('account_info of funded, unfunded and malformed accounts at ledgers of the range, API v1 and v2', async () => {
    const accounts = [GENESIS.xrpl.address, issuer, ...holders.slice(0, 4)];
    const requests: Json[] = spread(3).flatMap((ledgerIndex) =>
      accounts.flatMap((account) => [
        { command: 'account_info', account, ledger_index: ledgerIndex },
        { command: 'account_info', account, ledger_index: ledgerIndex, api_version: 2 },
      ]),
    );
    requests.push({ command: 'account_info', account: UNFUNDED, ledger_index: last }, { command: 'account_info', account: 'rNotAnAddress', ledger_index: last });
    await expectSameAnswers(requests);
  });

  it('account_lines of the issuer and the holders, whole and paged', async () => {
    const requests: Json[] = [issuer, ...holders.slice(0, 4)].flatMap((account) => [
      { command: 'account_lines', account, ledger_index: last },
      { command: 'account_lines', account, ledger_index: first + Math.floor((last - first) / 2) },
    ]);
    requests.push({ command: 'account_lines', account: holders[0], peer: issuer, ledger_index: last });
    requests.push({ command: 'account_lines', account: UNFUNDED, ledger_index: last });
    await expectSameAnswers(requests);
    // Paged by each server's own marker at rippled's smallest limit: the pages and their contents must match.
    const request = { command: 'account_lines', account: issuer, ledger_index: last, limit: 10 };
    const [theirs, ours] = await Promise.all([pages(reference, request), pages(candidate, request)]);
    expect(theirs.length).toBeGreaterThan(1);
    expectAllIntended(differences(theirs.map(withoutId), ours.map(withoutId), request));
  });

  it('account_tx over the range, paged with markers to the end, both directions, binary and API v2', async () => {
    const accounts = [GENESIS.xrpl.address, issuer, ...holders.slice(0, 4)];
    const requests: Json[] = [
      ...accounts.map((account) => ({ command: 'account_tx', account, ledger_index_min: first, ledger_index_max: last, limit: 4 })),
      { command: 'account_tx', account: holders[0], ledger_index_min: first, ledger_index_max: last, limit: 3, forward: true },
      { command: 'account_tx', account: holders[1], ledger_index_min: first, ledger_index_max: last, limit: 5, binary: true },
      { command: 'account_tx', account: holders[2], ledger_index_min: first, ledger_index_max: last, limit: 5, api_version: 2 },
    ];
    const seen: Difference[] = [];
    for (const request of requests) {
      const [theirs, ours] = await Promise.all([pages(reference, request), pages(candidate, request)]);
      seen.push(...differences(theirs.map(withoutId), ours.map(withoutId), request));
      expect(theirs.length, `${JSON.stringify(request)} takes several pages`).toBeGreaterThan(1);
    }
    expectAllIntended(seen);
    // And the first page of each over HTTP, with the errors for an unfunded and a malformed account.
    await expectSameAnswers([
      ...requests,
      { command: 'account_tx', account: UNFUNDED, ledger_index_min: first, ledger_index_max: last },
      { command: 'account_tx', account: 'rNotAnAddress' },
    ]);
  });

  it('ledger_entry by account, by index and by trust line, JSON and binary, and an entry that does not exist', async () => {
    const accountRoot = (await reference.request({ command: 'ledger_entry', account_root: issuer, ledger_index: last })).result.index as string;
    const requests: Json[] = [
      { command: 'ledger_entry', account_root: issuer, ledger_index: last },
      { command: 'ledger_entry', account_root: holders[0], ledger_index: last, binary: true },
      { command: 'ledger_entry', index: accountRoot, ledger_index: first + 3 },
      { command: 'ledger_entry', ripple_state: { accounts: [holders[1], issuer], currency: 'USD' }, ledger_index: last },
      { command: 'ledger_entry', ripple_state: { accounts: [issuer, holders[2]], currency: 'USD' }, ledger_index: last, binary: true },
      { command: 'ledger_entry', account_root: UNFUNDED, ledger_index: last },
      { command: 'ledger_entry', account_root: 'rNotAnAddress', ledger_index: last },
    ];
    await expectSameAnswers(requests);
  });

  it('ledger_data: the first page of the state, JSON and binary, at both ends of the range; then every page by markers', async () => {
    const requests = [
      { command: 'ledger_data', ledger_index: last, limit: 8 },
      { command: 'ledger_data', ledger_index: last, limit: 8, binary: true },
      { command: 'ledger_data', ledger_index: first, limit: 8 },
      { command: 'ledger_data', ledger_index: last, limit: 5, type: 'state' },
    ];
    await expectSameAnswers(requests);
    const seen: Difference[] = [];
    for (const request of requests) {
      const [theirs, ours] = await Promise.all([pages(reference, request), pages(candidate, request)]);
      // The genesis ledger holds a handful of objects; the last one, dozens.
      if (request.ledger_index === last) expect(theirs.length, `${JSON.stringify(request)} takes several pages`).toBeGreaterThan(1);
      seen.push(...differences(theirs.map(withoutId), ours.map(withoutId), request));
    }
    expectAllIntended(seen);
  });

  it('answers about the live server (fee, ledger_closed, ledger_current, ping) with the same fields and types', async () => {
    await expectSameAnswers([{ command: 'fee' }, { command: 'ledger_closed' }, { command: 'ledger_current' }, { command: 'ping' }], { shape: true });
  });

  it('an unknown command and an API version no server speaks get rippled\'s errors', async () => {
    await expectSameAnswers([{ command: 'no_such_command' }, { command: 'ledger', api_version: 3 }]);
  });
});

describe('rippled API: methods the devnet does not serve, against what the devnet serves', () => {
  /** The devnet's header fields of a ledger: what rippled's lookupLedger puts in a result. */
  async function ledgerOf(ledgerIndex: number): Promise<{ ledger_hash: string; ledger_index: number }> {
    const { result } = await reference.request({ command: 'ledger', ledger_index: ledgerIndex });
    return { ledger_hash: result.ledger_hash, ledger_index: ledgerIndex };
  }

  it('transaction_entry: the transaction and its metadata as stored in the ledger, API v1 and v2', async () => {
    const chosen = transactions.filter((tx, position) => tx.TransactionType !== 'Payment' || position % 8 === 0);
    const seen: Difference[] = [];
    for (const tx of chosen) {
      const v1 = (await reference.request({ command: 'tx', transaction: tx.hash })).result;
      const v2 = (await reference.request({ command: 'tx', transaction: tx.hash, api_version: 2 })).result;
      const at = await ledgerOf(v1.ledger_index);
      // rippled TransactionEntry: the ledger's fields, tx_json (rippled 2.0: a Payment's Amount also as DeliverMax)
      // and the stored metadata (no delivered_amount, which tx adds).
      const { meta, validated: _v, ledger_index: _l, inLedger: _i, date: _d, ctid: _c, ...fields } = v1;
      const txJson = fields.TransactionType === 'Payment' ? { ...fields, DeliverMax: fields.Amount } : fields;
      // v2: the transaction's own fields (STTx), without the date and ledger_index that tx adds to its tx_json.
      const { date: _date, ledger_index: _ledgerIndex, ...v2Fields } = v2.tx_json;
      const { delivered_amount: _da, ...storedMeta } = meta;
      seen.push(...(await nodeAnswerDifferences({ command: 'transaction_entry', tx_hash: tx.hash, ledger_index: at.ledger_index }, { ...at, validated: true, tx_json: txJson, metadata: storedMeta })));
      seen.push(
        ...(await nodeAnswerDifferences(
          { command: 'transaction_entry', tx_hash: tx.hash, ledger_hash: at.ledger_hash, api_version: 2 },
          { ...at, validated: true, tx_json: v2Fields, hash: tx.hash, close_time_iso: v2.close_time_iso, meta: storedMeta },
        )),
      );
    }
    expectAllIntended(seen);
  });

  it('account_objects: the trust line of each holder, as ledger_entry serves it', async () => {
    for (const holder of holders.slice(0, 4)) {
      const line = (await reference.request({ command: 'ledger_entry', ripple_state: { accounts: [holder, issuer], currency: 'USD' }, ledger_index: last })).result;
      expectAllIntended(
        await nodeAnswerDifferences({ command: 'account_objects', account: holder, ledger_index: last }, { account: holder, account_objects: [line.node], ...(await ledgerOf(last)), validated: true }),
      );
    }
  });

  it('account_currencies: each holder can send and receive the issued currency', async () => {
    for (const holder of holders.slice(0, 4)) {
      expectAllIntended(
        await nodeAnswerDifferences(
          { command: 'account_currencies', account: holder, ledger_index: last },
          { ...(await ledgerOf(last)), receive_currencies: ['USD'], send_currencies: ['USD'], validated: true },
        ),
      );
    }
  });

  it('server_state: the complete ledgers of server_info, and the fees in drops', async () => {
    const [{ result: state }, { result: info }, { result: devnetInfo }] = await Promise.all([
      candidate.request({ command: 'server_state' }),
      candidate.request({ command: 'server_info' }),
      reference.request({ command: 'server_info' }),
    ]);
    expect(state?.state, JSON.stringify(state)).toBeDefined();
    expect(parseRanges(state.state.complete_ledgers)[0]?.first).toBe(parseRanges(info.info.complete_ledgers)[0]?.first);
    // rippled server_state: the same fees as server_info's, in integer drops rather than XRP.
    const drops = (xrp: number) => Math.round(xrp * 1_000_000);
    expect({ base_fee: state.state.validated_ledger.base_fee, reserve_base: state.state.validated_ledger.reserve_base, reserve_inc: state.state.validated_ledger.reserve_inc }).toEqual({
      base_fee: drops(devnetInfo.info.validated_ledger.base_fee_xrp),
      reserve_base: drops(devnetInfo.info.validated_ledger.reserve_base_xrp),
      reserve_inc: drops(devnetInfo.info.validated_ledger.reserve_inc_xrp),
    });
  });
});

describe('rippled API: order books, definitions, amendments and claims — the node answers as the devnet does', () => {
  const xrpl = getProfile('xrpl');
  /** Accounts of fixed seeds that only this section uses: a gateway, a market maker and a taker. */
  const keyOf = (number: number) => {
    const entropy = new Uint8Array(16);
    entropy[15] = number;
    const seed = xrpl.keys.generateSeed({ entropy });
    const { publicKey, privateKey } = xrpl.keys.deriveKeypair(seed);
    return { address: xrpl.keys.deriveAddress(publicKey), publicKey, privateKey };
  };
  const genesis = (() => {
    const { publicKey, privateKey } = xrpl.keys.deriveKeypair(GENESIS.xrpl.secret);
    return { address: GENESIS.xrpl.address, publicKey, privateKey };
  })();
  const [gateway, maker, taker] = [keyOf(201), keyOf(202), keyOf(203)];
  const usd = (value: string) => ({ currency: 'USD', issuer: gateway.address, value });
  const usdBook = () => ({ currency: 'USD', issuer: gateway.address });
  /** Ledgers of this section: the offers placed, then crossed. */
  let placedIn: number;
  let crossedIn: number;

  /** Signs with the account's key and submits to the devnet; the sequence is the open ledger's. */
  async function submitTo(account: { address: string; publicKey: string; privateKey: string }, tx: Json): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const info = await reference.request({ command: 'account_info', account: account.address, ledger_index: 'current' });
      const unsigned = { Fee: '12', ...tx, Account: account.address, Sequence: info.result.account_data.Sequence, SigningPubKey: account.publicKey };
      const TxnSignature = xrpl.keys.sign(xrpl.codec.encodeForSigning(unsigned), account.privateKey);
      const answer = await reference.request({ command: 'submit', tx_blob: xrpl.codec.encode({ ...unsigned, TxnSignature }) });
      const result = answer.result?.engine_result;
      // The load generator signs with the genesis key too: a sequence it took first is retried.
      if (result === 'tefPAST_SEQ' || result === 'terPRE_SEQ') continue;
      expect(result, `${String(tx.TransactionType)}: ${JSON.stringify(answer)}`).toBe('tesSUCCESS');
      return answer.result.tx_json.hash as string;
    }
    throw new Error(`${String(tx.TransactionType)} from ${account.address}: no sequence accepted`);
  }

  /** The ledger a transaction was validated in, once the node has stored it too. */
  async function validatedOnBoth(txHash: string): Promise<number> {
    return waitUntil(
      async () => {
        const theirs = (await reference.request({ command: 'tx', transaction: txHash })).result;
        if (theirs?.validated !== true) return undefined;
        const ours = (await candidate.request({ command: 'tx', transaction: txHash })).result;
        return ours?.validated === true ? (ours.ledger_index as number) : undefined;
      },
      60_000,
      `transaction ${txHash} validated on the devnet and stored by the node`,
    );
  }

  beforeAll(async () => {
    let lastHash = '';
    for (const account of [gateway, maker, taker]) lastHash = await submitTo(genesis, { TransactionType: 'Payment', Destination: account.address, Amount: '1000000000' });
    await validatedOnBoth(lastHash);
    for (const trader of [maker, taker]) lastHash = await submitTo(trader, { TransactionType: 'TrustSet', LimitAmount: usd('1000') });
    await validatedOnBoth(lastHash);
    await validatedOnBoth(await submitTo(gateway, { TransactionType: 'Payment', Destination: maker.address, Amount: usd('100') }));
    await submitTo(maker, { TransactionType: 'OfferCreate', TakerGets: usd('10'), TakerPays: '120000000' });
    await submitTo(maker, { TransactionType: 'OfferCreate', TakerGets: usd('10'), TakerPays: '100000000' });
    placedIn = await validatedOnBoth(await submitTo(maker, { TransactionType: 'OfferCreate', TakerGets: usd('5'), TakerPays: '60000000', Flags: 0x00010000 }));
    // The taker pays up to 12 XRP per USD for 15 USD: the best offer in full, half of the next.
    crossedIn = await validatedOnBoth(await submitTo(taker, { TransactionType: 'OfferCreate', TakerGets: '180000000', TakerPays: usd('15') }));
  }, 240_000);

  it('book_offers: the books after offers are placed and after one crosses, both directions, limited', async () => {
    const answers = await expectSameAnswers([
      { command: 'book_offers', taker_gets: usdBook(), taker_pays: { currency: 'XRP' }, ledger_index: placedIn },
      { command: 'book_offers', taker_gets: usdBook(), taker_pays: { currency: 'XRP' }, ledger_index: crossedIn },
      { command: 'book_offers', taker_gets: usdBook(), taker_pays: { currency: 'XRP' }, ledger_index: placedIn, limit: 1 },
      { command: 'book_offers', taker_gets: { currency: 'XRP' }, taker_pays: usdBook(), ledger_index: crossedIn },
      { command: 'book_offers', taker_gets: usdBook(), taker_pays: usdBook(), ledger_index: crossedIn },
    ]);
    expect(answers[0]!.result.offers).toHaveLength(3);
    expect(answers[1]!.result.offers.map((offer: Json) => offer.TakerGets.value)).toEqual(['5', '5']);
  });

  it('book_changes: the ledger of the crossing, one without trades, a malformed ledger', async () => {
    const answers = await expectSameAnswers([
      { command: 'book_changes', ledger_index: crossedIn },
      { command: 'book_changes', ledger_index: placedIn },
      { command: 'book_changes', ledger_index: 'no such ledger' },
    ]);
    // Two trades in one transaction: open and close follow its metadata's order (by offer index).
    const [change] = answers[0]!.result.changes as Json[];
    expect(answers[0]!.result.changes).toHaveLength(1);
    expect(change).toMatchObject({ currency_a: 'XRP_drops', currency_b: `${gateway.address}/USD`, volume_a: '160000000', volume_b: '15', high: '12000000', low: '10000000' });
    expect([change!.open, change!.close].sort()).toEqual(['10000000', '12000000']);
    expect(answers[1]!.result.changes).toEqual([]);
  });

  it('server_definitions: the whole table, the hash alone when it matches, a malformed hash', async () => {
    const [whole] = await expectSameAnswers([{ command: 'server_definitions' }]);
    await expectSameAnswers([
      { command: 'server_definitions', hash: whole!.result.hash },
      { command: 'server_definitions', hash: '0'.repeat(64) },
      { command: 'server_definitions', hash: 'not a hash' },
    ]);
  });

  it('feature: every amendment, one by name and by id, and the refusals', async () => {
    const [all] = await expectSameAnswers([{ command: 'feature' }]);
    const ammId = Object.entries(all!.result.features as Record<string, Json>).find(([, amendment]) => amendment.name === 'AMM')![0];
    await expectSameAnswers([
      { command: 'feature', feature: 'AMM' },
      { command: 'feature', feature: ammId },
      { command: 'feature', feature: 'NoSuchAmendment' },
      { command: 'feature', feature: 'AMM', vetoed: true },
      { command: 'feature', feature: 7 },
    ]);
  });

  it('channel_verify: a claim signed by the key, the same claim for another amount, malformed fields', async () => {
    const channelId = 'C1'.repeat(32);
    const signature = xrpl.keys.sign(channelClaimMessage(channelId, 5000n), maker.privateKey);
    const claim = { command: 'channel_verify', channel_id: channelId, amount: '5000', signature, public_key: maker.publicKey };
    const answers = await expectSameAnswers([
      claim,
      { ...claim, amount: '5001' },
      { ...claim, amount: 5000 },
      { ...claim, channel_id: 'C1' },
      { ...claim, public_key: 'ED00' },
      { ...claim, signature: '' },
      { command: 'channel_verify', channel_id: channelId },
    ]);
    expect(answers.slice(0, 2).map((answer) => answer.result.signature_verified)).toEqual([true, false]);
  });
});
