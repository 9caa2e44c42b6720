import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict, NotFound, OutOfRange, Unavailable } from '@ledger-node/errors';
import { createLogger } from '@ledger-node/telemetry';
import type { MethodContext } from '../jsonrpc/method';
import { RenderedJson } from '../queries/rendered-json';
import { defineRoute, mountRoutes, noParams, restErrors } from './define';

/** A route that throws the error its query names, answered through its resource's error map. */
const failing = defineRoute({
  method: 'get',
  path: '/fail',
  operationId: 'fail',
  tag: { name: 'failures', description: 'routes that fail' },
  summary: 'fails',
  params: noParams,
  query: z.object({ kind: z.enum(['not_found', 'out_of_range', 'unavailable', 'conflict', 'plain']) }),
  response: z.object({}),
  errors: { not_found: 404, out_of_range: 416 },
  example: { query: { kind: 'not_found' }, response: {} },
  async handler({ query }) {
    if (query.kind === 'not_found') throw new NotFound('no such thing');
    if (query.kind === 'out_of_range') throw new OutOfRange('outside');
    if (query.kind === 'unavailable') throw new Unavailable('store down');
    if (query.kind === 'conflict') throw new Conflict('not in this resource');
    throw new Error('a bug');
  },
});
/** A route that answers its query's word, as a value or as JSON already rendered. */
const echoing = defineRoute({
  method: 'get',
  path: '/echo',
  operationId: 'echo',
  tag: { name: 'echoes', description: 'routes that answer' },
  summary: 'answers',
  params: noParams,
  query: z.object({ word: z.string(), rendered: z.enum(['yes', 'no']) }),
  response: z.object({ word: z.string() }),
  errors: {},
  example: { query: { word: 'hello', rendered: 'no' }, response: { word: 'hello' } },
  async handler({ query }) {
    return query.rendered === 'yes' ? RenderedJson.of({ word: query.word }) : { word: query.word };
  },
});
let server: Server;
let url: string;

beforeAll(async () => {
  const app = new Koa();
  const router = mountRoutes([failing, echoing], {} as MethodContext, 1024);
  app.use(restErrors(createLogger('test', 'silent'))).use(router.routes());
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function answer(path: string) {
  const response = await fetch(`${url}${path}`);
  return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
}

describe('REST answers', () => {
  it.each(['no', 'yes'])('are JSON with the UTF-8 charset, whether rendered already (%s) or not', async (rendered) => {
    const response = await fetch(`${url}/echo?word=h%C3%A9&rendered=${rendered}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ word: 'hé' });
  });
});

describe("REST errors by the route's resource map", () => {
  it.each([
    ['not_found', 404],
    ['out_of_range', 416],
    ['unavailable', 503],
  ])('%s answers %i with the kind and the message', async (kind, status) => {
    const { status: got, body } = await answer(`/fail?kind=${kind}`);
    expect(got).toBe(status);
    expect(body.error.code).toBe(kind);
  });

  it('answers bad input 400 naming the field', async () => {
    expect(await answer('/fail?kind=nothing')).toMatchObject({ status: 400, body: { error: { code: 'invalid_params', message: expect.stringContaining('kind') } } });
  });

  it('answers a kind the resource does not map, and a plain failure, as an internal error without detail', async () => {
    for (const kind of ['conflict', 'plain']) expect(await answer(`/fail?kind=${kind}`)).toEqual({ status: 500, body: { error: { code: 'internal', message: 'internal error' } } });
  });

  it('answers a path no route serves 404', async () => {
    expect((await answer('/nothing')).status).toBe(404);
  });
});
