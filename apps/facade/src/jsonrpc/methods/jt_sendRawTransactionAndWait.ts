import { receiptSchema } from '../../format/schemas';
import { defineMethod, param } from '../method';
import { hexData } from '../params';
import { receiptOfSent, waitSeconds } from './sends';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_sendRawTransactionAndWait = defineMethod({
  name: 'jt_sendRawTransactionAndWait',
  summary:
    'As jt_sendRawTransaction, then waits for the validated receipt (beyond the SPEC, after EIP-7966): the receipt; -32006 when the transaction cannot enter a ledger; -32014 naming its hash and state when it is not validated in time or expired.',
  params: [param('signedTransaction', hexData('the signed transaction').refine((bytes) => bytes.length > 0, 'the signed transaction is empty'), 'DATA, signed transaction as hex'), waitSeconds],
  result: receiptSchema,
  errors: ['upstreamUnavailable', 'rateLimited', 'rejected', 'notValidated'],
  examples: [{ name: 'the payment of mainnet ledger 38129', params: [ledger38129.paymentBlob], result: rpcExamples.receipt }],
  async handler([signedBlob, seconds], context) {
    await context.sends.take();
    return receiptOfSent(await context.clients.submission.submitSigned({ signedBlob }), seconds, context);
  },
});
