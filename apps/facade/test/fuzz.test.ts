/**
 * 10 000 random request bodies POSTed to a real facade over a real ledger-store: JSON values of every
 * kind, JSON-RPC-shaped calls with random methods, params and ids, batches, truncated JSON, invalid
 * UTF-8, huge numbers and deep nesting. None may yield a 5xx or an answer that is not JSON-RPC, and
 * the facade must still be the same live process answering `jt_blockNumber` at the end.
 */
import { Agent, request } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, startProcess, stopAll, tempDir, type RunningProcess } from '@ledger-node/test-utils';
import { methods } from '../src/jsonrpc/methods/index';

const bodiesPerRun = 10;
const runs = 1_000;
let facade: RunningProcess;
let port: number;
let removeDir: () => void;
/** Keep-alive connections shared by every request: the facade's parsing is under test, not TCP set-up. */
const agent = new Agent({ keepAlive: true, maxSockets: bodiesPerRun });
let sentCount = 0;

interface Answer {
  status: number;
  body: Buffer;
}

function post(body: Uint8Array, contentType: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path: '/v1/jsonrpc', method: 'POST', agent, headers: { 'content-type': contentType, 'content-length': body.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

// ---- what a body can be ----

const methodNames = [...methods.keys(), 'rpc.discover'];
const hex = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength, maxLength });
const base58 = fc.string({ unit: fc.constantFrom(...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'), minLength: 20, maxLength: 40 });
/** A decimal integer far beyond 2^53, as raw JSON number text. */
const hugeNumberText = fc.bigInt({ min: -(10n ** 400n), max: 10n ** 400n }).map(String);

/** Values shaped like the parameters methods take, near and far from valid. */
const paramValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hex(0, 80),
  hex(64, 64),
  hex(64, 64).map((hash) => `0x${hash}`),
  base58.map((tail) => `r${tail}`),
  fc.constantFrom('earliest', 'latest', 'pending', 'current', 'validated', 'closed', 'in', 'out', 'both', '', '0x', '-1', '1e3'),
  fc.integer({ min: -1, max: 2 ** 32 + 1 }),
  fc.double(),
  fc.record({ from: fc.oneof(fc.string(), base58), to: fc.oneof(fc.string(), base58), value: fc.oneof(fc.integer(), fc.string(), fc.double()), fee: fc.oneof(fc.integer(), fc.string()) }, { requiredKeys: [] }),
);

const anyId = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.boolean(), fc.object({ maxDepth: 1 }), fc.array(fc.integer(), { maxLength: 2 }));

const rpcCall = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
    method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...methodNames) }, { weight: 1, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
    params: fc.oneof({ weight: 8, arbitrary: fc.array(paramValue, { maxLength: 6 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }),
    id: anyId,
  },
  { requiredKeys: [] },
);

const jsonText = fc.oneof(
  { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 6, arbitrary: rpcCall.map((call) => JSON.stringify(call)) },
  { weight: 3, arbitrary: fc.array(fc.oneof(rpcCall, fc.jsonValue({ maxDepth: 2 })), { maxLength: 20 }).map((batch) => JSON.stringify(batch)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...methodNames), hugeNumberText, hugeNumberText)
      .map(([method, param, id]) => `{"jsonrpc":"2.0","method":"${method}","params":[${param},${param}],"id":${id}}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom('array', 'object', 'params', 'id'))
      .map(([depth, where]) => {
        const nestedArray = '['.repeat(depth) + ']'.repeat(depth);
        const nestedObject = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
        if (where === 'array') return nestedArray;
        if (where === 'object') return nestedObject;
        if (where === 'params') return `{"jsonrpc":"2.0","method":"jt_getBlockByNumber","params":[${nestedArray},${nestedObject}],"id":1}`;
        return `{"jsonrpc":"2.0","method":"jt_blockNumber","params":[],"id":${nestedObject}}`;
      }),
  },
);

/** Bytes: JSON text as is, cut short, with invalid UTF-8 spliced in, or random bytes. */
const bodyBytes = fc.oneof(
  { weight: 6, arbitrary: jsonText.map((text) => Buffer.from(text, 'utf8')) },
  { weight: 2, arbitrary: fc.tuple(jsonText, fc.double({ min: 0, max: 1, noNaN: true })).map(([text, cut]) => Buffer.from(text.slice(0, Math.floor(text.length * cut)), 'utf8')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(rpcCall, fc.constantFrom([0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf]))
      .map(([call, invalid]) => {
        // Invalid UTF-8 inside the method string, where a parser must not accept it silently as text.
        const text = JSON.stringify({ ...call, jsonrpc: '2.0', method: 'jt_@' });
        const [before, after] = text.split('@');
        return Buffer.concat([Buffer.from(before!, 'utf8'), Buffer.from(invalid), Buffer.from(after ?? '', 'utf8')]);
      }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
);

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json') },
);

/** What every answer must be: no 5xx; JSON-RPC error or result objects, or an empty 204. */
function checkAnswer(answer: Answer, sent: Buffer, type: string): void {
  const context = `body ${JSON.stringify(sent.toString('latin1').slice(0, 300))} (${type}) → ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  if (answer.status === 204) {
    expect(answer.body.length, context).toBe(0);
    return;
  }
  const parsed = JSON.parse(answer.body.toString('utf8'));
  for (const entry of Array.isArray(parsed) ? parsed : [parsed]) {
    expect(entry.jsonrpc, context).toBe('2.0');
    expect(['success', 'error'], context).toContain(entry.status);
    if (entry.status === 'error') {
      expect(Number.isInteger(entry.error.code), context).toBe(true);
      expect(JSON.stringify(entry.error), context).not.toMatch(/\n\s+at |\.ts:\d+/);
      // An unexpected failure would be -32603: the fuzz must not find one.
      expect(entry.error.code, context).not.toBe(-32603);
    }
  }
}

beforeAll(async () => {
  const { dir, remove } = tempDir('fuzz-');
  removeDir = remove;
  port = await freePort();
  const storeAddress = `unix:${path.join(dir, 'run', 'ledger-store.sock')}`;
  const store = startProcess([cliEntry(), 'serve', 'ledger-store', '-data_dir', dir, '-ledger_store_addr', storeAddress]);
  await store.waitFor(/"msg":"serving"/);
  facade = startProcess([
    cliEntry(), 'serve', 'facade', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-sync=false',
    '-data_dir', dir, '-ledger_store_addr', storeAddress, '-log_level', 'warn',
  ]);
  await waitForPort();
});

async function waitForPort(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await post(Buffer.from('{"jsonrpc":"2.0","method":"jt_blockNumber","params":[],"id":1}'), 'application/json').catch(() => undefined);
    if (answer?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`the facade did not answer; output:\n${facade.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

afterAll(async () => {
  agent.destroy();
  await stopAll();
  removeDir?.();
});

describe('the JSON-RPC endpoint under 10 000 random bodies', () => {
  it('never answers 5xx, always answers JSON-RPC, and keeps running', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(bodyBytes, contentType), { minLength: bodiesPerRun, maxLength: bodiesPerRun }), async (requests) => {
        // The run's bodies go out together: bounded concurrency over the kept-alive connections.
        const answers = await Promise.all(requests.map(([body, type]) => post(body, type)));
        sentCount += requests.length;
        answers.forEach((answer, index) => checkAnswer(answer, requests[index]![0], requests[index]![1]));
      }),
      { numRuns: runs, endOnFailure: true },
    );
    expect(sentCount).toBe(bodiesPerRun * runs);

    expect(() => process.kill(facade.pid, 0)).not.toThrow();
    expect(facade.child.exitCode).toBeNull();
    const last = await post(Buffer.from('{"jsonrpc":"2.0","method":"jt_blockNumber","params":[],"id":"last"}'), 'application/json');
    expect(JSON.parse(last.body.toString('utf8'))).toEqual({ id: 'last', jsonrpc: '2.0', result: 0, status: 'success' });
    expect(facade.output()).not.toMatch(/uncaught|unhandled|FATAL|heap out of memory/i);
  }, 120_000);
});
