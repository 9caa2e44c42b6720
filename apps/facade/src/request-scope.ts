import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import { withCallScope, type CallScope } from '@ledger-node/grpc';
import type { CallerIdentity, CallerOf } from './caller';

/**
 * One HTTP request's call scope. Its signal is made when a call first asks for it: most answers
 * (the tip, a cached answer) make no gRPC call, and an AbortController with its listener bound
 * lifted costs more than the rest of such a request's scope.
 */
export class RequestScope implements CallScope {
  readonly caller: string;
  readonly address: string;
  private controller: AbortController | undefined;
  private gone = false;

  constructor(identity: CallerIdentity) {
    this.caller = identity.caller;
    this.address = identity.address;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      // One signal serves every call made for the request (a batch runs several at once).
      setMaxListeners(0, this.controller.signal);
      if (this.gone) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** The client went away before its answer: every call made for it, or still to be made, is cancelled. */
  cancel(): void {
    this.gone = true;
    this.controller?.abort();
  }
}

/** The scopes of each connection's requests still at work, cancelled when the connection closes. */
const atWork = new WeakMap<Socket, Set<RequestScope>>();

function scopesOf(socket: Socket): Set<RequestScope> {
  let scopes = atWork.get(socket);
  if (scopes === undefined) {
    const created = new Set<RequestScope>();
    // One listener per connection, not one per request: keep-alive connections carry thousands.
    socket.once('close', () => {
      for (const scope of created) scope.cancel();
    });
    atWork.set(socket, created);
    scopes = created;
  }
  return scopes;
}

/**
 * Runs each HTTP request's work in a call scope (libs/grpc call-scope.ts): every gRPC call made
 * for it is cancelled, on every hop, when the client goes away (its connection closes) before the
 * work is done, and carries the caller's name (caller.ts), by which the keystore shares signing fairly.
 */
export function requestScope(callerOf: CallerOf): Koa.Middleware {
  return (ctx, next) => {
    const scope = new RequestScope(callerOf(ctx.req));
    const scopes = scopesOf(ctx.req.socket);
    scopes.add(scope);
    return withCallScope(scope, next).finally(() => scopes.delete(scope));
  };
}
