import type { ApiVersion } from '@ledger-node/rippled-api';
import type { MethodContext } from '../jsonrpc/method';

/** One request of the rippled-compatible API, after the transport took off its envelope. */
export interface RippledRequest {
  /** The request's fields besides the command name, id and api_version (rippled's `params[0]` over HTTP). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly apiVersion: ApiVersion;
}

/**
 * A rippled-compatible method that answers from the store alone: the `result` object, or a thrown
 * RpcError (libs/rippled-api) that the transport renders as rippled does. Connection-bound methods
 * (subscribe, unsubscribe) are the transport's own.
 */
export type RippledMethod = (request: RippledRequest, context: MethodContext) => Promise<Record<string, unknown>>;
