import { defineMethod, param } from '../method';
import { blockHash, txIndexQuantity } from '../params';
import { transactionSchema } from '../../format/schemas';
import { transactionByIndex } from './transactions';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_getTransactionByBlockHashAndIndex = defineMethod({
  name: 'jt_getTransactionByBlockHashAndIndex',
  summary: 'The transaction at an index of a block given by hash; null when there is none.',
  params: [
    param('blockHash', blockHash, 'DATA, 32-byte block hash'),
    param('transactionIndex', txIndexQuantity, 'QUANTITY, position of the transaction in the block'),
  ],
  result: transactionSchema.nullable(),
  errors: [],
  examples: [{ name: 'the first transaction of mainnet ledger 38129', params: [ledger38129.hash, '0x0'], result: rpcExamples.transaction }],
  handler: ([ledger, txIndex], context) => transactionByIndex(ledger, txIndex, context),
});
