/**
 * One server span per HTTP request the facade answers, named `<METHOD> <route>` (a fixed path such
 * as the JSON-RPC endpoint, or the REST route template the router matched; the method alone for
 * anything else, so that span names stay few), with the W3C trace context a
 * caller sent as its parent. It is the root of the facade's part of a trace: the JSON-RPC call
 * spans and the gRPC client spans hang below it. Mounted after the probes, which are not traced.
 */
import type Koa from 'koa';
import { inServerSpan, recordingSpans, SpanStatusCode } from '@ledger-node/telemetry';

export function requestSpans(fixedRoutes: readonly string[] = []): Koa.Middleware {
  return (ctx, next) => {
    // With tracing off, the request goes on without a span's bookkeeping.
    if (!recordingSpans()) return next();
    return inServerSpan(ctx.method, ctx.headers, { 'http.request.method': ctx.method }, async (span) => {
      try {
        await next();
      } finally {
        // koa-router records the template of the route it matched (`/v1/transactions/:hash`).
        const matched = fixedRoutes.includes(ctx.path) ? ctx.path : (ctx as { _matchedRoute?: unknown })._matchedRoute;
        if (typeof matched === 'string') {
          span.updateName(`${ctx.method} ${matched}`);
          span.setAttribute('http.route', matched);
        }
        span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
    });
  };
}
