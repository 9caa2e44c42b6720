/**
 * Answers that never change, kept rendered: the store holds validated ledgers only, so what a
 * command answers about a ledger it names by index or hash, or about a transaction it names by
 * hash or CTID, is final. Such an answer is rendered once and then served from the answer cache
 * the JSON-RPC and REST reads share (queries/answer-cache.ts), under the command, the API version
 * and the request's fields as sent. An error is never kept, so a request refused, or asking for a
 * ledger not stored yet, is answered afresh each time.
 */
import type { JsonObject } from '@ledger-node/rippled-api';
import type { RippledHandler, RippledMethod } from '../method';

/** A request that names its ledger by index (a number, or digits) or by hash: not by a tag that moves. */
export function namesLedger(params: JsonObject): boolean {
  const index = params.ledger_index;
  return typeof params.ledger_hash === 'string' || typeof index === 'number' || (typeof index === 'string' && /^\d+$/.test(index));
}

/** `tx` of a transaction named by hash or CTID; a proof is kept by its own rules (proofs/transaction-proof.ts). */
export function namesTransaction(params: JsonObject): boolean {
  return (params.transaction !== undefined || params.ctid !== undefined) && params.proof !== true;
}

/** `method` with its answers to the requests `final` accepts kept rendered. */
export function keptWhen(command: string, method: RippledMethod, final: (params: JsonObject) => boolean): RippledHandler {
  return async (request, context) => {
    if (!final(request.params as JsonObject)) return method(request, context);
    const key = `rippled:${command}:${request.apiVersion}:${JSON.stringify(request.params)}`;
    return (await context.queries.kept(key, () => method(request, context)))!;
  };
}
