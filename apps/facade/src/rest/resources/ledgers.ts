/** REST: ledgers. */
import { z } from 'zod';
import { TxDetail } from '@ledger-node/contracts';
import { NotFound } from '@ledger-node/errors';
import { restLedger } from '../../format/rest';
import { restExamples } from '../../format/examples';
import { defineRoute, type RestErrorMap, type RestTag } from '../define';
import { booleanText, describeSelector, hexHash, ledgerIdentifier, transactionSchema } from '../schemas';

const tag: RestTag = { name: 'ledgers', description: 'Stored (validated) ledgers by index, hash or tag.' };
const errors: RestErrorMap = { not_found: 404 };

const ledgerSchema = z.object({
  ledger_hash: hexHash,
  ledger_index: z.number().int(),
  parent_hash: hexHash,
  total_coins: z.string().regex(/^\d+$/).describe('all native currency in existence, in drops (an integer as a decimal string)'),
  close_time: z.number().int().describe('when the ledger closed, in Unix seconds (JSON-RPC gives Ripple-epoch seconds: Unix seconds minus 946684800)'),
  close_time_human: z.string().describe('when the ledger closed, as rippled prints it: YYYY-Mon-DD HH:MM:SS, UTC'),
  close_time_iso: z.string().describe('when the ledger closed, ISO 8601 with a UTC offset'),
  close_time_resolution: z.number().int().describe('how finely the close time was rounded, in seconds'),
  close_flags: z.number().int(),
  parent_close_time: z.number().int().describe("when the parent ledger closed, in Unix seconds"),
  accounts_hash: hexHash,
  transactions_hash: hexHash,
  transaction_count: z.number().int(),
  transactions: z.union([z.array(hexHash), z.array(transactionSchema)]).optional().describe('transaction hashes (transactions=true) or full transactions (expand=true)'),
});

export const ledgerRoutes = [
  defineRoute({
    method: 'get',
    path: '/ledgers/{ledger}',
    operationId: 'getLedger',
    tag,
    summary: 'A stored ledger by index, hash or tag, optionally with its transaction hashes or full transactions.',
    params: z.object({ ledger: ledgerIdentifier }),
    query: z.object({ transactions: booleanText.describe('include transaction hashes'), expand: booleanText.describe('include full transactions') }).loose(),
    response: z.object({ ledger: ledgerSchema }),
    errors,
    example: { params: { ledger: '38129' }, query: { transactions: 'true' }, response: { ledger: restExamples.ledger } },
    async handler({ params, query }, { queries, profile }) {
      const detail = query.expand ? 'full' : query.transactions ? 'hashes' : 'none';
      const record = await queries.ledger(params.ledger, { none: TxDetail.NONE, hashes: TxDetail.HASHES, full: TxDetail.FULL }[detail]);
      if (!record) throw new NotFound(`ledger ${describeSelector(params.ledger)} is not stored`);
      return { ledger: restLedger(record, detail, profile) };
    },
  }),
];
