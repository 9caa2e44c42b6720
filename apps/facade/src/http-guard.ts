/**
 * What every HTTP listener checks before anything else, against DNS rebinding and pages of other
 * sites (docs/operating.md "Security model"):
 *
 * - `Host` must be an IP address or one of `-rpc_allowed_hosts` (default `localhost`): a page of
 *   attacker.example whose name an attacker re-points at 127.0.0.1 still sends
 *   `Host: attacker.example`, and is refused. An IP address is always answered: rebinding needs a name.
 * - A browser's cross-origin request (an `Origin` other than the listener's own) is refused unless
 *   `-rpc_cors_origins` names that origin; then CORS (`@koa/cors`) answers it and its preflight.
 */
import { isIP } from 'node:net';
import cors from '@koa/cors';
import type Koa from 'koa';
import { JSON_RPC_PATH } from './jsonrpc/route';
import { errorResponse, RpcCode } from './jsonrpc/protocol';

export interface HttpGuardOptions {
  /** Host names answered besides IP addresses; `*` answers any. */
  allowedHosts: readonly string[];
  /** Origins whose pages may call; `*` any. */
  corsOrigins: readonly string[];
}

/** A refusal in the listener's own error shape: a JSON-RPC error on the JSON-RPC path, `{ error }` elsewhere. */
function refuse(ctx: Koa.Context, message: string): void {
  ctx.status = 403;
  ctx.body = ctx.path === JSON_RPC_PATH ? errorResponse(null, { code: RpcCode.unauthorized, message }) : { error: { code: 'forbidden', message } };
}

export function httpGuard(options: HttpGuardOptions): Koa.Middleware {
  const anyHost = options.allowedHosts.includes('*');
  const hosts = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const anyOrigin = options.corsOrigins.includes('*');
  const origins = new Set(options.corsOrigins);
  const allowedOrigin = (origin: string) => anyOrigin || origins.has(origin);
  const corsHeaders = cors({ origin: (ctx) => ctx.get('origin'), allowHeaders: ['content-type', 'authorization'], maxAge: 600 });
  const hostList = options.allowedHosts.join(', ');

  return async (ctx, next) => {
    const hostname = ctx.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!anyHost && isIP(hostname) === 0 && !hosts.has(hostname.toLowerCase())) {
      return refuse(ctx, `Host ${JSON.stringify(ctx.host.slice(0, 255))} is not answered: only IP addresses and the names in -rpc_allowed_hosts (${hostList})`);
    }
    const origin = ctx.get('origin');
    if (origin === '' || origin === `${ctx.protocol}://${ctx.host}`) return next();
    if (!allowedOrigin(origin)) {
      return refuse(ctx, `cross-origin request from ${JSON.stringify(origin.slice(0, 255))} refused: the origins allowed are those in -rpc_cors_origins (${options.corsOrigins.join(', ') || 'none'})`);
    }
    return corsHeaders(ctx, next);
  };
}
