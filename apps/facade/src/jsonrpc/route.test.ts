import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { Dispatcher } from './dispatcher';
import { defineMethod, type MethodContext, type RpcMethod } from './method';
import { RenderedJson } from '../queries/rendered-json';
import { jsonRpcRoute } from './route';

const ping = defineMethod({
  name: 'test_ping',
  summary: 'ping',
  params: [],
  result: z.literal('pong'),
  errors: [],
  examples: [{ name: 'ping', params: [], result: 'pong' }],
  handler: async () => 'pong' as const,
});
/** A result already rendered, as cached answers are: written into the response byte for byte. */
const rendered = defineMethod({
  name: 'test_rendered',
  summary: 'rendered',
  params: [],
  result: z.object({ b: z.number(), a: z.string() }),
  errors: [],
  examples: [{ name: 'rendered', params: [], result: { b: 1, a: 'x' } }],
  handler: async () => new RenderedJson<{ b: number; a: string }>('{"b":1,"a":"x"}'),
});
let server: Server;
let url: string;

beforeAll(async () => {
  const dispatcher = new Dispatcher({
    methods: new Map([ping, rendered].map((method) => [method.name, method as unknown as RpcMethod])),
    context: {} as MethodContext,
    logger: createLogger('test', 'silent'),
    maxBatchLength: 10,
    maxResponseBytes: 1_000_000,
  });
  const app = new Koa();
  app.use(jsonRpcRoute(dispatcher, 1024));
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/jsonrpc`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: string, contentType = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('POST /v1/jsonrpc', () => {
  it('answers a call with HTTP 200', async () => {
    const response = await post('{"jsonrpc":"2.0","method":"test_ping","params":[],"id":3}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 3, jsonrpc: '2.0', result: 'pong', status: 'success' });
  });

  it('writes a rendered result as it is, in the envelope, alone and in a batch', async () => {
    const single = await post('{"jsonrpc":"2.0","method":"test_rendered","params":[],"id":"a"}');
    expect(single.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await single.text()).toBe('{"id":"a","jsonrpc":"2.0","result":{"b":1,"a":"x"},"status":"success"}');
    const batch = await post('[{"jsonrpc":"2.0","method":"test_rendered","params":[],"id":1},{"jsonrpc":"2.0","method":"test_ping","params":[],"id":2}]');
    expect(await batch.text()).toBe('[{"id":1,"jsonrpc":"2.0","result":{"b":1,"a":"x"},"status":"success"},{"id":2,"jsonrpc":"2.0","result":"pong","status":"success"}]');
  });

  it('answers a body that is not JSON with -32700 and id null', async () => {
    const response = await post('{"jsonrpc":"2.0",');
    expect(await response.json()).toEqual({ id: null, jsonrpc: '2.0', error: { code: -32700, message: 'parse error: the body is not valid JSON' }, status: 'error' });
  });

  it('refuses a non-JSON content type with 415', async () => {
    const response = await post('jsonrpc=2.0', 'application/x-www-form-urlencoded');
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { message: 'Content-Type must be application/json' }, status: 'error' });
  });

  it('takes a JSON body by every spelling of its type, and refuses a JSON type without a body', async () => {
    const call = '{"jsonrpc":"2.0","method":"test_ping","params":[],"id":1}';
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'Application/JSON', 'application/json;charset=utf-8']) {
      const response = await post(call, type);
      expect([type, response.status, await response.json()]).toEqual([type, 200, { id: 1, jsonrpc: '2.0', result: 'pong', status: 'success' }]);
    }
    // No Content-Length and no chunked body (written by hand: Node's client would add a length).
    const { connect } = await import('node:net');
    const { port } = new URL(url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end('POST /v1/jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.once('end', () => resolve(text));
      socket.once('error', reject);
    });
    const status = Number(answer.split(' ')[1]);
    expect(status).toBe(415);
  });

  it('refuses a body over the size limit with 413', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', method: 'test_ping', params: ['x'.repeat(2000)], id: 1 }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { message: 'request body exceeds 1024 bytes' } });
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const response = await fetch(url);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers a notification with 204 and no body', async () => {
    const response = await post('{"jsonrpc":"2.0","method":"test_ping","params":[]}');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });
});
