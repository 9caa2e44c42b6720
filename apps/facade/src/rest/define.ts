import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type Koa from 'koa';
import { z } from 'zod';
import { InvalidParams, isLedgerNodeError, type ErrorKind } from '@ledger-node/errors';
import { counter, histogram, type Logger } from '@ledger-node/telemetry';
import { answerJson } from '../json-answer';
import type { MethodContext } from '../jsonrpc/method';
import { RenderedJson } from '../queries/rendered-json';

/** How a resource names the errors its routes answer: HTTP status by error kind. */
export type RestErrorMap = Partial<Record<ErrorKind, number>>;

/** The resource a route belongs to, declared once in its resource file: the OpenAPI tag of its routes. */
export interface RestTag {
  readonly name: string;
  readonly description: string;
}

/**
 * One request and its answer as they travel (path and query values as text, the body and the answer
 * as JSON): shown in the OpenAPI document and checked against the route's own schemas by its tests.
 */
export interface RestExample {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly response: unknown;
}

/**
 * A REST route defined once: its path, input schemas, response schema, error map and handler. The
 * same definition mounts the route, validates its input, answers its errors and renders the
 * OpenAPI document.
 */
export interface RestRoute<P = unknown, Q = unknown, B = unknown, R = unknown> {
  readonly method: 'get' | 'post';
  /** OpenAPI form under /v1, e.g. `/ledgers/{ledger}`. */
  readonly path: string;
  /** The operation's name in the OpenAPI document (and in generated clients), e.g. `getLedger`. */
  readonly operationId: string;
  readonly tag: RestTag;
  readonly summary: string;
  readonly params: z.ZodType<P>;
  readonly query: z.ZodType<Q>;
  readonly body?: z.ZodType<B>;
  readonly response: z.ZodType<R>;
  /** The errors this route answers beyond every route's (commonErrors), by kind. */
  readonly errors: RestErrorMap;
  readonly example: RestExample;
  /** The answer, or the same already rendered as JSON (an answer that never changes, from the cache). */
  readonly handler: (input: { params: P; query: Q; body: B }, context: MethodContext) => Promise<R | RenderedJson<R>>;
}

/** Types a route's handler by its schemas, then erases the types for the list of all routes. */
export function defineRoute<P, Q, B, R>(route: RestRoute<P, Q, B, R>): RestRoute {
  return route as unknown as RestRoute;
}

/** What any route may answer: bad input, a service that cannot be reached, too many requests. */
export const commonErrors: RestErrorMap = { invalid_params: 400, unavailable: 503, rate_limited: 429 };

export const noParams = z.object({});
export const noQuery = z.object({}).loose();

/** A body over the size limit: answered 413. */
export class PayloadTooLarge extends InvalidParams {
  readonly status = 413;
  constructor(message: string) {
    super(message, 'body');
  }
}

export const errorBody = z
  .object({
    error: z.object({
      code: z.string().describe('the kind of error: invalid_params, not_found, out_of_range, account_not_found, rejected, rate_limited, unavailable, internal…'),
      message: z.string().describe('what went wrong, for a person'),
    }),
  })
  .describe('The answer of a request that failed, with the HTTP status of its kind.');

function parseInput<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.length > 0 ? issue.path.join('.') : where;
  throw new InvalidParams(`invalid ${name}: ${issue.message}`, name);
}

/**
 * REST errors: `{ "error": { "code", "message" } }` with the HTTP status the route's resource maps
 * the error's kind to (else every route's, else 500); a path no route serves is 404.
 */
export function restErrors(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: { code: 'not_found', message: `no route ${ctx.method} ${ctx.path}` } };
      }
    } catch (error) {
      const routeErrors = (ctx.state as { routeErrors?: RestErrorMap }).routeErrors ?? {};
      const status = isLedgerNodeError(error) ? (error instanceof PayloadTooLarge ? 413 : (routeErrors[error.kind] ?? commonErrors[error.kind])) : undefined;
      if (isLedgerNodeError(error) && status !== undefined) {
        ctx.status = status;
        ctx.body = { error: { code: error.kind, message: error.message } };
        const retryAfterMs = error.details.data?.retry_after_ms;
        if (typeof retryAfterMs === 'number') ctx.set('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
        return;
      }
      logger.error({ err: error, path: ctx.path }, 'internal error in REST route');
      ctx.status = 500;
      ctx.body = { error: { code: 'internal', message: 'internal error' } };
    }
  };
}

const requestMetrics = {
  count: counter('ledger_node_rest_requests_total', 'REST requests by route template, HTTP method and status', ['route', 'method', 'status']),
  latency: histogram('ledger_node_rest_request_duration_seconds', 'REST request latency by route template, HTTP method and status', ['route', 'method', 'status']),
};

/**
 * Counts and times every request by the template of the route that answered it
 * (`/v1/ledgers/{ledger}`, never the path asked for, so that the series stay few), its HTTP
 * method and final status; what no route answered (the status page, an unknown path) is
 * `route="other"`. Mounted outside restErrors, which sets the status of a failed request.
 */
export function restMetrics(): Koa.Middleware {
  return async (ctx, next) => {
    const stopTimer = requestMetrics.latency.startTimer();
    try {
      await next();
    } finally {
      // @koa/router's `routerPath` is the matched route's Koa path: `/v1/ledgers/:ledger`.
      const routerPath = (ctx as { routerPath?: unknown }).routerPath;
      const route = typeof routerPath === 'string' ? routerPath.replace(/:(\w+)/g, '{$1}') : 'other';
      const labels = { route, method: ctx.method, status: String(ctx.status) };
      requestMetrics.count.inc(labels);
      stopTimer(labels);
    }
  };
}

/** Mounts routes under /v1 on a router; each validates its input, then answers with its handler's value. */
export function mountRoutes(routes: readonly RestRoute[], context: MethodContext, maxBodyBytes: number): Router {
  const router = new Router({ prefix: '/v1' });
  const jsonBody = bodyParser({
    enableTypes: ['json'],
    jsonLimit: String(maxBodyBytes),
    onError: (error: Error & { status?: number }) => {
      if (error.status === 413) throw new PayloadTooLarge(`request body exceeds ${maxBodyBytes} bytes`);
      throw new InvalidParams('the body is not valid JSON', 'body');
    },
  });
  for (const route of routes) {
    const koaPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const middleware = route.body ? [jsonBody] : [];
    router[route.method](koaPath, ...middleware, async (ctx: Koa.Context) => {
      (ctx.state as { routeErrors?: RestErrorMap }).routeErrors = route.errors;
      const params = parseInput(route.params, ctx.params, 'path');
      const query = parseInput(route.query, ctx.query, 'query');
      const body = route.body ? parseInput(route.body, (ctx.request as { body?: unknown }).body, 'body') : undefined;
      const answer = await route.handler({ params, query, body }, context);
      answerJson(ctx, answer instanceof RenderedJson ? answer.json : answer);
    });
  }
  return router;
}
