import type Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { restErrorBody, type ErrorBodyOf } from '../error-bodies';
import { answerJson, JSON_CONTENT_TYPE } from '../json-answer';
import type { CallerContext, Dispatcher } from './dispatcher';
import { errorResponse, RpcCode } from './protocol';

export const JSON_RPC_PATH = '/v1/jsonrpc';

/**
 * The JSON-RPC listener's error bodies: a JSON-RPC error on the JSON-RPC path, REST's `{ error }`
 * on its other paths (the probes, a path it does not serve), as its Host guard answers.
 */
export const jsonRpcErrorBody: ErrorBodyOf = (ctx, status, message) =>
  ctx.path === JSON_RPC_PATH ? errorResponse(null, { code: status >= 500 ? RpcCode.internal : RpcCode.invalidRequest, message }) : restErrorBody(ctx, status, message);

/**
 * Whether the request has a JSON body, as Koa's `ctx.is('application/json')` says, without parsing
 * the header for the types clients send (`application/json`, with or without the UTF-8 charset).
 * A request with neither a length nor a chunked body has no body (type-is's hasBody).
 */
function hasJsonBody(ctx: Koa.Context): boolean {
  const headers = ctx.req.headers;
  const type = headers['content-type'];
  if (type === 'application/json' || type === JSON_CONTENT_TYPE) return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
  return Boolean(ctx.is('application/json'));
}

/**
 * `POST /v1/jsonrpc`: JSON bodies only (415 otherwise), bounded in size (413), answered per
 * JSON-RPC 2.0 with HTTP 200 for every call result, error or not; 204 when only notifications came.
 */
export function jsonRpcRoute(dispatcher: Dispatcher, maxBodyBytes: number, callerOf: (ctx: Koa.Context) => CallerContext = () => ({})): Koa.Middleware {
  const parseBody = bodyParser({
    enableTypes: ['json'],
    jsonLimit: String(maxBodyBytes),
    jsonStrict: false,
    onError: (error: Error & { status?: number }, ctx) => {
      if (error.status === 413) {
        ctx.status = 413;
        ctx.body = errorResponse(null, { code: RpcCode.invalidRequest, message: `request body exceeds ${maxBodyBytes} bytes` });
      } else {
        ctx.status = 200;
        ctx.body = errorResponse(null, { code: RpcCode.parseError, message: 'parse error: the body is not valid JSON' });
      }
      ctx.state.bodyRejected = true;
    },
  });

  return async (ctx, next) => {
    if (ctx.path !== JSON_RPC_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = errorResponse(null, { code: RpcCode.invalidRequest, message: `method ${ctx.method} not allowed: use POST` });
      return;
    }
    if (!hasJsonBody(ctx)) {
      ctx.status = 415;
      ctx.body = errorResponse(null, { code: RpcCode.invalidRequest, message: 'Content-Type must be application/json' });
      return;
    }
    await parseBody(ctx, async () => {});
    if (ctx.state.bodyRejected) return;
    const response = await dispatcher.handle((ctx.request as { body?: unknown }).body, callerOf(ctx));
    if (response === undefined) {
      ctx.status = 204;
      return;
    }
    answerJson(ctx, response);
  };
}
