/**
 * Random requests to the listeners the JSON-RPC fuzz (fuzz.test.ts) does not reach: rippled's API
 * over HTTP and WebSocket, and JSON-RPC over /v1/ws. Commands of every name with fields near and
 * far from valid — resume points (from_ledger, fromBlock) anywhere, integers past 2^32 and 2^53,
 * account lists past the cap, deep nesting, truncated JSON. None may end the process, answer 5xx or
 * `internal` / -32603, or show a stack trace; a concurrent client's pings are timed throughout,
 * and the figures printed (never asserted: a test asserts no wall-clock time).
 */
import { Agent, request } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, startProcess, stopAll, tempDir, WsClient, type RunningProcess, type WsMessage } from '@ledger-node/test-utils';
import { methods } from '../src/jsonrpc/methods/index';
import { rippledMethods } from '../src/rippled/methods/index';

const REQUESTS_PER_LISTENER = 2_000;
const CONNECTIONS = 4;
let facade: RunningProcess;
let rpcPort: number;
let wsPort: number;
let removeDir: () => void;
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

const figures = { requests: 0, fiveHundreds: 0, internalErrors: 0, stackTraces: 0 };
const STACK_TRACE = /\n\s+at |\.ts:\d+|TypeError|RangeError|ReferenceError/;

// ---- what a request can hold ----

const hex = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF'), minLength, maxLength });
const base58 = fc.string({ unit: fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'), minLength: 24, maxLength: 34 });
const address = base58.map((tail) => `r${tail}`);
/** Integers near every bound a field has: signed, 2^31, 2^32, 2^53, and past them. */
const boundaryInteger = fc.oneof(
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e300, -1e300, 0.5),
  fc.integer(),
);
const nested = fc.integer({ min: 1, max: 60 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown);
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  boundaryInteger,
  address,
  hex(64, 64),
  hex(0, 300),
  fc.constantFrom('validated', 'current', 'closed', 'earliest', 'latest', '', 'XRP', 'USD'),
  fc.array(address, { minLength: 0, maxLength: 1_500 }),
  nested,
);
const fieldNames = [
  'account', 'accounts', 'accounts_proposed', 'ledger_index', 'ledger_hash', 'ledger_index_min', 'ledger_index_max', 'from_ledger', 'marker',
  'limit', 'streams', 'books', 'taker_gets', 'taker_pays', 'tx_json', 'tx_blob', 'transaction', 'binary', 'expand', 'transactions', 'type',
  'index', 'account_root', 'api_version', 'strict', 'forward', 'queue', 'signer_lists', 'peer', 'full', 'owner_funds', 'ctid', 'fromBlock',
];
const fields = fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 5 });
const command = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...Object.keys(rippledMethods), 'subscribe', 'unsubscribe', 'path_find', 'sign') }, { weight: 1, arbitrary: fc.string() });

/** A rippled WebSocket request as text: well-formed, cut short, or nested past any limit. */
const rippledText = (id: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.tuple(command, fields).map(([name, values]) => JSON.stringify({ ...values, id, command: name })) },
    { weight: 1, arbitrary: fc.tuple(command, fields, fc.double({ min: 0, max: 1, noNaN: true })).map(([name, values, cut]) => {
      const text = JSON.stringify({ ...values, id, command: name });
      return text.slice(0, Math.max(1, Math.floor(text.length * cut)));
    }) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 5_000 }).map((depth) => `{"id":${id},"command":"ping","x":${'['.repeat(depth)}${']'.repeat(depth)}}`) },
  );

/** A JSON-RPC call over /v1/ws (always with an id: every message is answered). */
const jtText = (id: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...methods.keys(), 'jt_subscribe', 'jt_unsubscribe'), fc.array(fc.oneof(fieldValue, fields, fc.constantFrom('newHeads', 'logs', 'transactions')), { maxLength: 4 })).map(([method, params]) => JSON.stringify({ jsonrpc: '2.0', id, method, params })) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 5_000 }).map((depth) => `{"jsonrpc":"2.0","id":${id},"method":"jt_blockNumber","params":${'['.repeat(depth)}${']'.repeat(depth)}}`) },
  );

// ---- what every answer must be ----

function checkClean(text: string, context: string): void {
  if (STACK_TRACE.test(text)) figures.stackTraces++;
  expect(text, context).not.toMatch(STACK_TRACE);
}

function checkRippled(answer: WsMessage, context: string): void {
  checkClean(JSON.stringify(answer), context);
  if (answer.error === 'internal') figures.internalErrors++;
  expect(answer.error, context).not.toBe('internal');
  if (answer.error === 'jsonInvalid') expect(answer.type, context).toBe('error');
  else expect([answer.type, ['success', 'error'].includes(answer.status)], context).toEqual(['response', true]);
}

