/** REST: transactions, read by hash and sent signed. */
import { z } from 'zod';
import { NotFound } from '@ledger-node/errors';
import { restTransaction } from '../../format/rest';
import { hash32, hexData } from '../../jsonrpc/params';
import { genesisSigned, ledger38129, restExamples } from '../../format/examples';
import { testnetProof } from '../../format/proof-example';
import { transactionProofSchema } from '../../format/schemas';
import { syncSkipLists, transactionProof } from '../../proofs/transaction-proof';
import { defineRoute, noParams, noQuery, type RestErrorMap, type RestTag } from '../define';
import { hexHash, transactionSchema } from '../schemas';

const tag: RestTag = { name: 'transactions', description: 'Validated transactions by hash, and signed transactions sent to the network.' };
const errors: RestErrorMap = { not_found: 404, rejected: 422, upstream_unavailable: 502, conflict: 409 };

export const transactionRoutes = [
  defineRoute({
    method: 'get',
    path: '/transactions/{hash}',
    operationId: 'getTransaction',
    tag,
    summary: 'A validated transaction by hash, with its metadata.',
    params: z.object({ hash: hash32.describe('the transaction hash, 64 hex digits') }),
    query: noQuery,
    response: z.object({ transaction: transactionSchema }),
    errors,
    example: { params: { hash: ledger38129.paymentHash }, response: { transaction: restExamples.transaction } },
    // A stored transaction is validated and never changes: rendered once, then served from the answer cache.
    async handler({ params }, { queries, profile }) {
      const answer = await queries.kept(`rest-tx:${params.hash.toString('hex')}`, async () => {
        const transaction = await queries.transaction(params.hash);
        return transaction && { transaction: restTransaction(transaction, profile) };
      });
      if (!answer) throw new NotFound(`transaction ${params.hash.toString('hex').toUpperCase()} is not stored`);
      return answer;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/{hash}/proof',
    operationId: 'getTransactionProof',
    tag,
    summary:
      "A proof that a validated transaction is in a ledger the network validated (XLS-41 XPOP), the document itself: checkable offline with the publisher's key (ledger-node verify-proof FILE). A ledger stored without validations of its own is proven through the headers up to the nearest later one that has them (ledger_proof header_chain, at most 256 headers); past that, through the headers up to the next 256th ledger and the skip list of a recent validated ledger (ledger_proof skip_list); out_of_range when neither is at hand.",
    params: z.object({ hash: hash32.describe('the transaction hash, 64 hex digits') }),
    query: noQuery,
    response: transactionProofSchema,
    errors: { not_found: 404, out_of_range: 404 },
    example: { params: { hash: testnetProof.hash }, response: testnetProof.xpop },
    async handler({ params }, { queries, profile, clients }) {
      const answer = await transactionProof(params.hash, queries, profile, syncSkipLists(clients));
      if (!answer) throw new NotFound(`transaction ${params.hash.toString('hex').toUpperCase()} is not stored`);
      return answer;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/transactions',
    operationId: 'submitTransaction',
    tag,
    summary: 'Submits a signed transaction (hex) after checking its signature, and tracks it; accepted: whether it is or will be in a ledger (tesSUCCESS, tec, terQUEUED).',
    params: noParams,
    query: noQuery,
    body: z.object({ tx_blob: hexData('tx_blob').refine((bytes) => bytes.length > 0, 'the signed transaction is empty').describe('the signed transaction, hex') }),
    response: z.object({
      hash: hexHash,
      submission_id: z.string().describe('the id of its submission record (GET /v1/submissions/{id})'),
      engine_result: z.string().describe("the upstream's preliminary result, e.g. tesSUCCESS"),
      engine_result_message: z.string(),
      accepted: z.boolean().describe('whether it is or will be in a ledger (tesSUCCESS, tec…, terQUEUED)'),
    }),
    // A read-only node (-read_only) submits nothing.
    errors: { ...errors, unimplemented: 501 },
    example: {
      body: { tx_blob: genesisSigned.payment.blob },
      response: {
        hash: genesisSigned.payment.hash,
        submission_id: '5b0f7c1e-9f3a-4d2b-8c61-2a7e4f0d9b13',
        engine_result: 'tesSUCCESS',
        engine_result_message: 'The transaction was applied. Only final in a validated ledger.',
        accepted: true,
      },
    },
    async handler({ body }, { clients, sends }) {
      await sends.take();
      const sent = await clients.submission.submitSigned({ signedBlob: body.tx_blob });
      return {
        hash: sent.hash.toString('hex').toUpperCase(),
        submission_id: sent.submissionId,
        engine_result: sent.engineResult,
        engine_result_message: sent.engineResultMessage,
        accepted: sent.accepted,
      };
    },
  }),
];
