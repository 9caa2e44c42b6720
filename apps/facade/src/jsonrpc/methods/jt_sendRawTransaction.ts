import { z } from 'zod';
import { defineMethod, param } from '../method';
import { hexData } from '../params';

export const jt_sendRawTransaction = defineMethod({
  name: 'jt_sendRawTransaction',
  summary: 'Submits a signed transaction (hex) after decoding it and checking its signature, then tracks it: [transaction hash].',
  params: [param('signedTransaction', hexData('the signed transaction').refine((bytes) => bytes.length > 0, 'the signed transaction is empty'), 'DATA, signed transaction as hex')],
  result: z.tuple([z.string().regex(/^[0-9A-F]{64}$/)]),
  async handler([signedBlob], { clients, sends }) {
    await sends.take();
    const sent = await clients.submission.submitSigned({ signedBlob });
    return [sent.hash.toString('hex').toUpperCase()] as [string];
  },
});
