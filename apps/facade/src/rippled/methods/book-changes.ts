/**
 * rippled `book_changes` at a stored ledger: what its transactions traded, per order book, from
 * their metadata (libs/rippled-api computes it for the node and the devnet alike).
 */
import { TxDetail } from '@ledger-node/contracts';
import { bookChanges as computeBookChanges } from '@ledger-node/rippled-api';
import type { RippledMethod } from '../method';
import { resolveLedger } from './ledgers';
import { transactionInput } from './records';

export const bookChanges: RippledMethod = async ({ params }, context) => {
  const resolved = await resolveLedger(params, context, TxDetail.FULL);
  const transactions = resolved.record.transactions.map((record) => {
    const input = transactionInput(record, context.profile);
    return { hash: input.hash, txJson: input.txJson, metaJson: input.metaJson };
  });
  return computeBookChanges({ ledgerIndex: resolved.header.ledgerIndex, ledgerHash: resolved.hash, closeTime: resolved.header.closeTime, validated: true }, transactions);
};
