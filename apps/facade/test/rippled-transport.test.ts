/**
 * rippled's transport on a whole `ledger-node -dev -ws` node: the WebSocket envelope and the HTTP
 * JSON-RPC envelope exactly as rippled writes them, its error envelopes, and the protections of
 * the facade's other listeners (Host/Origin guard, -max_body_bytes, -max_connections, the queue of
 * a client that stops reading).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, startProcess, stopAll, tempDir, waitUntil, type RunningProcess, WsClient } from '@ledger-node/test-utils';
import { postJson, rippledRequester, type Json } from './support/stream-client';

const MAX_BODY_BYTES = 16_384;
const MAX_CONNECTIONS = 12;
const QUEUE_BYTES = 65_536;

let node: RunningProcess;
let removeDir: () => void;
let wsPort: number;
let wsUrl: string;
let httpUrl: string;
const clients: WsClient[] = [];

async function connect(headers: Record<string, string> = {}): Promise<WsClient> {
  const client = await WsClient.open(wsUrl, headers);
  clients.push(client);
  return client;
}

/** A raw HTTP request to the listener, with any Host and headers (fetch keeps Host to itself). */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: wsPort, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.once('error', reject);
    request.end(body);
  });
}

beforeAll(async () => {
  const { dir, remove } = tempDir('rippled-transport-');
  removeDir = remove;
  wsPort = await freePort();
  wsUrl = `ws://127.0.0.1:${wsPort}`;
  httpUrl = `http://127.0.0.1:${wsPort}/`;
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '300', '-load', '5', '-load_accounts', '3',
    '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort),
    '-max_body_bytes', String(MAX_BODY_BYTES), '-max_connections', String(MAX_CONNECTIONS), '-ws_queue_bytes', String(QUEUE_BYTES),
    '-listener_metrics', '-data_dir', dir, '-thread_count', '2',
  ]);
  await node.waitFor(/facade\s+ready/, 90_000);
}, 120_000);

// Each test's connections end with it: the listener holds -max_connections at most.
afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  await new Promise((resolve) => setTimeout(resolve, 100));
});

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

