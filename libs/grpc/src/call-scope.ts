import { AsyncLocalStorage } from 'node:async_hooks';
import { Unavailable } from '@ledger-node/errors';

/**
 * What the work done for one caller (a gRPC call being served, an HTTP request being answered)
 * passes on to every gRPC call it makes: the caller's cancellation and deadline. A caller that
 * goes away, or whose deadline passes, cancels the calls made for it on every hop behind.
 */
export interface CallScope {
  /** Aborted when the caller cancels, goes away or runs out of time. */
  readonly signal: AbortSignal;
  /** When the caller stops waiting (epoch ms), if it said. */
  readonly deadline?: number;
  /**
   * Who the work is for, as the service that met the caller named it (e.g. the facade's `ip:…`):
   * work shared among callers (signing) is shared fairly by this name. Carried as `ln-caller`.
   */
  readonly caller?: string;
  /** The client's address, for limits per client in the service that met it (not carried on). */
  readonly address?: string;
}

/** The metadata key that carries `CallScope.caller` from hop to hop. */
export const CALLER_KEY = 'ln-caller';

const scopes = new AsyncLocalStorage<CallScope>();

/** Runs `work` (and everything it starts) in `scope`. */
export function withCallScope<T>(scope: CallScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** Runs `work` for no caller in particular: work shared by many callers must not end with the first one. */
export function outsideCallScope<T>(work: () => T): T {
  return scopes.exit(work);
}

/** The scope of the caller whose work is running, if any. */
export function currentCallScope(): CallScope | undefined {
  return scopes.getStore();
}

/** Throws when the caller is gone: work for nobody stops at the next check. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Unavailable('cancelled: the caller went away or its deadline passed');
}
