import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { SUBMISSION_STATES } from '@ledger-node/chain';
import { Direction, TxDetail, type LedgerSelector } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError, NotFound, type ErrorKind } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import { accountIdOf } from '../accounts/address';
import { accountState } from '../accounts/state';
import { submissionStateName } from '../format/records';
import { restLedger, restTransaction } from '../format/rest';
import type { MethodContext } from '../jsonrpc/method';
import { maxHistoryPage } from '../jsonrpc/methods/jt_account';
import { accountAddress, blockHash, blockNumberOrTag, hash32, hexData, stateBlockSelector } from '../jsonrpc/params';
import { defineRoute, mountRoutes, noParams, noQuery, PayloadTooLarge, type RestRoute } from './define';
import { openApiDocument } from './openapi';

const httpStatusByKind: Record<ErrorKind, number> = {
  invalid_params: 400,
  not_found: 404,
  not_synced: 503,
  out_of_range: 404,
  account_not_found: 404,
  no_local_account: 404,
  upstream_unavailable: 502,
  rejected: 422,
  unauthorized: 401,
  unavailable: 503,
  conflict: 409,
  unimplemented: 501,
  rate_limited: 429,
  not_validated: 504,
  internal: 500,
};

/** REST errors: `{ "error": { "code", "message" } }` with the matching HTTP status. */
export function restErrors(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: { code: 'not_found', message: `no route ${ctx.method} ${ctx.path}` } };
      }
    } catch (error) {
      if (isLedgerNodeError(error) && error.kind !== 'internal') {
        ctx.status = error instanceof PayloadTooLarge ? 413 : httpStatusByKind[error.kind];
        ctx.body = { error: { code: error.kind, message: error.message } };
        const retryAfterMs = error.details.data?.retry_after_ms;
        if (typeof retryAfterMs === 'number') ctx.set('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
        return;
      }
      logger.error({ err: error, path: ctx.path }, 'internal error in REST route');
      ctx.status = 500;
      ctx.body = { error: { code: 'internal', message: 'internal error' } };
    }
  };
}

/** Drops as a decimal amount of the native unit ("1234567" drops → "1.234567"). */
export function dropsToUnits(drops: string, dropsPerUnit: bigint): string {
  const value = BigInt(drops);
  const whole = value / dropsPerUnit;
  const fraction = (value % dropsPerUnit).toString().padStart(dropsPerUnit.toString().length - 1, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

const hexHash = z.string().regex(/^[0-9A-F]{64}$/);
const booleanText = z.enum(['true', 'false']).optional().transform((value) => value === 'true');
const ledgerIdentifier = z
  .string()
  .describe('a ledger index, a 64-hex-digit ledger hash, or a tag: validated, closed, current, latest, pending, earliest')
  .transform((value, ctx) => {
    const parsed = (/^(0x)?[0-9a-fA-F]{64}$/.test(value) ? blockHash : blockNumberOrTag).safeParse(value);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: 'expected a ledger index, a ledger hash or a tag' });
      return z.NEVER;
    }
    return parsed.data;
  });
