import { z } from 'zod';
import { defineMethod, param } from '../method';
import { transactionRequest } from '../params';

export const jt_sendTransaction = defineMethod({
  name: 'jt_sendTransaction',
  summary: 'Builds, signs and submits a native payment, then tracks it: [transaction hash]. A rejected transaction is an error carrying its engine result.',
  params: [param('transaction', transactionRequest, 'transaction request object {from, to, value, fee=12} (SPEC §4.2)')],
  result: z.tuple([z.string().regex(/^[0-9A-F]{64}$/)]),
  signing: true,
  async handler([request], { clients, sends }) {
    await sends.take();
    const sent = await clients.submission.sendPayment({ from: request.from, to: request.to, valueDrops: request.value, feeDrops: request.fee });
    return [sent.hash.toString('hex').toUpperCase()] as [string];
  },
});
