/** REST: transactions, read by hash and sent signed. */
import { z } from 'zod';
import { NotFound } from '@ledger-node/errors';
import { restTransaction } from '../../format/rest';
import { hash32, hexData } from '../../jsonrpc/params';
import { defineRoute, noParams, noQuery, type RestErrorMap } from '../define';
import { hexHash, transactionSchema } from '../schemas';

const errors: RestErrorMap = { not_found: 404, rejected: 422, upstream_unavailable: 502, conflict: 409 };

export const transactionRoutes = [
  defineRoute({
    method: 'get',
    path: '/transactions/{hash}',
    summary: 'A validated transaction by hash, with its metadata.',
    params: z.object({ hash: hash32 }),
    query: noQuery,
    response: z.object({ transaction: transactionSchema }),
    errors,
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
    method: 'post',
    path: '/transactions',
    summary: 'Submits a signed transaction (hex) after checking its signature, and tracks it; accepted: whether it is or will be in a ledger (tesSUCCESS, tec, terQUEUED).',
    params: noParams,
    query: noQuery,
    body: z.object({ tx_blob: hexData('tx_blob').refine((bytes) => bytes.length > 0, 'the signed transaction is empty') }),
    response: z.object({ hash: hexHash, submission_id: z.string(), engine_result: z.string(), engine_result_message: z.string(), accepted: z.boolean() }),
    errors,
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
