/** REST: an account's balances, transactions and payments. */
import { z } from 'zod';
import { Direction } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';
import { accountIdOf } from '../../accounts/address';
import { accountState } from '../../accounts/state';
import { restTransaction } from '../../format/rest';
import type { MethodContext } from '../../jsonrpc/method';
import { accountAddress, stateBlockSelector } from '../../jsonrpc/params';
import { defineRoute, type RestErrorMap } from '../define';
import { hexHash, pagingQuery, transactionSchema } from '../schemas';
import { dropsToUnits } from '../units';

const errors: RestErrorMap = { not_found: 404, account_not_found: 404, out_of_range: 404, not_synced: 503 };

const addressParams = z.object({ address: accountAddress });

/** One page of an account's transactions (optionally of one type), oldest first unless descending. */
async function accountTransactions(
  address: string,
  query: { limit?: number; marker?: string; descending: boolean },
  transactionType: string,
  context: MethodContext,
) {
  const { queries, profile } = context;
  if (query.limit !== undefined && query.limit > context.maxPageSize) throw new InvalidParams(`invalid limit: expected at most ${context.maxPageSize}`, 'limit');
  const page = await queries.accountTransactions({
    accountId: accountIdOf(address, profile),
    direction: Direction.BOTH,
    forward: !query.descending,
    limit: query.limit ?? 20,
    position: query.marker === undefined ? { $case: 'page', page: 0 } : { $case: 'marker', marker: Buffer.from(query.marker, 'hex') },
    ledgerRange: undefined,
    transactionType,
  });
  return { records: page.transactions, marker: page.marker.length > 0 ? page.marker.toString('hex') : undefined };
}

export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/accounts/{address}/balances',
    summary: "An account's native balance and trust-line balances at a ledger (default: the latest validated).",
    params: addressParams,
    query: z.object({ ledger: stateBlockSelector.optional().describe('ledger index, hash, or current / validated / closed (default validated)') }).loose(),
    response: z.object({
      account: z.string(),
      ledger_index: z.number().int(),
      ledger_hash: hexHash,
      validated: z.boolean(),
      balances: z.array(z.object({ currency: z.string(), counterparty: z.string().optional(), value: z.string() })),
    }),
    errors,
    async handler({ params, query }, context) {
      const ledger = query.ledger ?? stateBlockSelector.parse('validated');
      const state = await accountState(params.address, accountIdOf(params.address, context.profile), ledger, context);
      return {
        account: params.address,
        ledger_index: state.ledgerIndex,
        ledger_hash: state.ledgerHash,
        validated: true,
        balances: [
          { currency: context.profile.nativeCurrency, value: dropsToUnits(state.balance, context.profile.dropsPerUnit) },
          ...state.lines.map((line) => ({ currency: line.currency, counterparty: line.account, value: line.balance })),
        ],
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/accounts/{address}/transactions',
    summary: "An account's transactions, a page at a time (limit, marker), optionally of one type.",
    params: addressParams,
    query: pagingQuery.extend({ type: z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a transaction type such as Payment').optional() }).loose(),
    response: z.object({ account: z.string(), transactions: z.array(transactionSchema), marker: z.string().optional() }),
    errors,
    async handler({ params, query }, context) {
      const { records, marker } = await accountTransactions(params.address, query, query.type ?? '', context);
      return { account: params.address, transactions: records.map((record) => restTransaction(record, context.profile)), ...(marker ? { marker } : {}) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/accounts/{address}/payments',
    summary: "An account's payments, a page at a time: source, destination, amount and result.",
    params: addressParams,
    query: pagingQuery,
    response: z.object({
      account: z.string(),
      payments: z.array(
        z.object({
          hash: hexHash,
          ledger_index: z.number().int(),
          date: z.string(),
          source: z.string(),
          destination: z.string(),
          currency: z.string(),
          issuer: z.string().optional(),
          amount: z.string(),
          result: z.string(),
        }),
      ),
      marker: z.string().optional(),
    }),
    errors,
    async handler({ params, query }, context) {
      const { profile } = context;
      const { records, marker } = await accountTransactions(params.address, query, 'Payment', context);
      const payments = records.map((record) => {
        const { tx, meta, hash, ledger_index, date } = restTransaction(record, profile) as { tx: Record<string, any>; meta: Record<string, any>; hash: string; ledger_index: number; date: string };
        const amount = tx.Amount as string | { currency: string; issuer: string; value: string };
        const native = typeof amount === 'string';
        return {
          hash,
          ledger_index,
          date,
          source: String(tx.Account),
          destination: String(tx.Destination),
          currency: native ? profile.nativeCurrency : amount.currency,
          ...(native ? {} : { issuer: amount.issuer }),
          amount: native ? dropsToUnits(amount, profile.dropsPerUnit) : amount.value,
          result: String(meta.TransactionResult),
        };
      });
      return { account: params.address, payments, ...(marker ? { marker } : {}) };
    },
  }),
];
