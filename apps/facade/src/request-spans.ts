/**
 * One server span per HTTP request the facade answers, named `<METHOD> <route>` (a fixed path such
 * as the JSON-RPC endpoint, or the REST route template the router matched; the method alone for
 * anything else, so that span names stay few), with the W3C trace context a caller sent as its
 * parent. It is the root of the facade's part of a trace: the gRPC client spans hang below it. A
 * JSON-RPC request of one call is that call's span, renamed `jsonrpc <method>` by the dispatcher;
 * each call of a batch has a span of its own below it. Mounted after the probes, which are not traced.
 */
import type Koa from 'koa';
import { inServerSpan, recordingSpans, SpanStatusCode } from '@ledger-node/telemetry';

export function requestSpans(fixedRoutes: readonly string[] = []): Koa.Middleware {
  return (ctx, next) => {
    // With tracing off, the request goes on without a span's bookkeeping.
    if (!recordingSpans()) return next();
    // A fixed route is named before its handler runs, which may name the span after what it serves.
    const fixed = fixedRoutes.includes(ctx.path) ? ctx.path : undefined;
    const attributes = fixed === undefined ? { 'http.request.method': ctx.method } : { 'http.request.method': ctx.method, 'http.route': fixed };
    return inServerSpan(fixed === undefined ? ctx.method : `${ctx.method} ${fixed}`, ctx.headers, attributes, async (span) => {
      try {
        await next();
      } finally {
        // koa-router records the template of the route it matched (`/v1/transactions/:hash`).
        const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
        if (fixed === undefined && typeof matched === 'string') {
          span.updateName(`${ctx.method} ${matched}`);
          span.setAttribute('http.route', matched);
        }
        span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
    });
  };
}
