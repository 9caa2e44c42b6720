/** REST: where a submitted transaction stands. */
import { z } from 'zod';
import { SUBMISSION_STATES } from '@ledger-node/chain';
import { NotFound } from '@ledger-node/errors';
import { submissionStateName } from '../../format/records';
import { defineRoute, noQuery, type RestErrorMap } from '../define';
import { hexHash } from '../schemas';

const errors: RestErrorMap = { not_found: 404 };

const submissionSchema = z.object({
  id: z.string(),
  hash: hexHash,
  state: z.enum(SUBMISSION_STATES),
  engine_result: z.string(),
  engine_result_message: z.string(),
  ledger_index: z.number().int().nullable(),
  account: z.string(),
  sequence: z.number().int(),
  last_ledger_sequence: z.number().int(),
  submitted_at: z.string(),
});

export const submissionRoutes = [
  defineRoute({
    method: 'get',
    path: '/submissions/{id}',
    summary: 'Where a submitted transaction stands: pending, validated, expired, rejected or failed.',
    params: z.object({ id: z.string().min(1).max(100) }),
    query: noQuery,
    response: z.object({ submission: submissionSchema }),
    errors,
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
