/** rippled `fee` (TxQ::doRPC): the open ledger's transaction cost in drops and fee levels. */
import type { JsonObject } from './protocol';

/** rippled TxQ: fee levels are in units of 1/256 of the reference cost; the median default is 500× it. */
const REFERENCE_LEVEL = 256n;
const MEDIAN_MULTIPLIER = 500n;

export interface FeeInput {
  /** The reference transaction cost in drops. */
  readonly baseFee: bigint;
  readonly ledgerCurrentIndex: number;
  /** Transactions in the open ledger. */
  readonly currentLedgerSize: number;
  readonly expectedLedgerSize: number;
  readonly maxQueueSize: number;
}

/**
 * The answer of a server with an empty queue and an open ledger under its expected size: every
 * level is the reference level, the median the default 500× it.
 */
export function feeResult(input: FeeInput): JsonObject {
  const { baseFee } = input;
  return {
    current_ledger_size: String(input.currentLedgerSize),
    current_queue_size: '0',
    drops: {
      base_fee: baseFee.toString(),
      median_fee: (baseFee * MEDIAN_MULTIPLIER).toString(),
      minimum_fee: baseFee.toString(),
      open_ledger_fee: baseFee.toString(),
    },
    expected_ledger_size: String(input.expectedLedgerSize),
    ledger_current_index: input.ledgerCurrentIndex,
    levels: {
      median_level: (REFERENCE_LEVEL * MEDIAN_MULTIPLIER).toString(),
      minimum_level: REFERENCE_LEVEL.toString(),
      open_ledger_level: REFERENCE_LEVEL.toString(),
      reference_level: REFERENCE_LEVEL.toString(),
    },
    max_queue_size: String(input.maxQueueSize),
  };
}
