/**
 * rippled `submit` (submit-only mode): a signed transaction blob handed to the network through the
 * submission service, which checks it (decodes, verifies its signature), tracks it and forwards
 * it upstream (as Clio forwards submit to rippled). A blob that is not hex is rippled's
 * `invalidParams`; one that does not decode (checked here first: rippled deserializes before
 * anything else) or whose signature fails is rippled's `invalidTransaction` with
 * `error_exception`, the reason in plain words; sign-and-submit (`tx_json` with a
 * secret) is refused: the node signs only for its own keystore accounts (jt_sendTransaction).
 * The answer is rippled's, from what the upstream said: `applied` for tes and tec results,
 * `queued` for terQUEUED, `kept`/`accepted` when the network keeps it.
 */
import { decodeTransactionBlob } from '@ledger-node/chain';
import { isLedgerNodeError } from '@ledger-node/errors';
import { BareRpcError, missingField, RpcError, submitResult } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { feesAt } from './fees';
import { hex } from './ledgers';
import { rippledErrorOf } from './errors';
import { StateView } from './state';

const HEX = /^(?:[0-9A-Fa-f]{2})+$/;

export const submit: RippledMethod = async ({ params }, context) => {
  const txBlob = params.tx_blob;
  if (txBlob === undefined) {
    if (params.tx_json !== undefined) throw new RpcError('notSupported', 'The node does not sign for submit: send a signed tx_blob.');
    throw missingField('tx_blob');
  }
  if (typeof txBlob !== 'string' || !HEX.test(txBlob)) throw new RpcError('invalidParams');
  const { profile } = context;
  let txJson: Record<string, unknown>;
  try {
    txJson = decodeTransactionBlob(txBlob.toUpperCase(), profile);
  } catch (error) {
    // The codec says why in plain words (libs/chain codec.ts); anything else is not the caller's to read.
    const reason = isLedgerNodeError(error) && error.kind === 'invalid_params' ? error.message.replace(/^cannot decode: /, '') : 'it is not a serialized transaction';
    throw new BareRpcError('invalidTransaction', { error_exception: `the blob does not decode: ${reason}` });
  }
  let sent;
  try {
    await context.sends.take();
    sent = await context.clients.submission.submitSigned({ signedBlob: Buffer.from(txBlob, 'hex') });
  } catch (error) {
    // The submission service's refusals of the blob itself: rippled's local checks.
    if (isLedgerNodeError(error) && error.kind === 'invalid_params') throw new BareRpcError('invalidTransaction', { error_exception: error.message });
    throw rippledErrorOf(error) ?? error;
  }
  const engineResult = sent.engineResult;
  let engineResultCode: number | undefined;
  try {
    engineResultCode = profile.definitions.transactionResult.from(engineResult).ordinal;
  } catch {
    engineResultCode = undefined;
  }
  const validatedLedgerIndex = await context.queries.highestLedgerIndex();
  const fees = validatedLedgerIndex > 0 ? await feesAt(new StateView(context, validatedLedgerIndex), profile) : undefined;
  const applied = /^te[sc]/.test(engineResult);
  const queued = engineResult === 'terQUEUED';
  const result = submitResult({
    engineResult,
    engineResultCode: engineResultCode ?? -1,
    engineResultMessage: sent.engineResultMessage,
    applied,
    queued,
    broadcast: sent.accepted,
    kept: sent.accepted || engineResult.startsWith('ter'),
    txBlob: txBlob.toUpperCase(),
    txJson,
    txHash: hex(sent.hash),
    openLedgerCost: (fees?.baseFee ?? profile.baseFee).toString(),
    validatedLedgerIndex,
  });
  if (engineResultCode === undefined) delete result.engine_result_code;
  return result;
};
