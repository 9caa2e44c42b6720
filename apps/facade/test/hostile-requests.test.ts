/**
 * Hostile requests against a whole node (-dev: devnet, ledger-store, sync, keystore with a local
 * account, submission, facade with -rpc and -api), the security review's cases:
 *
 * - any Unicode string in every string parameter of every method (fields of transaction objects too),
 * - prototype names (`__proto__`, `constructor`, `toString`, …) in every name slot: string parameters,
 *   method names, object keys and REST path segments, each batch carrying a valid call that must
 *   still succeed,
 * - oversized and deeply nested bodies,
 * - 10 000-call batches (the node runs with -max_batch 10000 and a small -max_response_bytes),
 * - foreign `Host` and `Origin` headers on both listeners.
 *
 * Must hold: no process of the node ends or restarts, no input gives -32603 (or a service reported
 * unavailable), no 5xx, and no answer carries more results than -max_response_bytes.
 */
import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, childPids, cliEntry, freePort, generateLocalAccount, startProcess, stopAll, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';
import { methods } from '../src/jsonrpc/methods/index';

const passphrase = 'hostile requests passphrase';
const MAX_RESPONSE_BYTES = 262_144;
const MAX_BATCH = 10_000;
const MAX_BODY_BYTES = 4 * 1_048_576;
const MAX_CONNECTIONS = 64;
/** Names an object lookup must never mistake for its own entries. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '__defineGetter__', 'isPrototypeOf'];
/** Codes no input may produce: an unexpected failure, or a service of the node gone. */
const FORBIDDEN_CODES = new Set([-32603, -32008]);

let node: RunningProcess;
let removeDir: () => void;
let rpcPort: number;
let apiPort: number;
let localAddress: string;
let pidsAtStart: Map<string, number>;
/** A stored ledger with transactions, and one of them: valid values for the baseline calls. */
let known: { blockHash: string; blockIndex: number; txHash: string };
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

interface Answer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

/** One HTTP request; from `localAddress` (another client: all of 127.0.0.0/8 is loopback) on a connection of its own. */
function send(port: number, method: string, urlPath: string, body?: string, headers: OutgoingHttpHeaders = {}, localAddress?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const bytes = body === undefined ? undefined : Buffer.from(body, 'utf8');
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method,
        ...(localAddress ? { localAddress, agent: false } : { agent }),
        headers: { ...(bytes ? { 'content-type': 'application/json', 'content-length': bytes.length } : {}), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as idle just as this request went out on it (the
      // race Node's documentation names for request.reusedSocket): the server never read it, so it is sent again.
      if (outgoing.reusedSocket && error.code === 'ECONNRESET') send(port, method, urlPath, body, headers, localAddress).then(resolve, reject);
      else reject(error);
    });
    outgoing.end(bytes);
  });
}

const rpc = (body: string, headers?: OutgoingHttpHeaders) => send(rpcPort, 'POST', '/v1/jsonrpc', body, headers);

/** A JSON-RPC POST from another loopback source address: another client to the node. */
const sendFrom = (localAddress: string, body: string, headers: OutgoingHttpHeaders = {}) => send(rpcPort, 'POST', '/v1/jsonrpc', body, headers, localAddress);

/** A loopback address the node trusts as a reverse proxy (-trusted_proxies): its X-Forwarded-For names the client. */
const TRUSTED_PROXY = '127.0.0.9';

