import { z } from 'zod';
import { defineMethod, param } from '../method';
import { hexData } from '../params';
import { genesisSigned } from '../../format/examples';

/** See docs/api.md "Verifying a jt_sign signature" for the message prefix and how to verify the signature. */
export const jt_sign = defineMethod({
  name: 'jt_sign',
  summary: "Signs a message with a local account's key, after the chain's message prefix; the signature as 0x-prefixed DER hex.",
  params: [
    param('address', z.string({ error: 'expected a local account address or nickname' }).min(1), 'DATA, local account address (or nickname)'),
    param('message', hexData('the message'), 'DATA, the message bytes as hex'),
  ],
  result: z.string().regex(/^0x[0-9a-f]+$/),
  signing: true,
  errors: ['noLocalAccount'],
  examples: [{ name: 'the message "hello"', params: [genesisSigned.address, genesisSigned.message.hex], result: genesisSigned.message.signature }],
  async handler([account, message], { clients }) {
    const { signature } = await clients.keystore.signMessage({ account, message });
    return `0x${signature.toString('hex')}`;
  },
});
