/**
 * rippled `submit` (submit-only mode): applies a signed transaction blob to the open ledger and
 * answers with its preliminary result. As in rippled, a blob that does not decode or whose
 * signature fails local checks gets an `invalidTransaction` error, not an engine result.
 */
import { BareRpcError, missingField, RpcError, submitResult } from '@ledger-node/rippled-api';
import type { JsonObject } from '../../engine/types';
import type { MethodContext, MethodHandler } from './context';

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
  return submittedAnswer(source.writer, txBlob.toUpperCase(), source.fees.baseFee);
};

/**
 * A signed blob applied to the open ledger, answered as rippled's submit answers. rippled
 * checkValidity runs before the engine: a blob that does not decode or carries a bad signature gets
 * `invalidTransaction`, never an engine result.
 */
export function submittedAnswer(writer: NonNullable<MethodContext['source']['writer']>, txBlob: string, baseFee: bigint): JsonObject {
  const submitted = writer.submit(txBlob);
  if (submitted.errorException !== undefined || !submitted.txJson) {
    throw new BareRpcError('invalidTransaction', { error_exception: submitted.errorException ?? submitted.engineResultMessage });
  }
  return submitResult({
    engineResult: submitted.engineResult,
    engineResultCode: submitted.engineResultCode,
    engineResultMessage: submitted.engineResultMessage,
    applied: submitted.applied,
    queued: submitted.queued,
    broadcast: false,
    kept: submitted.applied || submitted.queued,
    txBlob: submitted.txBlob,
    txJson: submitted.txJson,
    txHash: submitted.txHash,
    openLedgerCost: baseFee.toString(),
    validatedLedgerIndex: submitted.validatedLedgerIndex,
    accountSequenceNext: submitted.accountSequenceNext,
    accountSequenceAvailable: submitted.accountSequenceAvailable,
  });
}
