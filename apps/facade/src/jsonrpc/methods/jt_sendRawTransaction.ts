import { defineMethod, param } from '../method';
import { hexData } from '../params';
import { sendAnswer, sendResult } from './sends';
import { genesisSigned } from '../../format/examples';

export const jt_sendRawTransaction = defineMethod({
  name: 'jt_sendRawTransaction',
  summary:
    'Submits a signed transaction (hex) after decoding it and checking its signature, then tracks it: [transaction hash] when it is or will be in a ledger, [zero hash] when it does not exist.',
  params: [param('signedTransaction', hexData('the signed transaction').refine((bytes) => bytes.length > 0, 'the signed transaction is empty'), 'DATA, signed transaction as hex')],
  result: sendResult,
  errors: ['upstreamUnavailable', 'rateLimited'],
  examples: [{ name: 'a signed payment', params: [genesisSigned.payment.blob], result: [genesisSigned.payment.hash] }],
  async handler([signedBlob], { clients, sends }) {
    await sends.take();
    return sendAnswer(await clients.submission.submitSigned({ signedBlob }));
  },
});
