/**
 * rippled `simulate`: a transaction (tx_json, or tx_blob) applied to a copy of the open ledger
 * after signing's autofill, nothing committed. Its checks come in rippled's order: `binary` a
 * boolean, no key fields, exactly one of tx_blob and tx_json; its autofill refuses a signed
 * transaction (`transactionSigned`) and one from an account that does not exist.
 * The answer is `applied: false` with the engine result, the transaction as applied and, when
 * the result would be applied (tes, tec), its metadata; `binary` gives both as hex.
 */
import { isLedgerNodeError } from '@ledger-node/errors';
import { checkSimulateRequest, invalidField, RpcError, type JsonObject } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

const HEX = /^(?:[0-9A-Fa-f]{2})+$/;

export const simulate: MethodHandler = ({ request, source }) => {
  checkSimulateRequest(request);
  const { tx_blob: txBlob, tx_json: txJson, binary } = request;
  if (!source.writer) throw new RpcError('notSupported', 'Recorded ledgers take no transactions.');
  let transaction: JsonObject;
  if (txBlob !== undefined) {
    if (typeof txBlob !== 'string' || !HEX.test(txBlob)) throw invalidField('tx_blob');
    try {
      transaction = source.profile.codec.decode(txBlob.toUpperCase());
    } catch {
      throw invalidField('tx_blob');
    }
  } else {
    if (txJson === null || typeof txJson !== 'object' || Array.isArray(txJson)) throw new RpcError('invalidParams', "Invalid field 'tx_json', not object.");
    transaction = txJson as JsonObject;
  }
  if (transaction.TransactionType === undefined) throw new RpcError('invalidParams', "Missing field 'tx.TransactionType'.");
  if (transaction.Account === undefined) throw new RpcError('invalidParams', "Missing field 'tx.Account'.");
  let simulated;
  try {
    simulated = source.writer.simulate(transaction);
  } catch (error) {
    if (isLedgerNodeError(error) && error.kind === 'invalid_params') throw new RpcError('invalidParams', error.message);
    throw error;
  }
  if ('refused' in simulated) {
    if (simulated.refused === 'srcActMalformed') throw new RpcError('srcActMalformed', "Invalid field 'tx.Account'.");
    throw new RpcError(simulated.refused);
  }
  const answer: JsonObject = {
    applied: false,
    engine_result: simulated.engineResult,
    engine_result_code: simulated.engineResultCode,
    engine_result_message: simulated.engineResultMessage,
    ledger_index: simulated.ledgerIndex,
  };
  if (binary === true) {
    answer.tx_blob = simulated.txBlob;
    if (simulated.metaBlob !== undefined) answer.meta_blob = simulated.metaBlob;
  } else {
    answer.tx_json = simulated.txJson;
    if (simulated.metaJson !== undefined) answer.meta = simulated.metaJson;
  }
  return answer;
};
