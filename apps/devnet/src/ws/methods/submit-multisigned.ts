/**
 * rippled `submit_multisigned`: a transaction in tx_json whose Signers carry every signature,
 * serialized and applied to the open ledger as `submit` applies a blob: the signatures are
 * checked against the signing data (local checks: `invalidTransaction` when one fails), the
 * signers against the account's SignerList and its quorum (the engine's tef results).
 */
import { BareRpcError, invalidField, missingField, refuseKeyFields, RpcError } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';
import { submittedAnswer } from './submit';

export const submitMultisigned: MethodHandler = ({ request, source }) => {
  const txJson = request.tx_json;
  if (txJson === undefined) throw missingField('tx_json');
  if (txJson === null || typeof txJson !== 'object' || Array.isArray(txJson)) throw invalidField('tx_json', 'object');
  refuseKeyFields(request);
  if (!source.writer) throw new RpcError('notSupported', 'Recorded ledgers take no transactions.');
  const fields = txJson as Record<string, unknown>;
  // rippled: the transaction must be multi-signed (an empty SigningPubKey and Signers).
  if (!Array.isArray(fields.Signers) || fields.Signers.length === 0) throw missingField('tx_json.Signers');
  if (fields.SigningPubKey !== undefined && fields.SigningPubKey !== '') throw new RpcError('invalidParams', 'Invalid field \'tx_json.SigningPubKey\'.');
  let txBlob: string;
  try {
    txBlob = source.profile.codec.encode({ ...fields, SigningPubKey: '' });
  } catch (error) {
    throw new BareRpcError('invalidTransaction', { error_exception: `the transaction does not serialize: ${(error as Error).message}` });
  }
  return submittedAnswer(source.writer, txBlob, source.fees.baseFee);
};
