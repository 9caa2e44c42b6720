/** rippled `tx`: a validated transaction by hash, in JSON or binary form. */
import { isHash256, missingField, placeOf, readBoolean, RpcError, txResult } from '@ledger-node/rippled-api';
import { DEVNET_RENDER_STYLE, rendered, type MethodHandler } from './context';

export const tx: MethodHandler = ({ request, source, apiVersion }) => {
  const txHash = request.transaction;
  if (txHash === undefined) throw missingField('transaction');
  if (!isHash256(txHash)) throw new RpcError('invalidParams', "Invalid field 'transaction'.");
  const binary = readBoolean(request, 'binary');
  const found = source.transaction(txHash.toUpperCase());
  if (!found) throw new RpcError('txnNotFound');
  return txResult(placeOf(found.ledger), rendered(found.tx, source.profile), { apiVersion, binary, networkId: source.networkId, ...DEVNET_RENDER_STYLE });
};
