/**
 * rippled `submit` (submit-only mode): applies a signed transaction blob to the open ledger and
 * answers with its preliminary result. As in rippled, a blob that does not decode or whose
 * signature fails local checks gets an `invalidTransaction` error, not an engine result.
 */
import type { JsonObject } from '../../engine/types';
import { missingField, RpcError, BareRpcError } from '../rpc-error';
import type { MethodHandler } from './context';

const HEX = /^(?:[0-9A-Fa-f]{2})+$/;

export const submit: MethodHandler = ({ request, source }) => {
  const txBlob = request.tx_blob;
  if (txBlob === undefined) {
    if (request.tx_json !== undefined) {
      throw new RpcError('notSupported', 'The devnet does not sign: submit a signed tx_blob.');
    }
    throw missingField('tx_blob');
  }
  if (typeof txBlob !== 'string' || !HEX.test(txBlob)) throw new RpcError('invalidParams');
  if (!source.writer) throw new RpcError('notSupported', 'Recorded ledgers take no transactions.');

  const submitted = source.writer.submit(txBlob.toUpperCase());
  // rippled checkValidity runs before the engine: a blob that does not decode or carries a bad
  // signature gets `invalidTransaction`, never an engine result.
  if (submitted.errorException !== undefined || !submitted.txJson) {
    throw new BareRpcError('invalidTransaction', { error_exception: submitted.errorException ?? submitted.engineResultMessage });
  }
  const kept = submitted.applied || submitted.queued;
  const result: JsonObject = {
    accepted: kept,
    applied: submitted.applied,
    broadcast: false,
    engine_result: submitted.engineResult,
    engine_result_code: submitted.engineResultCode,
    engine_result_message: submitted.engineResultMessage,
    kept,
    open_ledger_cost: source.fees.baseFee.toString(),
    queued: submitted.queued,
    tx_blob: submitted.txBlob,
    tx_json: { ...submitted.txJson, hash: submitted.txHash },
    validated_ledger_index: submitted.validatedLedgerIndex,
  };
  if (submitted.accountSequenceAvailable !== undefined) result.account_sequence_available = submitted.accountSequenceAvailable;
  if (submitted.accountSequenceNext !== undefined) result.account_sequence_next = submitted.accountSequenceNext;
  return result;
};
