import type { ApiVersion } from '@ledger-node/rippled-api';
import type { MethodContext } from '../jsonrpc/method';
import type { RenderedJson } from '../queries/rendered-json';

/** One request of the rippled-compatible API, after the transport took off its envelope. */
export interface RippledRequest {
  /** The request's fields besides the command name, id and api_version (rippled's `params[0]` over HTTP). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly apiVersion: ApiVersion;
}

/** A command's `result` object, or the same already rendered (an answer that never changes, from the answer cache). */
export type RippledResult = Record<string, unknown> | RenderedJson<Record<string, unknown>>;

/**
 * A rippled-compatible method that answers from the store alone: the `result` object, or a thrown
 * RpcError (libs/rippled-api) that the transport renders as rippled does. Connection-bound methods
 * (subscribe, unsubscribe) are the transport's own.
 */
export type RippledMethod = (request: RippledRequest, context: RippledContext) => Promise<Record<string, unknown>>;

/** What the command table holds: a method, or one whose answer may come already rendered from the answer cache. */
export type RippledHandler = (request: RippledRequest, context: RippledContext) => Promise<RippledResult>;

/** What a rippled-compatible method reads from: the facade's context and the network the node states. */
export interface RippledContext extends MethodContext {
  /** -network_id: stated in server_info and encoded in CTIDs; undefined states none. */
  readonly networkId: number | undefined;
}
