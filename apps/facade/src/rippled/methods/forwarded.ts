/**
 * What needs a live engine, handed to the upstream through the submission service as Clio hands
 * it (ForwardingProxy): ripple_path_find, simulate and submit_multisigned (path_find is the
 * connection's, ../path-requests.ts). The answer
 * is the upstream's, marked `"forwarded": true` as Clio marks it; an error answer is the
 * upstream's error. Keys never pass: a request carrying `secret`, `seed`, `seed_hex` or
 * `passphrase` is refused here, and again by the submission service. No upstream answering is
 * rippled's `noNetwork`; the submission service's forwards at their limit, `tooBusy`.
 * submit_multisigned sends a transaction, so it counts against -send_rate as `submit` does.
 */
import { isLedgerNodeError } from '@ledger-node/errors';
import { BareRpcError, checkSimulateRequest, invalidField, missingField, refuseKeyFields, RpcError } from '@ledger-node/rippled-api';
import type { RippledContext, RippledMethod, RippledRequest } from '../method';
import { rippledErrorOf } from './errors';

type ForwardedCommand = 'ripple_path_find' | 'simulate' | 'submit_multisigned';

/** rippled's refusal of a key field in the request or its tx_json (the field is named, never its value). */
export function refuseKeys(params: Readonly<Record<string, unknown>>): void {
  refuseKeyFields(params);
  const txJson = params.tx_json;
  if (txJson !== null && typeof txJson === 'object') refuseKeyFields(txJson as Record<string, unknown>, 'tx_json');
}

/** A failed call to the submission service as rippled's error: its forwards (or path requests) at their limit `tooBusy`, no upstream `noNetwork`. */
export function forwardingError(error: unknown): unknown {
  // The submission service's forwards in flight at their limit: rippled's load refusal.
  if (isLedgerNodeError(error) && error.kind === 'rate_limited') return new RpcError('tooBusy');
  // rippled's own words: which upstream did not answer, and how, is the operator's to read in the logs.
  if (isLedgerNodeError(error) && error.kind === 'upstream_unavailable') return new RpcError('noNetwork');
  return rippledErrorOf(error) ?? error;
}

/** The upstream's answer (`answerJson`, its error answer when `error`) checked to be a JSON object; an error answer thrown as the upstream's error. */
export function forwardedAnswer(answerJson: string, error: boolean): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answerJson);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new RpcError('noNetwork', 'The upstream answered with no JSON object.');
  const fields = parsed as Record<string, unknown>;
  if (error) {
    if (typeof fields.error !== 'string' || fields.error.length === 0 || fields.error.length > 64) throw new RpcError('noNetwork', 'The upstream answered with a malformed error.');
    const { error: token, status: _status, ...rest } = fields;
    throw new BareRpcError(token, rest);
  }
  return fields;
}

/** The upstream's answer for `command`, or its error as rippled's; the answer checked to be a JSON object. */
async function forward(command: ForwardedCommand, request: RippledRequest, context: RippledContext): Promise<Record<string, unknown>> {
  refuseKeys(request.params);
  let answer;
  try {
    answer = await context.clients.submission.forward({ command, paramsJson: JSON.stringify(request.params), apiVersion: request.apiVersion });
  } catch (error) {
    throw forwardingError(error);
  }
  return { ...forwardedAnswer(answer.answerJson, answer.error), forwarded: true };
}

export const ripplePathFind: RippledMethod = (request, context) => forward('ripple_path_find', request, context);

/**
 * `path_find` over a transport without events (HTTP): rippled's `noEvents`, as its PathFind
 * handler answers a request with no InfoSub. Over WebSocket the connection's path request serves
 * it (../path-requests.ts).
 */
export const pathFind: RippledMethod = async () => {
  throw new RpcError('noEvents');
};

/** rippled simulate's own checks, in its order (binary, keys, then exactly one of tx_blob and tx_json); the rest is the upstream's to judge. */
export const simulate: RippledMethod = async (request, context) => {
  checkSimulateRequest(request.params);
  return forward('simulate', request, context);
};

export const submitMultisigned: RippledMethod = async (request, context) => {
  const txJson = request.params.tx_json;
  if (txJson === undefined) throw missingField('tx_json');
  if (txJson === null || typeof txJson !== 'object' || Array.isArray(txJson)) throw invalidField('tx_json', 'object');
  refuseKeys(request.params);
  try {
    await context.sends.take();
  } catch (error) {
    throw rippledErrorOf(error) ?? error;
  }
  return forward('submit_multisigned', request, context);
};
