import { defineMethod, param } from '../method';
import { blockNumberOrTag, txIndexQuantity } from '../params';
import { transactionSchema } from '../../format/schemas';
import { transactionByIndex } from './transactions';
import { rpcExamples } from '../../format/examples';

export const jt_getTransactionByBlockNumberAndIndex = defineMethod({
  name: 'jt_getTransactionByBlockNumberAndIndex',
  summary: 'The transaction at an index of a block given by number or tag; null when there is none.',
  params: [
    param('blockNumber', blockNumberOrTag, 'QUANTITY or TAG: block number, or earliest, latest, pending, current, validated, closed'),
    param('transactionIndex', txIndexQuantity, 'QUANTITY, position of the transaction in the block'),
  ],
  result: transactionSchema.nullable(),
  errors: [],
  examples: [{ name: 'the first transaction of mainnet ledger 38129', params: ['38129', '0'], result: rpcExamples.transaction }],
  handler: ([ledger, txIndex], context) => transactionByIndex(ledger, txIndex, context),
});
