/** rippled `fee`: the open ledger's transaction cost (no queue: every level is the reference level). */
import type { MethodHandler } from './context';

/** rippled TxQ: fee levels are in units of 1/256 of the reference cost; the median default is 500× it. */
const REFERENCE_LEVEL = 256n;
const MEDIAN_MULTIPLIER = 500n;

export const fee: MethodHandler = ({ source }) => {
  const baseFee = source.fees.baseFee;
  const openLedgerIndex = source.writer?.openLedgerIndex() ?? (source.validatedLedger()?.header.ledgerIndex ?? 0) + 1;
  return {
    current_ledger_size: String(source.writer?.pendingCount() ?? 0),
    current_queue_size: '0',
    drops: {
      base_fee: baseFee.toString(),
      median_fee: (baseFee * MEDIAN_MULTIPLIER).toString(),
      minimum_fee: baseFee.toString(),
      open_ledger_fee: baseFee.toString(),
    },
    expected_ledger_size: '1000',
    ledger_current_index: openLedgerIndex,
    levels: {
      median_level: (REFERENCE_LEVEL * MEDIAN_MULTIPLIER).toString(),
      minimum_level: REFERENCE_LEVEL.toString(),
      open_ledger_level: REFERENCE_LEVEL.toString(),
      reference_level: REFERENCE_LEVEL.toString(),
    },
    max_queue_size: '2000',
  };
};
