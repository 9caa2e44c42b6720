/**
 * The node's own errors (libs/errors kinds) in rippled's terms, for what a method does not name
 * itself: a read the store refuses, a service the facade cannot reach, a client sending too fast.
 * The one mapping of both the methods and the command runner (commands.ts).
 */
import { isLedgerNodeError, type ErrorKind } from '@ledger-node/errors';
import { BareRpcError, RpcError, type RpcErrorToken } from '@ledger-node/rippled-api';

const tokenOf: Partial<Record<ErrorKind, RpcErrorToken>> = {
  invalid_params: 'invalidParams',
  not_found: 'entryNotFound',
  out_of_range: 'lgrNotFound',
  account_not_found: 'actNotFound',
  not_synced: 'notSynced',
  upstream_unavailable: 'noNetwork',
  unavailable: 'notReady',
  rate_limited: 'slowDown',
  unimplemented: 'notImpl',
};

/**
 * The rippled error for a thrown value: itself when it already is one, the mapped token (with the
 * node's message) for a node error, undefined for anything else (an internal error).
 */
export function rippledErrorOf(error: unknown): RpcError | BareRpcError | undefined {
  if (error instanceof RpcError || error instanceof BareRpcError) return error;
  if (!isLedgerNodeError(error)) return undefined;
  const token = tokenOf[error.kind];
  return token === undefined ? undefined : new RpcError(token, error.message);
}
