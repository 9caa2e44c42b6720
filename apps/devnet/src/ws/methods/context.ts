import type { JsonObject } from '../../engine/types';
import type { ApiVersion } from '../format';
import type { LedgerSource } from '../ledger-source';
import type { Subscriber } from '../subscriptions';

/** What a method handler is given: the request, its API version, the ledgers, and its connection's subscriptions. */
export interface MethodContext {
  readonly request: JsonObject;
  readonly apiVersion: ApiVersion;
  readonly source: LedgerSource;
  readonly subscriber: Subscriber;
  /** When the server started (Unix ms), for `uptime`. */
  readonly startedAtMs: number;
}

/** A rippled method: returns the `result` object or throws an RpcError. */
export type MethodHandler = (context: MethodContext) => JsonObject;
