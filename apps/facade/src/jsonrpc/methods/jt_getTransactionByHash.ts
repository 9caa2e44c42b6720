import { defineMethod, param } from '../method';
import { hash32 } from '../params';
import { transactionSchema } from '../../format/schemas';
import { transactionObject } from '../../format/records';
import { answerByHash } from './transactions';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_getTransactionByHash = defineMethod({
  name: 'jt_getTransactionByHash',
  summary: 'A validated transaction by hash, with every field of its type; null when it is not stored.',
  params: [param('transactionHash', hash32, 'DATA, 32-byte transaction hash')],
  result: transactionSchema.nullable(),
  errors: [],
  examples: [{ name: 'the payment of mainnet ledger 38129', params: [ledger38129.paymentHash], result: rpcExamples.transaction }],
  handler: ([hash], context) => answerByHash('tx', hash, context, (record) => transactionObject(record, context.profile)),
});
