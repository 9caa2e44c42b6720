/**
 * The outermost middleware of each HTTP listener: every error answer is JSON in the listener's own
 * shape. An error status no middleware gave a body — Koa's 404 for a path nothing serves, the
 * router's 405 and 501, a status some middleware set alone — gets one, and an error thrown past
 * every handler is a 500 without its details (they go to the log), never Koa's text/plain.
 */
import type Koa from 'koa';
import type { Logger } from '@ledger-node/telemetry';

/** The body of an error answer on a listener, from its HTTP status and message. */
export type ErrorBodyOf = (ctx: Koa.Context, status: number, message: string) => unknown;

/** REST's error code for an HTTP status that no route answered itself (routes answer theirs by error kind). */
const REST_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_params',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  501: 'not_implemented',
  503: 'unavailable',
};

/** `{ "error": { "code", "message" } }`: the REST API's error shape (rest/define.ts errorBody). */
export const restErrorBody: ErrorBodyOf = (_ctx, status, message) => ({ error: { code: REST_CODES[status] ?? `http_${status}`, message } });

/** What a request the listener did not answer asked for, cut short: a path is the client's text. */
const asked = (ctx: Koa.Context) => `${ctx.method.slice(0, 20)} ${ctx.path.slice(0, 200)}`;

/** The message of an error status given without a body. */
function messageOf(ctx: Koa.Context, status: number): string {
  switch (status) {
    case 404:
      return `no route ${asked(ctx)}`;
    case 405: {
      const allowed = ctx.response.get('Allow');
      return `method ${ctx.method.slice(0, 20)} not allowed on ${ctx.path.slice(0, 200)}${allowed ? `: use ${allowed}` : ''}`;
    }
    case 501:
      return `method ${ctx.method.slice(0, 20)} is not implemented by this API`;
    default:
      return ctx.message || `HTTP ${status}`;
  }
}

/** An error thrown on purpose with an HTTP status meant for the client (http-errors' `expose`). */
function clientError(error: unknown): { status: number; message: string } | undefined {
  const { status, expose, message } = (error ?? {}) as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true || typeof message !== 'string') return undefined;
  return { status, message: message.slice(0, 500) };
}

export function jsonErrorBodies(bodyOf: ErrorBodyOf, logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const refused = clientError(error);
      if (!refused) logger.error({ err: error, path: ctx.path, method: ctx.method }, 'internal error answering an HTTP request');
      const status = refused?.status ?? 500;
      ctx.status = status;
      ctx.body = bodyOf(ctx, status, refused?.message ?? 'internal error');
      return;
    }
    if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null)) {
      const status = ctx.status;
      // Status first, then the body: a body set alone would turn Koa's implicit 404 into a 200.
      ctx.status = status;
      ctx.body = bodyOf(ctx, status, messageOf(ctx, status));
    }
  };
}
