import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFound } from '@ledger-node/errors';
import { createLogger, metricsText } from '@ledger-node/telemetry';
import type { MethodContext } from '../jsonrpc/method';
import { defineRoute, mountRoutes, noQuery, restErrors, restMetrics } from './define';

/** A route with a path parameter: found for `1`, not found for anything else. */
const thing = defineRoute({
  method: 'get',
  path: '/things/{thing}',
  operationId: 'getThing',
  tag: { name: 'things', description: 'things' },
  summary: 'a thing',
  params: z.object({ thing: z.string() }),
  query: noQuery,
  response: z.object({ thing: z.string() }),
  errors: { not_found: 404 },
  example: { params: { thing: '1' }, response: { thing: '1' } },
  async handler({ params }) {
    if (params.thing !== '1') throw new NotFound(`no thing ${params.thing}`);
    return { thing: params.thing };
  },
});
let server: Server;
let url: string;

beforeAll(async () => {
  const app = new Koa();
  const router = mountRoutes([thing], {} as MethodContext, 1024);
  app.use(restMetrics()).use(restErrors(createLogger('test', 'silent'))).use(router.routes()).use(router.allowedMethods());
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The value of one sample of the exposition, by its whole series text. */
async function sample(series: string): Promise<number | undefined> {
  const line = (await metricsText()).body.split('\n').find((text) => text.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('REST request metrics', () => {
  it('count and time each request by route template, HTTP method and final status, never by the path asked for', async () => {
    for (const path of ['/v1/things/1', '/v1/things/1', '/v1/things/2']) await fetch(`${url}${path}`);
    expect(await sample('ledger_node_rest_requests_total{route="/v1/things/{thing}",method="GET",status="200"}')).toBe(2);
    expect(await sample('ledger_node_rest_requests_total{route="/v1/things/{thing}",method="GET",status="404"}')).toBe(1);
    expect(await sample('ledger_node_rest_request_duration_seconds_count{route="/v1/things/{thing}",method="GET",status="200"}')).toBe(2);
    expect(await sample('ledger_node_rest_request_duration_seconds_bucket{le="+Inf",route="/v1/things/{thing}",method="GET",status="404"}')).toBe(1);
    expect((await metricsText()).body).not.toContain('/v1/things/2');
  });

  it('put what no route answered under route="other"', async () => {
    await fetch(`${url}/v1/nothing/here`);
    await fetch(`${url}/v1/or/there`);
    expect(await sample('ledger_node_rest_requests_total{route="other",method="GET",status="404"}')).toBe(2);
  });
});
