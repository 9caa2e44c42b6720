import { defineMethod, param } from '../method';
import { transactionRequest } from '../params';
import { sendAnswer, sendResult } from './sends';
import { genesisSigned } from '../../format/examples';

export const jt_sendTransaction = defineMethod({
  name: 'jt_sendTransaction',
  summary:
    'Builds, signs and submits a native payment, then tracks it: [transaction hash] when it is or will be in a ledger (tesSUCCESS, tec, terQUEUED; a tec one is in a ledger without its effect, see its receipt), [zero hash] when it does not exist.',
  params: [param('transaction', transactionRequest, 'transaction request object {from, to, value, fee=12} (SPEC §4.2)')],
  result: sendResult,
  signing: true,
  errors: ['noLocalAccount', 'notFound', 'upstreamUnavailable', 'rateLimited'],
  examples: [{ name: 'a payment of 1 000 000 drops', params: [genesisSigned.payment.request], result: [genesisSigned.payment.hash] }],
  async handler([request], { clients, sends }) {
    await sends.take();
    return sendAnswer(await clients.submission.sendPayment({ from: request.from, to: request.to, valueDrops: request.value, feeDrops: request.fee }));
  },
});