const pageLimit = z
  .string()
  .regex(/^\d+$/, 'expected a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'expected at least 1').max(maxHistoryPage, `expected at most ${maxHistoryPage}`))
  .optional()
  .describe(`page size, 1 to ${maxHistoryPage} (default 20)`);
const pageMarker = z.string().regex(/^([0-9a-f]{2})+$/, 'expected the marker of a previous page').optional().describe('marker of the next page, from a previous answer');

function describeSelector(ledger: LedgerSelector): string {
  const selector = ledger.selector;
  if (selector?.$case === 'index') return String(selector.index);
  if (selector?.$case === 'hash') return selector.hash.toString('hex').toUpperCase();
  return 'of that tag';
}

const transactionSchema = z.object({
  hash: hexHash,
  ledger_index: z.number().int(),
  ledger_hash: hexHash,
  date: z.string(),
  tx: z.looseObject({ TransactionType: z.string(), Account: z.string() }),
  meta: z.looseObject({ TransactionResult: z.string() }),
});
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
const addressParams = z.object({ address: accountAddress });

/** One page of an account's transactions (optionally of one type), oldest first unless descending. */
async function accountTransactions(
  address: string,
  query: { limit?: number; marker?: string; descending: boolean },
  transactionType: string,
  context: MethodContext,
) {
  const { clients, profile } = context;
  if (query.limit !== undefined && query.limit > context.maxPageSize) throw new InvalidParams(`invalid limit: expected at most ${context.maxPageSize}`, 'limit');
  const page = await clients.ledgerStore.getAccountTransactions({
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

const pagingQuery = z.object({ limit: pageLimit, marker: pageMarker, descending: booleanText.describe('newest first when true') }).loose();

/** Every REST route, in the order the OpenAPI document lists them. */
export const restRouteDefinitions: readonly RestRoute[] = [
  defineRoute({
    method: 'get',
    path: '/ledgers/{ledger}',
    summary: 'A stored ledger by index, hash or tag, optionally with its transaction hashes or full transactions.',
    params: z.object({ ledger: ledgerIdentifier }),
    query: z.object({ transactions: booleanText.describe('include transaction hashes'), expand: booleanText.describe('include full transactions') }).loose(),
    response: z.object({ ledger: ledgerSchema }),
    errors: [404],
    async handler({ params, query }, { clients, profile }) {
      const detail = query.expand ? 'full' : query.transactions ? 'hashes' : 'none';
      const txDetail = { none: TxDetail.NONE, hashes: TxDetail.HASHES, full: TxDetail.FULL }[detail];
      const { ledger: record } = await clients.ledgerStore.getLedger({ ledger: params.ledger, txDetail });
      if (!record) throw new NotFound(`ledger ${describeSelector(params.ledger)} is not stored`);
      return { ledger: restLedger(record, detail, profile) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/transactions/{hash}',
    summary: 'A validated transaction by hash, with its metadata.',
    params: z.object({ hash: hash32 }),
    query: noQuery,
    response: z.object({ transaction: transactionSchema }),
    errors: [404],
    async handler({ params }, { clients, profile }) {
      const { transaction } = await clients.ledgerStore.getTransaction({ hash: params.hash });
      if (!transaction) throw new NotFound(`transaction ${params.hash.toString('hex').toUpperCase()} is not stored`);
      return { transaction: restTransaction(transaction, profile) };
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
    errors: [422, 429, 502],
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
  defineRoute({
    method: 'get',
    path: '/submissions/{id}',
    summary: 'Where a submitted transaction stands: pending, validated, expired, rejected or failed.',
    params: z.object({ id: z.string().min(1).max(100) }),
    query: noQuery,
    response: z.object({ submission: submissionSchema }),
    errors: [404],
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
  defineRoute({
    method: 'get',
    path: '/local-accounts',
    summary: "The node's local accounts (keys held by the keystore): address, nickname, key type, creation time.",
    params: noParams,
    query: noQuery,
    response: z.object({ accounts: z.array(z.object({ address: z.string(), nickname: z.string().nullable(), key_type: z.enum(['secp256k1', 'ed25519']), created: z.string() })) }),
    errors: [503],
    async handler(_input, { clients }) {
      const { accounts } = await clients.keystore.listAccounts({});
      return {
        accounts: accounts.map((account) => ({
          address: account.address,
          nickname: account.nickname === '' ? null : account.nickname,
          key_type: account.keyType === 2 ? ('ed25519' as const) : ('secp256k1' as const),
          created: new Date(Number(account.createdAtUnixMs)).toISOString(),
        })),
      };
    },
  }),
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
    errors: [404],
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
    errors: [404],
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
    errors: [404],
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
  defineRoute({
    method: 'get',
    path: '/status',
    summary: 'What the node holds and how its sync stands: stored ranges, counts, upstream, lag, backfill progress.',
    params: noParams,
    query: noQuery,
    response: z.object({
      chain: z.string(),
      native_currency: z.string().describe('code of the native currency, counted in drops'),
      drops_per_unit: z.string().regex(/^\d+$/).describe('drops in one unit of the native currency'),
      store: z.object({
        complete_ranges: z.array(z.string()),
        lowest_ledger_index: z.number().int().nullable(),
        highest_ledger_index: z.number().int().nullable(),
        ledger_count: z.number().int(),
        transaction_count: z.number().int(),
        db_size_bytes: z.number().int(),
      }),
      sync: z.looseObject({ enabled: z.boolean() }),
    }),
    errors: [503],
    async handler(_input, { clients, profile, syncEnabled, syncStatus }) {
      const [store, sync] = await Promise.all([
        clients.ledgerStore.getStatus({}),
        syncEnabled ? syncStatus.status().catch((error: Error) => ({ error: error.message })) : undefined,
      ]);
      return {
        chain: profile.id,
        native_currency: profile.nativeCurrency,
        drops_per_unit: profile.dropsPerUnit.toString(),
        store: {
          complete_ranges: store.completeRanges.map((range) => `${range.first}-${range.last}`),
          lowest_ledger_index: store.lowestLedgerIndex ?? null,
          highest_ledger_index: store.highestLedgerIndex ?? null,
          ledger_count: Number(store.ledgerCount),
          transaction_count: Number(store.transactionCount),
          db_size_bytes: Number(store.dbSizeBytes),
        },
        sync:
          sync === undefined
            ? { enabled: false }
            : 'error' in sync
              ? { enabled: true, error: sync.error }
              : {
                  enabled: true,
                  syncing: sync.syncing,
                  upstream_url: sync.upstreamUrl,
                  upstream_connected: sync.upstreamConnected,
                  starting_ledger_index: sync.startingLedgerIndex,
                  current_ledger_index: sync.currentLedgerIndex,
                  highest_ledger_index: sync.highestLedgerIndex,
                  lag_ledgers: sync.lagLedgers,
                  state_ready: sync.stateReady,
                  backfill: {
                    ledgers_per_second: sync.backfillLedgersPerSecond,
                    remaining_ledgers: Number(sync.backfillRemainingLedgers),
                    eta_seconds: sync.backfillEtaSeconds ?? null,
                  },
                  verification_failures: Number(sync.verificationFailureCount),
                  verification_failures_by_reason: Object.fromEntries(Object.entries(sync.verificationFailuresByReason).map(([reason, count]) => [reason, Number(count)])),
                  index_failures: Number(sync.indexFailureCount),
                  last_index_failure: sync.lastIndexFailure ?? null,
                  stopped: sync.stopped ?? null,
                  anchor_proof: sync.anchorProof,
                },
      };
    },
  }),
];

export function restRoutes(context: MethodContext, maxBodyBytes = 1024 * 1024): Router {
  const router = mountRoutes(restRouteDefinitions, context, maxBodyBytes);
  const document = openApiDocument(restRouteDefinitions);
  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}
