import type { JsonObject } from '../../engine/types';
import { entryInRippledNotation, inRippledNotation, notationOf, type ApiVersion, type RenderStyle, type TransactionInput } from '@ledger-node/rippled-api';
import type { ChainProfile } from '@ledger-node/chain';
import type { DevnetNetwork } from '../../network/network';
import type { LedgerSource } from '../ledger-source';
import type { Subscriber } from '../subscriptions';

/** What a method handler is given: the request, its API version, the ledgers, the network, and its connection's subscriptions. */
export interface MethodContext {
  readonly request: JsonObject;
  readonly apiVersion: ApiVersion;
  readonly source: LedgerSource;
  readonly network: DevnetNetwork;
  readonly subscriber: Subscriber;
  /** When the server started (Unix ms), for `uptime`. */
  readonly startedAtMs: number;
}

/**
 * The devnet renders API v1 as rippled did before 2.0: a Payment's Amount without its `DeliverMax`
 * alias, the shape its recorded ledgers and their checks keep.
 */
export const DEVNET_RENDER_STYLE: RenderStyle = { v1DeliverMax: false };

/** A state entry's JSON as the devnet answers with it: in the notation of the chain's servers, with its `index`. */
export function renderedEntry(entry: { json: JsonObject; index: string }, profile: ChainProfile): JsonObject {
  return entryInRippledNotation(entry.json, entry.index, notationOf(profile));
}

/** A closed transaction as the devnet answers with it: in the notation of the chain's servers. */
export function rendered(tx: TransactionInput, profile: ChainProfile): TransactionInput {
  return inRippledNotation(tx, notationOf(profile));
}

/** A rippled method: returns the `result` object or throws an RpcError. */
export type MethodHandler = (context: MethodContext) => JsonObject;
