/** rippled `submit` (submit-only mode) answer (Submit.cpp / NetworkOPs::processTransaction). */
import type { JsonObject } from './protocol';

export interface SubmitInput {
  readonly engineResult: string;
  readonly engineResultCode: number;
  readonly engineResultMessage: string;
  /** In the open ledger (tes and tec results). */
  readonly applied: boolean;
  /** Held to be retried later (ter results such as terPRE_SEQ). */
  readonly queued: boolean;
  /** Relayed to the network. */
  readonly broadcast: boolean;
  /** Kept by the server (applied, queued or held). */
  readonly kept: boolean;
  /** Uppercase hex. */
  readonly txBlob: string;
  /** The decoded transaction. */
  readonly txJson: JsonObject;
  /** Uppercase hex; absent only when the blob did not decode. */
  readonly txHash?: string;
  /** Drops a transaction needs to enter the open ledger now. */
  readonly openLedgerCost: string;
  readonly validatedLedgerIndex: number;
  readonly accountSequenceNext?: number;
  readonly accountSequenceAvailable?: number;
}

export function submitResult(input: SubmitInput): JsonObject {
  const result: JsonObject = {
    accepted: input.applied || input.queued || input.kept,
    applied: input.applied,
    broadcast: input.broadcast,
    engine_result: input.engineResult,
    engine_result_code: input.engineResultCode,
    engine_result_message: input.engineResultMessage,
    kept: input.kept,
    open_ledger_cost: input.openLedgerCost,
    queued: input.queued,
    tx_blob: input.txBlob,
    tx_json: input.txHash === undefined ? { ...input.txJson } : { ...input.txJson, hash: input.txHash },
    validated_ledger_index: input.validatedLedgerIndex,
  };
  if (input.accountSequenceAvailable !== undefined) result.account_sequence_available = input.accountSequenceAvailable;
  if (input.accountSequenceNext !== undefined) result.account_sequence_next = input.accountSequenceNext;
  return result;
}
