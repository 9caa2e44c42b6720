/** REST: ledgers. */
import { z } from 'zod';
import { TxDetail } from '@ledger-node/contracts';
import { NotFound } from '@ledger-node/errors';
import { restLedger } from '../../format/rest';
import { defineRoute, type RestErrorMap } from '../define';
import { booleanText, describeSelector, hexHash, ledgerIdentifier, transactionSchema } from '../schemas';

const errors: RestErrorMap = { not_found: 404 };

const ledgerSchema = z.object({
  ledger_hash: hexHash,
  ledger_index: z.number().int(),
  parent_hash: hexHash,
  total_coins: z.string(),
  close_time: z.number().int(),
  close_time_human: z.string(),
  close_time_iso: z.string(),
  close_time_resolution: z.number().int(),
  close_flags: z.number().int(),
  parent_close_time: z.number().int(),
  accounts_hash: hexHash,
  transactions_hash: hexHash,
  transaction_count: z.number().int(),
  transactions: z.union([z.array(hexHash), z.array(transactionSchema)]).optional(),
});

export const ledgerRoutes = [
  defineRoute({
    method: 'get',
    path: '/ledgers/{ledger}',
    summary: 'A stored ledger by index, hash or tag, optionally with its transaction hashes or full transactions.',
    params: z.object({ ledger: ledgerIdentifier }),
    query: z.object({ transactions: booleanText.describe('include transaction hashes'), expand: booleanText.describe('include full transactions') }).loose(),
    response: z.object({ ledger: ledgerSchema }),
    errors,
    async handler({ params, query }, { queries, profile }) {
      const detail = query.expand ? 'full' : query.transactions ? 'hashes' : 'none';
      const record = await queries.ledger(params.ledger, { none: TxDetail.NONE, hashes: TxDetail.HASHES, full: TxDetail.FULL }[detail]);
      if (!record) throw new NotFound(`ledger ${describeSelector(params.ledger)} is not stored`);
      return { ledger: restLedger(record, detail, profile) };
    },
  }),
];
