import { secretsEqual } from '@ledger-node/config';
import type Koa from 'koa';
import type { CallerContext } from './dispatcher';

const loopbackHosts = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/;

export function isLoopback(host: string): boolean {
  return loopbackHosts.test(host);
}

/**
 * Who may call the signing methods: with a configured token, exactly the callers that present it
 * (`Authorization: Bearer <token>`); without one, anyone reaching a loopback listener and nobody else.
 */
export function signingPolicy(options: { listenerHost: string; token?: string }): (ctx: Koa.Context) => CallerContext {
  if (options.token !== undefined) {
    const token = options.token;
    return (ctx) => {
      // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
      const given = /^\s*bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
      const ok = given !== undefined && secretsEqual(given, token);
      return ok ? {} : { signingRefusal: 'a valid "Authorization: Bearer <token>" header is required' };
    };
  }
  if (isLoopback(options.listenerHost)) return () => ({});
  const refusal = `the JSON-RPC listener is not on loopback (${options.listenerHost}) and no -rpc_token_file is configured`;
  return () => ({ signingRefusal: refusal });
}
