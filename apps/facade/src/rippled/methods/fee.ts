/**
 * rippled `fee`. Clio forwards it to rippled; the node answers from its newest stored ledger: the
 * base fee of its FeeSettings object, every level at the reference level (the node sees no queue
 * and no open ledger, so it reports an empty one: current_ledger_size 0, current_queue_size 0) and
 * `ledger_current_index` the ledger after the newest stored one, where a transaction sent now can
 * first land.
 */
import { LedgerTag, TxDetail } from '@ledger-node/contracts';
import { feeResult, RpcError } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { feesAt } from './fees';
import { StateView } from './state';

/** The sizes rippled's TxQ reports before it has learned the network's: its defaults. */
const EXPECTED_LEDGER_SIZE = 1000;
const MAX_QUEUE_SIZE = 2000;

export const fee: RippledMethod = async (_request, context) => {
  const record = await context.queries.ledger({ selector: { $case: 'tag', tag: LedgerTag.VALIDATED } }, TxDetail.NONE);
  if (!record) throw new RpcError('noCurrent');
  const fees = await feesAt(new StateView(context, record.ledgerIndex), context.profile);
  return feeResult({
    baseFee: fees.baseFee,
    ledgerCurrentIndex: record.ledgerIndex + 1,
    currentLedgerSize: 0,
    expectedLedgerSize: EXPECTED_LEDGER_SIZE,
    maxQueueSize: MAX_QUEUE_SIZE,
  });
};
