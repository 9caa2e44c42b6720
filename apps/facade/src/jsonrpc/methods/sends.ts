import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ZERO_HASH } from '@ledger-node/chain';
import { NotValidated, Rejected } from '@ledger-node/errors';
import { currentCallScope, throwIfCancelled } from '@ledger-node/grpc';
import { param, type MethodContext } from '../method';
import { receiptObject, submissionStateName } from '../../format/records';
import { answerByHash } from './transactions';

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

/** How long a submit-and-wait call waits for the validated receipt, by default and at most. */
export const DEFAULT_WAIT_SECONDS = 30;
export const MAX_WAIT_SECONDS = 120;
/** How often a waiting call looks for the receipt (a ledger closes every few seconds). */
const LOOK_EVERY_MS = 250;

export const waitSeconds = param(
  'timeoutSeconds',
  z.number({ error: `expected whole seconds from 1 to ${MAX_WAIT_SECONDS}` }).int().min(1).max(MAX_WAIT_SECONDS).default(DEFAULT_WAIT_SECONDS),
  `INT, seconds to wait for the validated receipt (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS})`,
  { optional: true },
);

/**
 * Submit and wait (after EIP-7966's eth_sendRawTransactionSync): the validated receipt of a sent
 * transaction, once the node has stored the ledger holding it. One that cannot enter a ledger is
 * a -32006 error with its engine result at once; one not validated when `seconds` pass, or expired
 * before, is a -32014 error whose data names its hash and where it stands (pending, held, expired).
 */
export async function receiptOfSent(
  sent: { hash: Buffer; accepted: boolean; engineResult: string; engineResultMessage: string },
  seconds: number,
  context: MethodContext,
) {
  const hash = sent.hash.toString('hex').toUpperCase();
  const deadline = Date.now() + seconds * 1000;
  const signal = currentCallScope()?.signal;
  for (;;) {
    const receipt = await answerByHash('receipt', sent.hash, context, (record) => receiptObject(record, context.profile));
    if (receipt) return receipt;
    const { submission } = await context.clients.submission.getSubmission({ lookup: { $case: 'hash', hash: sent.hash } });
    const state = submission ? submissionStateName(submission.state) : 'unknown';
    if (state === 'rejected' || (!sent.accepted && state === 'failed')) {
      throw new Rejected(`transaction ${hash} cannot enter a ledger: ${sent.engineResult} (${sent.engineResultMessage})`, sent.engineResult, { hash, state });
    }
    if (state === 'expired') {
      throw new NotValidated(`transaction ${hash} expired: a validated ledger past its LastLedgerSequence ${submission!.lastLedgerSequence} does not hold it`, {
        hash,
        state,
        last_ledger_sequence: submission!.lastLedgerSequence,
      });
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new NotValidated(`transaction ${hash} not validated within ${seconds} s: it is ${state}`, { hash, state });
    // Only a caller gone ends the pause early: then the wait ends too.
    await sleep(Math.min(LOOK_EVERY_MS, left), undefined, { signal }).catch(() => throwIfCancelled(signal));
  }
}
