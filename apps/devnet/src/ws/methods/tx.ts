/** rippled `tx`: a validated transaction by hash, in JSON or binary form. */
import { txResult } from '../format';
import { isHash256, readBoolean } from '../params';
import { missingField, RpcError } from '../rpc-error';
import type { MethodHandler } from './context';

export const tx: MethodHandler = ({ request, source, apiVersion }) => {
  const txHash = request.transaction;
  if (txHash === undefined) throw missingField('transaction');
  if (!isHash256(txHash)) throw new RpcError('invalidParams', "Invalid field 'transaction'.");
  const binary = readBoolean(request, 'binary');
  const found = source.transaction(txHash.toUpperCase());
  if (!found) throw new RpcError('txnNotFound');
  return txResult(found.ledger, found.tx, { apiVersion, binary, networkId: source.networkId });
};
