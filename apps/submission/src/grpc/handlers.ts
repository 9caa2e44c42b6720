import { SubmissionState, type Submission, type SubmissionServiceService } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';
import type { Handlers } from '@ledger-node/grpc';
import type { Forwarder } from '../forward/forwarder';
import type { PathFinder } from '../forward/path-finder';
import type { Payments, SubmitResult } from '../payments';
import type { SendingGate } from '../sender-lock';
import type { SubmissionBook, SubmissionRecord, SubmissionStateName } from '../tracking/book';

const stateOf: Record<SubmissionStateName, SubmissionState> = {
  pending: SubmissionState.PENDING,
  validated: SubmissionState.VALIDATED,
  expired: SubmissionState.EXPIRED,
  rejected: SubmissionState.REJECTED,
  failed: SubmissionState.FAILED,
  held: SubmissionState.HELD,
};

/** A send's answer: the record as it stands, and whether the transaction is or will be in a ledger. */
const sent = ({ record, accepted }: SubmitResult) => ({
  hash: Buffer.from(record.hash, 'hex'),
  submissionId: record.id,
  engineResult: record.engineResult,
  engineResultMessage: record.engineResultMessage,
  accepted,
});

function toSubmission(record: SubmissionRecord): Submission {
  return {
    submissionId: record.id,
    hash: Buffer.from(record.hash, 'hex'),
    state: stateOf[record.state],
    engineResult: record.engineResult,
    engineResultMessage: record.engineResultMessage,
    ledgerIndex: record.ledgerIndex,
    submittedAtUnixMs: BigInt(record.submittedAtUnixMs),
    account: record.account,
    sequence: record.sequence,
    lastLedgerSequence: record.lastLedgerSequence,
  };
}

const paymentRequest = (request: { from: string; to: string; valueDrops: bigint; feeDrops?: bigint; sequence?: number }) => ({
  from: request.from,
  to: request.to,
  valueDrops: request.valueDrops,
  feeDrops: request.feeDrops,
  sequence: request.sequence,
});

/**
 * `gate` refuses signing and sending while this process is a standby (sender-lock.ts); forwards
 * read nothing a standby could get wrong, but submit_multisigned sends, so it waits on the gate too.
 */
export function submissionHandlers(payments: Payments, book: SubmissionBook, forwarder: Forwarder, pathFinder: PathFinder, gate?: SendingGate): Handlers<typeof SubmissionServiceService> {
  return {
    async signPayment(request) {
      gate?.requireSender();
      const signed = await payments.sign(paymentRequest(request));
      return {
        signedBlob: Buffer.from(signed.blob, 'hex'),
        hash: Buffer.from(signed.hash, 'hex'),
        sequence: signed.sequence,
        feeDrops: signed.feeDrops,
        lastLedgerSequence: signed.lastLedgerSequence,
      };
    },
    async sendPayment(request) {
      gate?.requireSender();
      return sent(await payments.send(paymentRequest(request)));
    },
    async submitSigned(request) {
      gate?.requireSender();
      if (request.signedBlob.length === 0) throw new InvalidParams('the signed transaction is empty', 'signedTransaction');
      return sent(await payments.submitSigned(request.signedBlob.toString('hex')));
    },
    async getSubmission(request) {
      const lookup = request.lookup;
      if (!lookup) throw new InvalidParams('give a submission id or a transaction hash', 'lookup');
      const record = lookup.$case === 'submissionId' ? book.get(lookup.submissionId) : book.getByHash(lookup.hash.toString('hex'));
      return { submission: record && toSubmission(record) };
    },
    async listSubmissions() {
      return { submissions: book.open().map(toSubmission) };
    },
    async forward(request) {
      if (request.command === 'submit_multisigned') gate?.requireSender();
      const { answer, error } = await forwarder.forward(request.command, request.paramsJson, request.apiVersion);
      return { answerJson: JSON.stringify(answer), error };
    },
    async *findPaths(request, { signal }) {
      for await (const { message, error } of pathFinder.find(request.paramsJson, request.apiVersion, signal)) yield { messageJson: JSON.stringify(message), error };
    },
  };
}
