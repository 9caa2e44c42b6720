/** REST: where a submitted transaction stands. */
import { z } from 'zod';
import { SUBMISSION_STATES } from '@ledger-node/chain';
import { NotFound } from '@ledger-node/errors';
import { submissionStateName } from '../../format/records';
import { genesisSigned } from '../../format/examples';
import { defineRoute, noQuery, type RestErrorMap, type RestTag } from '../define';
import { hexHash } from '../schemas';

const tag: RestTag = { name: 'submissions', description: 'Where the transactions this node sent stand.' };
// A read-only node (-read_only) has no submission service.
const errors: RestErrorMap = { not_found: 404, unimplemented: 501 };

const submissionSchema = z.object({
  id: z.string(),
  hash: hexHash,
  state: z.enum(SUBMISSION_STATES),
  engine_result: z.string(),
  engine_result_message: z.string(),
  ledger_index: z.number().int().nullable().describe('the ledger that validated it, null until then'),
  account: z.string(),
  sequence: z.number().int(),
  last_ledger_sequence: z.number().int().describe('the last ledger that may hold it: past it, the transaction has expired'),
  submitted_at: z.string().describe('when the node sent it, ISO 8601 in UTC'),
});

export const submissionRoutes = [
  defineRoute({
    method: 'get',
    path: '/submissions/{id}',
    operationId: 'getSubmission',
    tag,
    summary: 'Where a submitted transaction stands: pending, validated, expired, rejected or failed.',
    params: z.object({ id: z.string().min(1).max(100).describe('the submission id, or the transaction hash (64 hex digits)') }),
    query: noQuery,
    response: z.object({ submission: submissionSchema }),
    errors,
    example: {
      params: { id: genesisSigned.payment.hash },
      response: {
        submission: {
          id: '5b0f7c1e-9f3a-4d2b-8c61-2a7e4f0d9b13',
          hash: genesisSigned.payment.hash,
          state: 'validated',
          engine_result: 'tesSUCCESS',
          engine_result_message: 'The transaction was applied. Only final in a validated ledger.',
          ledger_index: 6,
          account: genesisSigned.address,
          sequence: 1,
          last_ledger_sequence: 25,
          submitted_at: '2026-03-02T10:15:04.512Z',
        },
      },
    },
    async handler({ params }, { clients }) {
      const lookup = /^[0-9a-fA-F]{64}$/.test(params.id)
        ? ({ $case: 'hash', hash: Buffer.from(params.id, 'hex') } as const)
        : ({ $case: 'submissionId', submissionId: params.id } as const);
      const { submission } = await clients.submission.getSubmission({ lookup });
      if (!submission) throw new NotFound(`no submission ${params.id}`);
      return {
        submission: {
          id: submission.submissionId,
          hash: submission.hash.toString('hex').toUpperCase(),
          state: submissionStateName(submission.state),
          engine_result: submission.engineResult,
          engine_result_message: submission.engineResultMessage,
          ledger_index: submission.ledgerIndex ?? null,
          account: submission.account,
          sequence: submission.sequence,
          last_ledger_sequence: submission.lastLedgerSequence,
          submitted_at: new Date(Number(submission.submittedAtUnixMs)).toISOString(),
        },
      };
    },
  }),
];
