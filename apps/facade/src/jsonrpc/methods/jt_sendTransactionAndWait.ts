import { receiptSchema } from '../../format/schemas';
import { defineMethod, param } from '../method';
import { transactionRequest } from '../params';
import { receiptOfSent, waitSeconds } from './sends';
import { ledger38129, rpcExamples } from '../../format/examples';

export const jt_sendTransactionAndWait = defineMethod({
  name: 'jt_sendTransactionAndWait',
  summary:
    'As jt_sendTransaction, then waits for the validated receipt (beyond the SPEC, after EIP-7966): the receipt; -32006 when the transaction cannot enter a ledger; -32014 naming its hash and state when it is not validated in time or expired.',
  params: [param('transaction', transactionRequest, 'transaction request object {from, to, value, fee=12} (SPEC §4.2)'), waitSeconds],
  result: receiptSchema,
  signing: true,
  errors: ['noLocalAccount', 'notFound', 'upstreamUnavailable', 'rateLimited', 'rejected', 'notValidated'],
  examples: [
    {
      name: 'the payment of mainnet ledger 38129, sent from its sender',
      params: [{ from: ledger38129.sender, to: ledger38129.receiver, value: '10000000000', fee: '10' }, 30],
      result: rpcExamples.receipt,
    },
  ],
  async handler([request, seconds], context) {
    await context.sends.take();
    const sent = await context.clients.submission.sendPayment({ from: request.from, to: request.to, valueDrops: request.value, feeDrops: request.fee });
    return receiptOfSent(sent, seconds, context);
  },
});
