/**
 * The facade's three HTTP listeners as a client meets them, with no service behind them (a facade
 * alone): every error answer is JSON in the listener's own shape, whatever middleware gave its
 * status, and a client too slow to send its request is closed within seconds.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, freePort, startProcess, stopAll, tempDir } from '@ledger-node/test-utils';

const MAX_BODY_BYTES = 4_096;
let rpcPort: number;
let apiPort: number;
let wsPort: number;
let removeDir: () => void;

beforeAll(async () => {
  const { dir, remove } = tempDir('http-listeners-');
  removeDir = remove;
  [rpcPort, apiPort, wsPort] = [await freePort(), await freePort(), await freePort()];
  const facade = startProcess([
    cliEntry(), 'serve', 'facade', '-sync=false', '-data_dir', dir, '-max_body_bytes', String(MAX_BODY_BYTES),
    '-read_only', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
    '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort),
    '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort),
  ]);
  await facade.waitFor(/facade serving/, 60_000);
}, 90_000);

afterAll(async () => {
  await stopAll();
  removeDir?.();
});

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  body: any;
}

async function send(port: number, method: string, path: string, body?: string, contentType = 'application/json'): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': contentType } }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Left as text: the assertions say it should have been JSON.
  }
  return { status: response.status, contentType: response.headers.get('content-type'), allow: response.headers.get('allow'), body: parsed };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const tooLarge = JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES) });

describe('the JSON-RPC listener answers every error in JSON', () => {
  it.each([
    ['GET', '/nothing'],
    ['POST', '/nothing'],
    ['GET', '/v1'],
    ['DELETE', '/v1/jsonrpc/extra'],
  ])('%s %s: 404 not_found', async (method, path) => {
    const answer = await send(rpcPort, method, path, method === 'POST' ? '{}' : undefined);
    expect(answer).toMatchObject({ status: 404, contentType: JSON_TYPE });
    expect(answer.body).toEqual({ error: { code: 'not_found', message: `no route ${method} ${path}` } });
  });

  it.each(['GET', 'PUT', 'DELETE', 'PROPFIND'])('%s /v1/jsonrpc: 405 with Allow: POST, a JSON-RPC error', async (method) => {
    const answer = await send(rpcPort, method, '/v1/jsonrpc');
    expect(answer).toMatchObject({ status: 405, contentType: JSON_TYPE, allow: 'POST' });
    expect(answer.body).toEqual({ id: null, jsonrpc: '2.0', status: 'error', error: { code: -32600, message: `method ${method} not allowed: use POST` } });
  });

  it('415 for a body that is not JSON by its type, 413 past -max_body_bytes, -32700 for a body that is not JSON', async () => {
    expect(await send(rpcPort, 'POST', '/v1/jsonrpc', '{}', 'text/plain')).toMatchObject({ status: 415, contentType: JSON_TYPE, body: { error: { code: -32600 } } });
    expect(await send(rpcPort, 'POST', '/v1/jsonrpc', tooLarge)).toMatchObject({ status: 413, contentType: JSON_TYPE, body: { error: { code: -32600 } } });
    expect(await send(rpcPort, 'POST', '/v1/jsonrpc', '{"jsonrpc":')).toMatchObject({ status: 200, contentType: JSON_TYPE, body: { error: { code: -32700 } } });
  });
});

describe('the REST listener answers every error in its { error: { code, message } } shape', () => {
  it('a method no route implements: 501 not_implemented', async () => {
    const answer = await send(apiPort, 'PROPFIND', '/v1/status');
    expect(answer).toMatchObject({ status: 501, contentType: JSON_TYPE });
    expect(answer.body).toEqual({ error: { code: 'not_implemented', message: 'method PROPFIND is not implemented by this API' } });
  });

  it('a method the route does not take: 405 method_not_allowed, with Allow', async () => {
    const answer = await send(apiPort, 'DELETE', '/v1/status');
    expect(answer).toMatchObject({ status: 405, contentType: JSON_TYPE, allow: 'HEAD, GET' });
    expect(answer.body).toEqual({ error: { code: 'method_not_allowed', message: 'method DELETE not allowed on /v1/status: use HEAD, GET' } });
    expect(await send(apiPort, 'POST', '/', '{}')).toMatchObject({ status: 405, contentType: JSON_TYPE, body: { error: { code: 'method_not_allowed' } } });
  });

  it('a path no route serves: 404 not_found; a bad path parameter: 400 invalid_params', async () => {
    expect(await send(apiPort, 'GET', '/nothing/here')).toMatchObject({ status: 404, contentType: JSON_TYPE, body: { error: { code: 'not_found' } } });
    expect(await send(apiPort, 'GET', '/v1/ledgers/not-a-ledger')).toMatchObject({ status: 400, contentType: JSON_TYPE, body: { error: { code: 'invalid_params' } } });
  });

  it('a body that is not JSON: 400 invalid_params; past -max_body_bytes: 413', async () => {
    expect(await send(apiPort, 'POST', '/v1/transactions', '{"from":')).toMatchObject({
      status: 400,
      contentType: JSON_TYPE,
      body: { error: { code: 'invalid_params', message: 'the body is not valid JSON' } },
    });
    expect(await send(apiPort, 'POST', '/v1/transactions', tooLarge)).toMatchObject({
      status: 413,
      contentType: JSON_TYPE,
      body: { error: { code: 'invalid_params', message: `request body exceeds ${MAX_BODY_BYTES} bytes` } },
    });
  });
});

describe('a WebSocket upgrade refused on the JSON-RPC port', () => {
  it('at a path other than /v1/ws: 404 in JSON, naming the path to connect to', async () => {
    const answer = await send(rpcPort, 'GET', '/v1/elsewhere', undefined);
    expect(answer.status).toBe(404);
    // The same path asked as an upgrade: the refusal is JSON too.
    const upgraded = await new Promise<string>((resolve, reject) => {
      const socket = connect(rpcPort, '127.0.0.1', () => {
        socket.write(`GET /v1/elsewhere HTTP/1.1\r\nHost: 127.0.0.1:${rpcPort}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = upgraded.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 404 /);
    expect(head).toMatch(/Content-Type: application\/json/i);
    expect(JSON.parse(body!)).toEqual({ error: { code: 'not_found', message: 'no WebSocket endpoint at /v1/elsewhere: connect to /v1/ws' } });
  });
});

describe("rippled's listener answers the statuses it gives itself in rippled's JSON error shape", () => {
  it.each(['GET', 'PUT', 'DELETE'])('%s: 405 notSupported, with Allow: POST', async (method) => {
    const answer = await send(wsPort, method, '/');
    expect(answer).toMatchObject({ status: 405, contentType: JSON_TYPE, allow: 'POST' });
    expect(answer.body).toEqual({ result: { error: 'notSupported', error_code: 75, error_message: expect.stringMatching(/POST a JSON-RPC call/), status: 'error' } });
  });

  it("past -max_body_bytes: 413 invalidParams; a malformed call keeps rippled's plain-text 400", async () => {
    expect(await send(wsPort, 'POST', '/', tooLarge)).toMatchObject({
      status: 413,
      contentType: JSON_TYPE,
      body: { result: { error: 'invalidParams', error_code: 31, status: 'error', error_message: `request body exceeds ${MAX_BODY_BYTES} bytes (-max_body_bytes)` } },
    });
    expect(await send(wsPort, 'POST', '/', '{"method":')).toMatchObject({ status: 400, body: 'Unable to parse request: the body is not valid JSON' });
  });
});

/** A raw TCP client writing `text` a byte every `everyMs`; resolves with what it received once the server closes it. */
function slowClient(port: number, text: string, everyMs: number): Promise<{ received: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    const socket: Socket = connect(port, '127.0.0.1', async () => {
      for (const byte of text) {
        if (socket.destroyed || socket.closed) return;
        socket.write(byte);
        await sleep(everyMs);
      }
      reject(new Error(`the server read all of a request sent over ${Date.now() - started} ms`));
    });
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ received, closedAfterMs: Date.now() - started }));
  });
}

describe('a client too slow to send its request', () => {
  it('is closed with 408 by every listener once 10 s pass without complete headers', async () => {
    // Headers a byte every 100 ms: 30 s' worth, three times the headers timeout.
    const headers = `GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(280)}\r\n\r\n`;
    const closed = await Promise.all([rpcPort, apiPort, wsPort].map((port) => slowClient(port, headers, 100)));
    for (const { received, closedAfterMs } of closed) {
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(closedAfterMs).toBeGreaterThanOrEqual(9_900);
      expect(closedAfterMs).toBeLessThan(13_000);
    }
  }, 40_000);
});
