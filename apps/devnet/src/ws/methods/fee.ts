/** rippled `fee`: the open ledger's transaction cost (no queue: every level is the reference level). */
import { feeResult } from '@ledger-node/rippled-api';
import type { MethodHandler } from './context';

export const fee: MethodHandler = ({ source }) =>
  feeResult({
    baseFee: source.fees.baseFee,
    ledgerCurrentIndex: source.writer?.openLedgerIndex() ?? (source.validatedLedger()?.header.ledgerIndex ?? 0) + 1,
    currentLedgerSize: source.writer?.pendingCount() ?? 0,
    expectedLedgerSize: 1000,
    maxQueueSize: 2000,
  });