/** CPU time the keystore has used, in clock ticks: it grows by about 40 a derivation. */
function keystoreTicks(): number {
  const fields = readFileSync(`/proc/${pidsAtStart.get('keystore')}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

interface Entry {
  id: unknown;
  jsonrpc: string;
  status: 'success' | 'error';
  result?: unknown;
  error?: { code: number; message: string };
}

/** The answer's entries, after the checks every JSON-RPC answer must pass (`allowed`: errors expected here). */
function entriesOf(answer: Answer, sent: string, allowed: (entry: Entry) => boolean = () => false): Entry[] {
  const context = `${sent.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  const parsed = JSON.parse(answer.text) as Entry | Entry[];
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  for (const entry of entries) {
    expect(entry.jsonrpc, context).toBe('2.0');
    if (entry.status === 'error' && !allowed(entry)) expect(FORBIDDEN_CODES.has(entry.error!.code), `${context}\n${JSON.stringify(entry)}`).toBe(false);
  }
  return entries;
}

const call = (method: string, params: unknown[], id: unknown = 1) => ({ jsonrpc: '2.0', method, params, id });

// ---------------------------------------------------------------- every string slot of every method

/** Calls valid in form for every method: each string slot in them is replaced in turn. */
function baselines(): Record<string, unknown[]> {
  const transaction = { from: 'n', to: localAddress, value: '1', fee: '12' };
  return {
    jt_syncing: [],
    jt_blockNumber: [],
    jt_accounts: [],
    jt_getBalance: [localAddress, 'validated'],
    jt_getTransactionCount: [localAddress, 'validated'],
    jt_getBlockTransactionCountByHash: [known.blockHash],
    jt_getBlockTransactionCountByNumber: ['latest'],
    jt_getBlockByHash: [known.blockHash, false],
    jt_getBlockByNumber: ['latest', false],
    jt_getTransactionByHash: [known.txHash],
    jt_getTransactionByBlockHashAndIndex: [known.blockHash, '0x0'],
    jt_getTransactionByBlockNumberAndIndex: ['latest', '0x0'],
    jt_getTransactionReceipt: [known.txHash],
    jt_getTransactionProof: [known.txHash],
    jt_sign: ['n', '0x00'],
    jt_signTransaction: [transaction],
    jt_sendTransaction: [transaction],
    jt_sendRawTransaction: ['0x00'],
    jt_account: [localAddress, 0, 10, true, 'both'],
    jt_sendTransactionAndWait: [transaction, 1],
    jt_sendRawTransactionAndWait: ['0x00', 1],
    jt_getProof: [localAddress, 'validated', [{ currency: 'USD', issuer: localAddress }]],
    jt_subscribe: ['newBlocks', { fromBlock: '0x1' }],
    jt_unsubscribe: ['0x00'],
  };
}

/** A string slot: a parameter position, and the field when the parameter is an object. */
interface Slot {
  method: string;
  position: number;
  field?: string;
}

function stringSlots(calls: Record<string, unknown[]>): Slot[] {
  return Object.entries(calls).flatMap(([method, params]) =>
    params.flatMap((value, position): Slot[] => {
      if (typeof value === 'string') return [{ method, position }];
      if (typeof value === 'object' && value !== null) return Object.keys(value).map((field) => ({ method, position, field }));
      return [];
    }),
  );
}

function withValue(params: unknown[], slot: Slot, value: string): unknown[] {
  return params.map((param, position) => {
    if (position !== slot.position) return param;
    return slot.field === undefined ? value : { ...(param as object), [slot.field]: value };
  });
}

/** Strings from every corner of Unicode: any code point, lone surrogates, controls, bidi marks, long runs. */
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('é', '\u0000', '\u202e', '\ufeff', '\ud800', '\udfff', '𝔘𝔫𝔦', 'n\u0000', 'n\n', ' n', '\u0301', '０x00', 'latest\u200b') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('é', '\ud83d\ude00', '\u0000'), fc.integer({ min: 100, max: 20_000 })).map(([text, times]) => text.repeat(times)) },
);

function checkSlotsAnswer(answer: Answer, sent: string, slotCount: number): void {
  const entries = entriesOf(answer, sent);
  expect(entries).toHaveLength(slotCount);
}

// ---------------------------------------------------------------- the node

beforeAll(async () => {
  const { dir, remove } = tempDir('hostile-requests-');
  removeDir = remove;
  localAddress = generateLocalAccount(dir, 'n', passphrase).address;
  [rpcPort, apiPort] = [await freePort(), await freePort()];
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '300', '-load', '10', '-load_accounts', '4',
    '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort), '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
    '-max_batch', String(MAX_BATCH), '-max_response_bytes', String(MAX_RESPONSE_BYTES), '-max_body_bytes', String(MAX_BODY_BYTES),
    // Every client of this test is on this host: -send_rate_local counts them as the clients they stand for.
    '-max_connections', String(MAX_CONNECTIONS), '-trusted_proxies', TRUSTED_PROXY, '-send_rate_local',
    '-data_dir', dir, '-password_file', path.join(dir, 'password'), '-log_level', 'warn',
  ]);
  await node.waitFor(/facade\s+ready/, 60_000);
  known = await waitUntil(
    async () => {
      const [entry] = entriesOf(await rpc(JSON.stringify(call('jt_getBlockByNumber', ['latest', false]))), 'latest block');
      const block = entry!.result as { ledger: { transactions: string[] }; ledger_hash: string; ledger_index: number } | null;
      const [txHash] = block?.ledger.transactions ?? [];
      return block && txHash ? { blockHash: block.ledger_hash, blockIndex: block.ledger_index, txHash } : undefined;
    },
    60_000,
    'a stored block with transactions',
  );
  pidsAtStart = childPids(node);
  expect([...pidsAtStart.keys()].sort()).toEqual(['devnet', 'facade', 'keystore', 'ledger-store', 'submission', 'sync']);
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await stopAll();
  removeDir?.();
});

