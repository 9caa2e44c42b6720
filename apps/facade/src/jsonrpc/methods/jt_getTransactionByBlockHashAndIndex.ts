import { defineMethod, param } from '../method';
import { blockHash, txIndexQuantity } from '../params';
import { transactionSchema } from '../../format/schemas';
import { transactionByIndex } from './transactions';

export const jt_getTransactionByBlockHashAndIndex = defineMethod({
  name: 'jt_getTransactionByBlockHashAndIndex',
  summary: 'The transaction at an index of a block given by hash; null when there is none.',
  params: [
    param('blockHash', blockHash, 'DATA, 32-byte block hash'),
    param('transactionIndex', txIndexQuantity, 'QUANTITY, position of the transaction in the block'),
  ],
  result: transactionSchema.nullable(),
  handler: ([ledger, txIndex], context) => transactionByIndex(ledger, txIndex, context),
});
