import { defineMethod, param } from '../method';
import { blockNumberOrTag, txIndexQuantity } from '../params';
import { transactionSchema } from '../../format/schemas';
import { transactionByIndex } from './transactions';

export const jt_getTransactionByBlockNumberAndIndex = defineMethod({
  name: 'jt_getTransactionByBlockNumberAndIndex',
  summary: 'The transaction at an index of a block given by number or tag; null when there is none.',
  params: [
    param('blockNumber', blockNumberOrTag, 'QUANTITY or TAG: block number, or earliest, latest, pending, current, validated, closed'),
    param('transactionIndex', txIndexQuantity, 'QUANTITY, position of the transaction in the block'),
  ],
  result: transactionSchema.nullable(),
  handler: ([ledger, txIndex], context) => transactionByIndex(ledger, txIndex, context),
});