describe('hostile requests against a whole node', () => {
  it('names a baseline call for every method', () => {
    expect(Object.keys(baselines()).sort()).toEqual([...methods.keys()].sort());
  });

  it('answers any Unicode string in any string slot of any method without an internal error', async () => {
    const calls = baselines();
    const slots = stringSlots(calls);
    expect(slots.length).toBeGreaterThan(20);
    await fc.assert(
      fc.asyncProperty(fc.array(hostileString, { minLength: slots.length, maxLength: slots.length }), async (values) => {
        const batch = slots.map((slot, index) => call(slot.method, withValue(calls[slot.method]!, slot, values[index]!), index));
        const sent = JSON.stringify(batch);
        checkSlotsAnswer(await rpc(sent), sent, slots.length);
      }),
      { numRuns: 150, endOnFailure: true },
    );
  }, 300_000);

  it('takes prototype names as any name: parameters, methods, keys, REST paths; batch-mates unharmed', async () => {
    const calls = baselines();
    const slots = stringSlots(calls);
    const valid = call('jt_getBlockByNumber', [known.blockIndex, false], 'valid');
    for (const name of PROTOTYPE_NAMES) {
      const batch = [valid, ...slots.map((slot, index) => call(slot.method, withValue(calls[slot.method]!, slot, name), index)), call(name, [], 'method')];
      const sent = JSON.stringify(batch);
      const entries = entriesOf(await rpc(sent), sent);
      expect(entries.find((entry) => entry.id === 'valid'), name).toMatchObject({ status: 'success', result: { ledger_hash: known.blockHash } });
      expect(entries.find((entry) => entry.id === 'method'), name).toMatchObject({ error: { code: -32601 } });
      // As keys: of the request, of a transaction object, of params given as an object.
      for (const raw of [
        `{"jsonrpc":"2.0","method":"jt_blockNumber","params":[],"id":1,"${name}":{"jsonrpc":"1.0"}}`,
        `{"jsonrpc":"2.0","method":"jt_signTransaction","params":[{"from":"n","to":"${localAddress}","value":"1","${name}":{"from":"x"}}],"id":1}`,
        `{"jsonrpc":"2.0","method":"jt_getBalance","params":{"${name}":1},"id":1}`,
      ]) {
        entriesOf(await rpc(raw), raw);
      }
      for (const route of [`/v1/ledgers/${name}`, `/v1/transactions/${name}`, `/v1/submissions/${name}`, `/v1/accounts/${name}/balances`, `/v1/accounts/${localAddress}/payments?limit=${name}`]) {
        const answer = await send(apiPort, 'GET', route);
        expect(answer.status, `${route} → ${answer.text}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${route} → ${answer.text}`).toBeLessThan(500);
      }
    }
  }, 120_000);

  it('answers Unicode in REST path segments and queries with 4xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, async (text) => {
        // Every UTF-8 byte percent-encoded (a lone surrogate as U+FFFD), and a few malformed escapes.
        const segment = [...Buffer.from(text.slice(0, 2_000), 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('') + '%ED%A0%80%zz%';
        for (const route of [`/v1/ledgers/${segment}`, `/v1/transactions/${segment}`, `/v1/accounts/${segment}/balances`, `/v1/accounts/${localAddress}/payments?limit=${segment}`]) {
          const answer = await send(apiPort, 'GET', route);
          expect(answer.status, `${route} → ${answer.text.slice(0, 300)}`).toBeLessThan(500);
        }
      }),
      { numRuns: 100, endOnFailure: true },
    );
  }, 120_000);

  it('refuses oversized bodies with 413 and answers deeply nested ones with a JSON-RPC error', async () => {
    const oversized = JSON.stringify(call('jt_sign', ['n', `0x${'00'.repeat(MAX_BODY_BYTES / 2)}`]));
    const refused = await rpc(oversized);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/exceeds/) } });
    for (const depth of [1_000, 100_000, 1_000_000]) {
      for (const body of [
        '['.repeat(depth) + ']'.repeat(depth),
        `{"jsonrpc":"2.0","method":"jt_getBalance","params":[${'['.repeat(depth)}${']'.repeat(depth)},"latest"],"id":1}`,
        `{"jsonrpc":"2.0","method":"jt_sendTransaction","params":[${'{"from":'.repeat(depth)}1${'}'.repeat(depth)}],"id":1}`,
      ]) {
        entriesOf(await rpc(body), body);
      }
    }
  }, 60_000);

  it('answers 10 000-call batches within -max_response_bytes, past it with -32012', async () => {
    const cheap = Array.from({ length: MAX_BATCH }, (_, index) => call('jt_getBlockByNumber', [known.blockIndex, false], index));
    const cheapText = JSON.stringify(cheap);
    const answer = await rpc(cheapText);
    const entries = entriesOf(answer, 'a batch of 10 000 block calls');
    expect(entries).toHaveLength(MAX_BATCH);
    const successes = entries.filter((entry) => entry.status === 'success');
    const tooLarge = entries.filter((entry) => entry.error?.code === -32012);
    expect(successes.length).toBeGreaterThan(0);
    expect(successes.length + tooLarge.length).toBe(MAX_BATCH);
    const resultBytes = successes.reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry)), 0);
    expect(resultBytes).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);

    // Full blocks weigh 10 calls: 1 001 of them are over the limit as a whole.
    const full = Array.from({ length: MAX_BATCH / 10 + 1 }, (_, index) => call('jt_getBlockByNumber', [known.blockIndex, true], index));
    const refused = entriesOf(await rpc(JSON.stringify(full)), 'a batch of 1 001 full blocks');
    expect(refused).toEqual([expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600, message: expect.stringMatching(/weighs 10010 calls/) }) })]);

    // Unicode, prototype names and malformed calls, 10 000 at once.
    const mixed = Array.from({ length: MAX_BATCH }, (_, index) =>
      index % 3 === 0 ? call('jt_getBalance', [PROTOTYPE_NAMES[index % PROTOTYPE_NAMES.length], 'validated'], index)
        : index % 3 === 1 ? call('jt_getTransactionByHash', [`é${index}\u202e`], index)
          : { jsonrpc: '2.0', method: 'jt_blockNumber', params: 'x', id: index },
    );
    expect(entriesOf(await rpc(JSON.stringify(mixed)), 'a mixed batch of 10 000')).toHaveLength(MAX_BATCH);
  }, 120_000);

  it('refuses a foreign Host or a cross-origin page on both listeners, signing included', async () => {
    const signing = JSON.stringify(call('jt_sign', ['n', '0x00']));
    for (const headers of [{ host: 'attacker.example' }, { host: `attacker.example:${rpcPort}` }, { origin: 'http://attacker.example' }, { host: 'localhost', origin: 'null' }]) {
      const refused = await rpc(signing, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { code: -32007 } });
      expect(refused.text).not.toMatch(/"result"/);
      const rest = await send(apiPort, 'GET', '/v1/status', undefined, headers);
      expect(rest.status, JSON.stringify(headers)).toBe(403);
    }
    // The same call from the listener's own names is answered.
    const signed = entriesOf(await rpc(signing, { host: `localhost:${rpcPort}` }), signing);
    expect(signed[0]).toMatchObject({ status: 'success', result: expect.stringMatching(/^0x[0-9a-f]+$/i) });
  }, 60_000);

  it('shares signing fairly, each local connection its own caller: a batch of 30 jt_sign does not hold back another local process', async () => {
    const sign = (id: number) => call('jt_sign', ['n', `0x${id.toString(16).padStart(2, '0')}`], id);
    const finished: string[] = [];
    const ticksBefore = keystoreTicks();
    // The greedy process sends one batch of 30 on one connection: more than its share of the signing queue.
    const greedy = sendFrom('127.0.0.1', JSON.stringify(Array.from({ length: 30 }, (_, id) => sign(id)))).then((answer) => {
      finished.push('batch');
      return answer;
    });
    await waitUntil(() => keystoreTicks() - ticksBefore >= 20, 30_000, 'the keystore deriving for the batch', 20);
    // Another local process, from the same address, on a connection of its own.
    const single = await sendFrom('127.0.0.1', JSON.stringify(sign(99)));
    finished.push('single');
    expect(JSON.parse(single.text)).toMatchObject({ id: 99, status: 'success', result: expect.stringMatching(/^0x[0-9a-f]+$/i) });
    const batch = await greedy;
    expect(finished).toEqual(['single', 'batch']);
    // A busy keystore says so; a call that waited its whole deadline behind the others says that.
    const overloaded = (entry: Entry) => /^signing is busy|keystore unavailable: no answer before the deadline/.test(entry.error?.message ?? '');
    const entries = entriesOf(batch, 'a batch of 30 jt_sign', overloaded);
    expect(entries).toHaveLength(30);
    // Past its share of the queue, the greedy client's calls are refused at once, saying why.
    const busy = entries.filter((entry) => entry.error?.message.startsWith('signing is busy'));
    expect(busy.length).toBeGreaterThan(0);
    expect(entries.filter((entry) => entry.status === 'success').length).toBeGreaterThan(0);
  }, 120_000);

  it('limits the sends of each client (-send_rate 10 a second): -32013 and HTTP 429 with Retry-After past it', async () => {
    const rawSend = (id: number) => call('jt_sendRawTransaction', ['0x00'], id);
    const batch = entriesOf(await sendFrom('127.0.0.4', JSON.stringify(Array.from({ length: 15 }, (_, id) => rawSend(id)))), 'fifteen sends');
    const limited = batch.filter((entry) => entry.error?.code === -32013);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited[0]!.error!.message).toMatch(/too many sends from this client: at most 10 a second .* try again in \d+ ms/);
    expect(limited[0]).toMatchObject({ error: { data: { retry_after_ms: expect.any(Number) } } });
    // The others were sent on (and refused by submission for what they hold).
    expect(batch.filter((entry) => entry.error?.code === -32602).length).toBeGreaterThan(0);
    // Another client's allowance is its own.
    const [other] = entriesOf(await sendFrom('127.0.0.5', JSON.stringify(rawSend(1))), 'another client');
    expect(other!.error?.code).toBe(-32602);
    const answers = await Promise.all(Array.from({ length: 15 }, () => send(apiPort, 'POST', '/v1/transactions', JSON.stringify({ tx_blob: '00' }))));
    const tooMany = answers.filter((answer) => answer.status === 429);
    expect(tooMany.length).toBeGreaterThanOrEqual(5);
    expect(JSON.parse(tooMany[0]!.text)).toMatchObject({ error: { code: 'rate_limited' } });
    expect(Number(tooMany[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Behind the trusted proxy, each forwarded client has its own allowance; elsewhere the header names nobody.
    const forwarded = (address: string) => ({ 'x-forwarded-for': `203.0.113.99, ${address}` });
    const fromClient = entriesOf(await sendFrom(TRUSTED_PROXY, JSON.stringify(Array.from({ length: 15 }, (_, id) => rawSend(id))), forwarded('198.51.100.1')), 'a forwarded client');
    expect(fromClient.filter((entry) => entry.error?.code === -32013).length).toBeGreaterThanOrEqual(5);
    const [nextClient] = entriesOf(await sendFrom(TRUSTED_PROXY, JSON.stringify(rawSend(1)), forwarded('198.51.100.2')), 'another forwarded client');
    expect(nextClient!.error?.code).toBe(-32602);
    const untrusted = '127.0.0.6';
    entriesOf(await sendFrom(untrusted, JSON.stringify(Array.from({ length: 15 }, (_, id) => rawSend(id))), forwarded('198.51.100.3')), 'a peer that is no proxy', () => true);
    const [spoofed] = entriesOf(await sendFrom(untrusted, JSON.stringify(rawSend(1)), forwarded('198.51.100.4')), 'the same peer naming another client');
    expect(spoofed!.error?.code).toBe(-32013);
  });

  it('holds at most -max_connections connections per listener, and answers no /metrics there by default', async () => {
    const sockets = await Promise.all(
      Array.from({ length: 2 * MAX_CONNECTIONS }, () => new Promise<Socket>((resolve) => {
        const socket = connect(rpcPort, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      })),
    );
    try {
      const closed = await waitUntil(() => {
        const count = sockets.filter((socket) => socket.closed || socket.readyState === 'closed').length;
        return count >= MAX_CONNECTIONS ? count : undefined;
      }, 10_000, 'the connections past the limit closed', 50);
      expect(sockets.length - closed).toBeLessThanOrEqual(MAX_CONNECTIONS);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // The server sees the destroyed sockets close a moment later: until then a new connection is one too many and reset.
    for (const port of [rpcPort, apiPort]) {
      const answer = await waitUntil(() => send(port, 'GET', '/metrics').catch(() => undefined), 10_000, `a connection to port ${port} accepted again`, 50);
      expect(answer.status).toBe(404);
    }
  });

  it('leaves every process of the node running, none restarted', async () => {
    expect(childPids(node)).toEqual(pidsAtStart);
    for (const [service, pid] of pidsAtStart) expect(alive(pid), `${service} (pid ${pid})`).toBe(true);
    expect(node.child.exitCode).toBeNull();
    expect(node.output()).not.toMatch(/exited|restarted|uncaught|unhandled|FATAL|heap out of memory/i);
    const [answer] = entriesOf(await rpc(JSON.stringify(call('jt_blockNumber', [], 'last'))), 'last');
    expect(answer).toMatchObject({ id: 'last', status: 'success', result: expect.any(Number) });
  });
});
