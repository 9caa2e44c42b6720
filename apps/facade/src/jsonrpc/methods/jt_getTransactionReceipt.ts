import { defineMethod, param } from '../method';
import { hash32 } from '../params';
import { receiptSchema } from '../../format/schemas';
import { receiptObject } from '../../format/records';
import { answerByHash } from './transactions';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_getTransactionReceipt = defineMethod({
  name: 'jt_getTransactionReceipt',
  summary: 'The receipt (metadata) of a validated transaction; null when it is not stored, e.g. still in progress.',
  params: [param('transactionHash', hash32, 'DATA, 32-byte transaction hash')],
  result: receiptSchema.nullable(),
  errors: [],
  examples: [{ name: 'the payment of mainnet ledger 38129', params: [ledger38129.paymentHash], result: rpcExamples.receipt }],
  handler: ([hash], context) => answerByHash('receipt', hash, context, (record) => receiptObject(record, context.profile)),
});