describe('the listener', () => {
  it("is named on the facade's ready line", () => {
    expect(node.output()).toMatch(new RegExp(`facade\\s+ready\\s+pid \\d+\\s+ws://127\\.0\\.0\\.1:${wsPort}`));
  });

  it('holds at most -max_connections connections at once', async () => {
    // First in this file: no HTTP client holds a kept-alive connection to the listener yet.
    const held: WsClient[] = [];
    try {
      for (let opened = 0; opened < MAX_CONNECTIONS; opened++) held.push(await WsClient.open(wsUrl));
      await expect(WsClient.open(wsUrl)).rejects.toThrow();
      held.pop()!.terminate();
      const again = await waitUntil(() => WsClient.open(wsUrl), 10_000, 'a connection once one was closed');
      held.push(again);
    } finally {
      for (const client of held) client.terminate();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
});

describe("rippled's WebSocket envelope", () => {
  it('answers ping with the id echoed, status success and type response, on any path', async () => {
    const client = await connect();
    client.send({ id: 1, command: 'ping' });
    expect(await client.waitFor((message) => message.id === 1)).toEqual({ id: 1, result: {}, status: 'success', type: 'response' });
    client.send({ id: 'two', command: 'ping', api_version: 2 });
    expect(await client.waitFor((message) => message.id === 'two')).toEqual({ id: 'two', api_version: 2, result: {}, status: 'success', type: 'response' });
    const elsewhere = await WsClient.open(`${wsUrl}/any/path`);
    clients.push(elsewhere);
    expect(await rippledRequester(elsewhere)('ping')).toMatchObject({ result: {}, status: 'success' });
  });

  it("answers rippled's errors in rippled's envelope and keeps the connection", async () => {
    const client = await connect();
    const ask = rippledRequester(client);
    expect(await ask('no_such_command')).toEqual({
      id: 1,
      error: 'unknownCmd',
      error_code: 32,
      error_message: 'Unknown method.',
      request: { id: 1, command: 'no_such_command' },
      status: 'error',
      type: 'response',
    });
    expect(await ask('ping', { api_version: 3 })).toEqual({
      id: 2,
      api_version: 3,
      error: 'invalid_API_version',
      request: { id: 2, command: 'ping', api_version: 3 },
      status: 'error',
      type: 'response',
    });
    client.send({ id: 9 });
    expect(await client.waitFor((message) => message.id === 9)).toEqual({ id: 9, error: 'missingCommand', request: { id: 9 }, status: 'error', type: 'response' });
    client.send('{"id": 10, "command": "ping"');
    expect(await client.waitFor((message) => message.error === 'jsonInvalid')).toEqual({ error: 'jsonInvalid', type: 'error', value: '{"id": 10, "command": "ping"' });
    client.send('[1,2,3]');
    await client.waitFor((message) => message.value === '[1,2,3]');
    expect((await ask('subscribe', { streams: ['no_such_stream'] })).error).toBe('malformedStream');
    expect(await ask('ping')).toMatchObject({ status: 'success' });
  });

  it('closes a connection whose message exceeds -max_body_bytes with 1009, and no other', async () => {
    const client = await connect();
    const bystander = await connect();
    client.send({ id: 1, command: 'ping', padding: 'x'.repeat(MAX_BODY_BYTES) });
    expect((await client.whenClosed()).code).toBe(1009);
    expect(await rippledRequester(bystander)('ping')).toMatchObject({ status: 'success' });
  });
});

describe("rippled's HTTP JSON-RPC envelope", () => {
  it('answers {"result": {…, "status": "success"}}', async () => {
    expect(await postJson(httpUrl, JSON.stringify({ method: 'ping', params: [{}] }))).toEqual({ status: 200, body: { result: { status: 'success' } } });
    // rippled reads the body whatever the path and Content-Type say.
    expect(await postJson(`${httpUrl}rpc`, JSON.stringify({ method: 'ping' }), { 'content-type': 'text/plain' })).toEqual({ status: 200, body: { result: { status: 'success' } } });
  });

  it('answers an error inside result with status "error" and the request echoed (secrets masked)', async () => {
    expect(await postJson(httpUrl, JSON.stringify({ method: 'no_such_method', params: [{ secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb', x: 1 }] }))).toEqual({
      status: 200,
      body: {
        result: {
          error: 'unknownCmd',
          error_code: 32,
          error_message: 'Unknown method.',
          request: { command: 'no_such_method', secret: '<masked>', x: 1 },
          status: 'error',
        },
      },
    });
    const subscribe = await postJson(httpUrl, JSON.stringify({ method: 'subscribe', params: [{ streams: ['ledger'] }] }));
    expect(subscribe.body.result).toMatchObject({ error: 'notSupported', status: 'error' });
    expect(subscribe.body.result.error_message).toMatch(/WebSocket/);
  });

  it("refuses a malformed call with HTTP 400 and rippled's text, a body over -max_body_bytes with 413 and a GET with 405 in rippled's JSON error shape", async () => {
    expect(await postJson(httpUrl, '{"method": ')).toEqual({ status: 400, body: 'Unable to parse request: the body is not valid JSON' });
    expect(await postJson(httpUrl, '[]')).toEqual({ status: 400, body: 'Unable to parse request: the body is not a JSON object' });
    expect(await postJson(httpUrl, JSON.stringify({ params: [{}] }))).toEqual({ status: 400, body: 'Null method' });
    expect(await postJson(httpUrl, JSON.stringify({ method: 'ping', params: {} }))).toEqual({ status: 400, body: 'params unparsable' });
    expect(await postJson(httpUrl, JSON.stringify({ method: 'ping', params: [{ api_version: 7 }] }))).toEqual({ status: 400, body: 'invalid_API_version' });
    const large = await postJson(httpUrl, JSON.stringify({ method: 'ping', params: [{ padding: 'x'.repeat(MAX_BODY_BYTES) }] }));
    expect(large).toEqual({
      status: 413,
      body: { result: { error: 'invalidParams', error_code: 31, error_message: `request body exceeds ${MAX_BODY_BYTES} bytes (-max_body_bytes)`, status: 'error' } },
    });
    const get = await fetch(httpUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await get.json()).toMatchObject({ result: { error: 'notSupported', error_code: 75, status: 'error', error_message: expect.stringMatching(/POST a JSON-RPC call/) } });
  });
});

describe('a request nested deeper than any command reads', () => {
  // As deep as -max_body_bytes allows: each level costs two bytes.
  const depth = Math.floor((MAX_BODY_BYTES - 200) / 2);
  const nested = '['.repeat(depth) + ']'.repeat(depth);

  it("is answered over WebSocket with rippled's jsonInvalid, its text cut, and the connection kept", async () => {
    const client = await connect();
    for (const body of [`{"id":1,"command":"ping","x":${nested}}`, `{"id":2,"command":"account_info","account":${nested}}`, `{"id":3,"command":${nested}}`]) {
      client.send(body);
      const answer = await client.waitFor((message) => message.error === 'jsonInvalid' && message.value === body.slice(0, 4096));
      expect(answer).toEqual({ error: 'jsonInvalid', type: 'error', value: body.slice(0, 4096) });
    }
    expect(await rippledRequester(client)('ping')).toMatchObject({ status: 'success' });
  });

  it("is answered over HTTP with 400 and rippled's text, never a 5xx", async () => {
    for (const body of [
      `{"method":"ping","params":[{"x":${nested}}]}`,
      `{"method":"account_info","params":[{"account":${nested}}]}`,
      `{"method":"ping","params":${nested}}`,
      `{"method":${nested}}`,
    ]) {
      expect(await postJson(httpUrl, body)).toEqual({ status: 400, body: 'Unable to parse request: maximum nesting depth (25) exceeded' });
    }
    expect(await postJson(httpUrl, nested)).toEqual({ status: 400, body: 'Unable to parse request: the body is not a JSON object' });
  });
});

describe("the facade's protections on this listener", () => {
  it('refuses a Host name not in -rpc_allowed_hosts and a page of another origin, over WebSocket and HTTP', async () => {
    expect(await WsClient.refusal(wsUrl, { host: 'attacker.example' })).toBe(403);
    expect(await WsClient.refusal(wsUrl, { origin: 'http://attacker.example' })).toBe(403);
    const refused = await rawPost('/', JSON.stringify({ method: 'ping' }), { host: `attacker.example:${wsPort}` });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/rpc_allowed_hosts/);
    // localhost and the listener's own origin are answered.
    expect((await rawPost('/', JSON.stringify({ method: 'ping' }), { host: `localhost:${wsPort}`, origin: `http://localhost:${wsPort}` })).status).toBe(200);
    const sameOrigin = await connect({ origin: `http://127.0.0.1:${wsPort}` });
    expect(await rippledRequester(sameOrigin)('ping')).toMatchObject({ status: 'success' });
  });

  it('closes a client that stops reading once it leaves more than -ws_queue_bytes unread, with 1008 and the reason, and counts it', async () => {
    const slow = await connect();
    const bystander = await connect();
    const closesBefore = (node.output().match(/closing a WebSocket client/g) ?? []).length;
    expect(await rippledRequester(slow)('subscribe', { streams: ['ledger'] })).toMatchObject({ status: 'success' });
    slow.pause();
    // Requests it never reads the answers to: each answer echoes 4 KB; the network buffers take some megabytes first.
    const request = `${'y'.repeat(4_000)}`;
    for (let sent = 0; sent < 5_000; sent++) {
      slow.send(request);
      if (sent % 100 === 99) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        if ((node.output().match(/closing a WebSocket client/g) ?? []).length > closesBefore) break;
      }
    }
    await waitUntil(() => (node.output().match(/closing a WebSocket client/g) ?? []).length > closesBefore, 20_000, 'the facade closing the slow client');
    slow.resume();
    expect(await slow.whenClosed()).toEqual({ code: 1008, reason: `client too slow: more than ${QUEUE_BYTES} bytes of messages unread (-ws_queue_bytes)` });
    expect(await rippledRequester(bystander)('ping')).toMatchObject({ status: 'success' });
    const metrics = await (await fetch(`http://127.0.0.1:${wsPort}/metrics`)).text();
    expect(metrics).toMatch(/ledger_node_stream_slow_disconnects_total\{api="rippled"[^}]*\} [1-9]/);
  }, 60_000);
});

describe('rippled commands over WebSocket and HTTP give the same result', () => {
  it('ping', async () => {
    const client = await connect();
    const overWs = (await rippledRequester(client)('ping')) as Json;
    const overHttp = await postJson(httpUrl, JSON.stringify({ method: 'ping', params: [{}] }));
    expect({ ...overWs.result, status: overWs.status }).toEqual(overHttp.body.result);
  });
});
