import { setMaxListeners } from 'node:events';
import type Koa from 'koa';
import { withCallScope } from '@ledger-node/grpc';
import type { CallerOf } from './caller';

/**
 * Runs each HTTP request's work in a call scope (libs/grpc call-scope.ts): every gRPC call made
 * for it is cancelled, on every hop, when the client goes away before its answer, and carries the
 * caller's name (caller.ts), by which the keystore shares signing fairly.
 */
export function requestScope(callerOf: CallerOf): Koa.Middleware {
  return (ctx, next) => {
    const controller = new AbortController();
    // One signal serves every call made for the request (a batch runs several at once).
    setMaxListeners(0, controller.signal);
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    return withCallScope({ signal: controller.signal, ...callerOf(ctx.req) }, next);
  };
}
