/** REST: an account's balances, transactions and payments. */
import { z } from 'zod';
import { Direction } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';
import { accountIdOf } from '../../accounts/address';
import type { TransactionRecord } from '@ledger-node/contracts';
import type { ChainProfile } from '@ledger-node/chain';
import { accountProof } from '../../accounts/proof';
import { accountState, type AccountState } from '../../accounts/state';
import { ledger38129, restExamples, stateProofExample } from '../../format/examples';
import { restTransaction } from '../../format/rest';
import { stateProofSchema } from '../../format/schemas';
import type { MethodContext } from '../../jsonrpc/method';
import { accountAddress, stateBlockSelector } from '../../jsonrpc/params';
import { defineRoute, type RestErrorMap, type RestTag } from '../define';
import { hexHash, pagingQuery, transactionSchema } from '../schemas';
import { dropsToUnits } from '../units';

const tag: RestTag = { name: 'accounts', description: "Any account's balances, transactions and payments, as the stored ledgers hold them." };
const errors: RestErrorMap = { not_found: 404, account_not_found: 404, out_of_range: 404, not_synced: 503 };

const addressParams = z.object({ address: accountAddress.describe('the account address') });

/** `CURRENCY:ISSUER[,CURRENCY:ISSUER]`: the trust lines of a proof. */
const trustLineList = z
  .string()
  .regex(/^[^:,]+:[1-9A-HJ-NP-Za-km-z]{25,35}(,[^:,]+:[1-9A-HJ-NP-Za-km-z]{25,35}){0,63}$/, 'expected CURRENCY:ISSUER, comma-separated, at most 64')
  .transform((text) =>
    text.split(',').map((line) => {
      const [currency, issuer] = line.split(':') as [string, string];
      return { currency, issuer };
    }),
  );

const drops = z.string().regex(/^\d+$/).optional().describe('the same amount in drops (an integer as a decimal string); only for the native currency');

/**
 * An account's balances as REST shows them: `value` in units of its currency (the native currency in
 * whole units, e.g. "1.5" XRP, with `drops` beside it), each trust line's from the account's side.
 */
export function restBalances(state: Pick<AccountState, 'balance' | 'lines'>, profile: ChainProfile) {
  return [
    { currency: profile.nativeCurrency, value: dropsToUnits(state.balance, profile.dropsPerUnit), drops: state.balance },
    ...state.lines.map((line) => ({ currency: line.currency, counterparty: line.account, value: line.balance })),
  ];
}

/** A payment as /payments lists it: `amount` in units of its currency, and `drops` too for the native currency. */
export function restPayment(record: TransactionRecord, profile: ChainProfile) {
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
    ...(native ? { drops: amount } : {}),
    result: String(meta.TransactionResult),
  };
}

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
    operationId: 'getAccountBalances',
    tag,
    summary: "An account's native balance and trust-line balances at a ledger (default: the latest validated).",
    params: addressParams,
    query: z.object({ ledger: stateBlockSelector.optional().describe('ledger index, hash, or current / validated / closed (default validated)') }).loose(),
    response: z.object({
      account: z.string(),
      ledger_index: z.number().int(),
      ledger_hash: hexHash,
      validated: z.boolean(),
      balances: z.array(
        z.object({
          currency: z.string(),
          counterparty: z.string().optional().describe("the trust line's other account"),
          value: z.string().describe('the balance in units of the currency, a decimal string (the native currency in whole units, not drops)'),
          drops,
        }),
      ),
    }),
    errors,
    example: { params: { address: ledger38129.lineHolder }, query: { ledger: '38129' }, response: restExamples.balances },
    async handler({ params, query }, context) {
      const ledger = query.ledger ?? stateBlockSelector.parse('validated');
      const state = await accountState(params.address, accountIdOf(params.address, context.profile), ledger, context);
      return {
        account: params.address,
        ledger_index: state.ledgerIndex,
        ledger_hash: state.ledgerHash,
        validated: true,
        balances: restBalances(state, context.profile),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/accounts/{address}/transactions',
    operationId: 'listAccountTransactions',
    tag,
    summary: "An account's transactions, a page at a time (limit, marker), optionally of one type.",
    params: addressParams,
    query: pagingQuery.extend({ type: z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a transaction type such as Payment').optional() }).loose(),
    response: z.object({ account: z.string(), transactions: z.array(transactionSchema), marker: z.string().optional().describe('give it back as marker for the next page') }),
    errors,
    example: { params: { address: ledger38129.sender }, query: { limit: '1', descending: 'true' }, response: { account: ledger38129.sender, transactions: [restExamples.transaction] } },
    async handler({ params, query }, context) {
      const { records, marker } = await accountTransactions(params.address, query, query.type ?? '', context);
      return { account: params.address, transactions: records.map((record) => restTransaction(record, context.profile)), ...(marker ? { marker } : {}) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/accounts/{address}/payments',
    operationId: 'listAccountPayments',
    tag,
    summary: "An account's payments, a page at a time: source, destination, amount and result.",
    params: addressParams,
    query: pagingQuery,
    response: z.object({
      account: z.string(),
      payments: z.array(
        z.object({
          hash: hexHash,
          ledger_index: z.number().int(),
          date: z.string().describe("when the payment's ledger closed, ISO 8601 with a UTC offset"),
          source: z.string(),
          destination: z.string(),
          currency: z.string(),
          issuer: z.string().optional().describe('the issuer of a currency other than the native one'),
          amount: z.string().describe('the amount sent in units of the currency, a decimal string (the native currency in whole units, not drops)'),
          drops,
          result: z.string().describe('the transaction result, e.g. tesSUCCESS'),
        }),
      ),
      marker: z.string().optional().describe('give it back as marker for the next page'),
    }),
    errors,
    example: { params: { address: ledger38129.sender }, query: { limit: '1' }, response: { account: ledger38129.sender, payments: [restExamples.payment] } },
    async handler({ params, query }, context) {
      const { records, marker } = await accountTransactions(params.address, query, 'Payment', context);
      return { account: params.address, payments: records.map((record) => restPayment(record, context.profile)), ...(marker ? { marker } : {}) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/accounts/{address}/proof',
    operationId: 'getAccountProof',
    tag,
    summary:
      "A proof of an account's state at a recent ledger (jt_getProof): its AccountRoot and the trust lines named, with their paths to account_hash and the validations that proved the ledger; check it with ledger-node verify-proof.",
    params: addressParams,
    query: z
      .object({
        ledger: stateBlockSelector.optional().describe('ledger index, hash, or current / validated / closed (default: the newest ledger a proof is served for)'),
        lines: trustLineList.optional().describe('trust lines to prove beside the AccountRoot: CURRENCY:ISSUER, comma-separated (e.g. USD:r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx)'),
      })
      .loose(),
    response: stateProofSchema,
    errors,
    example: { params: { address: ledger38129.lineHolder }, query: { ledger: '38129', lines: 'USD:r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx' }, response: stateProofExample },
    handler: ({ params, query }, context) => accountProof(params.address, query.ledger ?? stateBlockSelector.parse('validated'), query.lines ?? [], context),
  }),
];
