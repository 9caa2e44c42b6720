import { z } from 'zod';
import { ZERO_HASH } from '@ledger-node/chain';

/** The result of jt_sendTransaction and jt_sendRawTransaction: [hash], shown wrapped in an array (SPEC §4.1). */
export const sendResult = z.tuple([z.string().regex(/^[0-9A-F]{64}$/)]);

/**
 * What a send answers (SPEC §4.1 rules 4 and 6, §7): the hash of a transaction that is or will be
 * in a ledger (tesSUCCESS, tec, terQUEUED: libs/chain outcomes.ts), the zero hash of one that does
 * not exist.
 */
export function sendAnswer(sent: { hash: Buffer; accepted: boolean }): [string] {
  return [sent.accepted ? sent.hash.toString('hex').toUpperCase() : ZERO_HASH];
}