function checkJsonRpc(answer: WsMessage, context: string): void {
  checkClean(JSON.stringify(answer), context);
  for (const entry of Array.isArray(answer) ? answer : [answer]) {
    expect(entry.jsonrpc, context).toBe('2.0');
    if (entry.status === 'error' && entry.error?.code === -32603) figures.internalErrors++;
    expect(entry.error?.code, context).not.toBe(-32603);
  }
}

function post(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: wsPort, path: '/', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Sends each text in turn on one connection and checks the answer it gets before the next. */
async function exchange(client: WsClient, texts: string[], isAnswer: (message: WsMessage) => boolean, check: (answer: WsMessage, context: string) => void): Promise<void> {
  for (const text of texts) {
    const answer = await client.sendText(text, isAnswer, 15_000);
    figures.requests++;
    check(answer, `${text.slice(0, 300)} → ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

beforeAll(async () => {
  const { dir, remove } = tempDir('fuzz-streams-');
  removeDir = remove;
  [rpcPort, wsPort] = [await freePort(), await freePort()];
  const storeAddress = `unix:${path.join(dir, 'run', 'ledger-store.sock')}`;
  const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', storeAddress]);
  await store.waitFor(/"msg":"serving"/);
  facade = startProcess([
    cliEntry(), 'serve', 'facade', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort),
    '-sync=false', '-data_dir', dir, '-ledger_store_addr', storeAddress, '-log_level', 'warn',
  ]);
  const deadline = Date.now() + 30_000;
  while ((await post('{"method":"ping"}').catch(() => undefined))?.status !== 200) {
    if (Date.now() > deadline) throw new Error(`the facade did not answer; output:\n${facade.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await stopAll();
  removeDir?.();
});

describe("rippled's API and /v1/ws under random requests", () => {
  it('never end the process, answer 5xx, internal or a stack trace, and keep answering another client', async () => {
    let nextId = 1;
    const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number) => fc.sample(arbitrary, { numRuns: count });
    const perConnection = REQUESTS_PER_LISTENER / CONNECTIONS;

    // A bystander pings throughout; its round trips are the figure that matters to other clients.
    const bystander = await WsClient.open(`ws://127.0.0.1:${wsPort}`);
    const pings: number[] = [];
    let abusing = true;
    const pinging = (async () => {
      while (abusing) {
        const startedAt = performance.now();
        await bystander.request({ command: 'ping' }, 15_000);
        pings.push(performance.now() - startedAt);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const rippledWs = Array.from({ length: CONNECTIONS }, async () => {
      const client = await WsClient.open(`ws://127.0.0.1:${wsPort}`);
      const texts = Array.from({ length: perConnection }, () => sample(rippledText(nextId++), 1)[0]!);
      await exchange(client, texts, (message) => message.type === 'response' || message.error === 'jsonInvalid', checkRippled);
      expect(client.isOpen).toBe(true);
      client.terminate();
    });
    const jtWs = Array.from({ length: CONNECTIONS }, async () => {
      const client = await WsClient.open(`ws://127.0.0.1:${rpcPort}/v1/ws`);
      const texts = Array.from({ length: perConnection }, () => sample(jtText(nextId++), 1)[0]!);
      await exchange(client, texts, (message) => Array.isArray(message) || message.jsonrpc === '2.0', checkJsonRpc);
      client.terminate();
    });
    const rippledHttp = Array.from({ length: CONNECTIONS }, async () => {
      for (const [name, values] of sample(fc.tuple(command, fields), perConnection)) {
        const body = JSON.stringify({ method: name, params: [values] });
        const answer = await post(body);
        figures.requests++;
        const context = `${body.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
        if (answer.status >= 500) figures.fiveHundreds++;
        expect(answer.status, context).toBeLessThan(500);
        checkClean(answer.text, context);
        if (answer.status === 200) {
          const { result } = JSON.parse(answer.text);
          if (result.error === 'internal') figures.internalErrors++;
          expect(result.error, context).not.toBe('internal');
        }
      }
    });
    await Promise.all([...rippledWs, ...jtWs, ...rippledHttp]);
    abusing = false;
    await pinging;
    bystander.terminate();

    expect(figures.requests).toBe(3 * REQUESTS_PER_LISTENER);
    expect(facade.child.exitCode).toBeNull();
    expect(() => process.kill(facade.pid, 0)).not.toThrow();
    expect(facade.output()).not.toMatch(/uncaught|unhandled|FATAL|heap out of memory/i);
    const sorted = [...pings].sort((a, b) => a - b);
    const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!.toFixed(1);
    console.log(
      `fuzz figures: requests=${figures.requests} exits=0 5xx=${figures.fiveHundreds} internal=${figures.internalErrors} stack_traces=${figures.stackTraces}` +
        ` bystander_pings=${pings.length} p50=${at(0.5)}ms p99=${at(0.99)}ms max=${sorted.at(-1)!.toFixed(1)}ms`,
    );
  }, 240_000);
});
