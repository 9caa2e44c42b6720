import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import type Koa from 'koa';
import { z } from 'zod';
import { InvalidParams } from '@ledger-node/errors';
import type { MethodContext } from '../jsonrpc/method';

/**
 * A REST route defined once: its path, input schemas, response schema and handler. The same
 * definition mounts the route, validates its input and renders the OpenAPI document.
 */
export interface RestRoute<P = unknown, Q = unknown, B = unknown, R = unknown> {
  readonly method: 'get' | 'post';
  /** OpenAPI form under /v1, e.g. `/ledgers/{ledger}`. */
  readonly path: string;
  readonly summary: string;
  readonly params: z.ZodType<P>;
  readonly query: z.ZodType<Q>;
  readonly body?: z.ZodType<B>;
  readonly response: z.ZodType<R>;
  /** HTTP error statuses the route can answer besides 400. */
  readonly errors: readonly number[];
  readonly handler: (input: { params: P; query: Q; body: B }, context: MethodContext) => Promise<R>;
}

/** Types a route's handler by its schemas, then erases the types for the list of all routes. */
export function defineRoute<P, Q, B, R>(route: RestRoute<P, Q, B, R>): RestRoute {
  return route as unknown as RestRoute;
}

export const noParams = z.object({});
export const noQuery = z.object({}).loose();

/** A body over the size limit: answered 413. */
export class PayloadTooLarge extends InvalidParams {
  readonly status = 413;
  constructor(message: string) {
    super(message, 'body');
  }
}

export const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).describe('Error');

function parseInput<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.length > 0 ? issue.path.join('.') : where;
  throw new InvalidParams(`invalid ${name}: ${issue.message}`, name);
}

/** Mounts routes under /v1 on a router; each validates its input, then answers with its handler's value. */
export function mountRoutes(routes: readonly RestRoute[], context: MethodContext, maxBodyBytes: number): Router {
  const router = new Router({ prefix: '/v1' });
  const jsonBody = bodyParser({
    enableTypes: ['json'],
    jsonLimit: String(maxBodyBytes),
    onerror: (error: Error & { status?: number }) => {
      if (error.status === 413) throw new PayloadTooLarge(`request body exceeds ${maxBodyBytes} bytes`);
      throw new InvalidParams('the body is not valid JSON', 'body');
    },
  });
  for (const route of routes) {
    const koaPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const middleware = route.body ? [jsonBody] : [];
    router[route.method](koaPath, ...middleware, async (ctx: Koa.Context) => {
      const params = parseInput(route.params, ctx.params, 'path');
      const query = parseInput(route.query, ctx.query, 'query');
      const body = route.body ? parseInput(route.body, (ctx.request as { body?: unknown }).body, 'body') : undefined;
      ctx.body = await route.handler({ params, query, body }, context);
    });
  }
  return router;
}
