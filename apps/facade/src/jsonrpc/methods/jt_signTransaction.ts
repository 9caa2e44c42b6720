import { z } from 'zod';
import { defineMethod, param } from '../method';
import { transactionRequest } from '../params';
import { genesisSigned } from '../../format/examples';

export const jt_signTransaction = defineMethod({
  name: 'jt_signTransaction',
  summary: 'Builds and signs a native payment (autofilled Sequence and LastLedgerSequence) without submitting it: [signed transaction hex].',
  params: [param('transaction', transactionRequest, 'transaction request object {from, to, value, fee=12} (SPEC §4.2)')],
  result: z.tuple([z.string().regex(/^[0-9A-F]+$/)]),
  signing: true,
  errors: ['noLocalAccount', 'notFound', 'upstreamUnavailable'],
  examples: [{ name: 'a payment of 1 000 000 drops', params: [genesisSigned.payment.request], result: [genesisSigned.payment.blob] }],
  async handler([request], { clients }) {
    const signed = await clients.submission.signPayment({ from: request.from, to: request.to, valueDrops: request.value, feeDrops: request.fee });
    return [signed.signedBlob.toString('hex').toUpperCase()] as [string];
  },
});
