import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { TxDetail } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError, NotFound, type ErrorKind } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import type { MethodContext } from '../jsonrpc/method';
import { blockHash, blockNumberOrTag, hash32, stateBlockSelector } from '../jsonrpc/params';
import { restLedger, restTransaction } from '../format/rest';
import { accountIdOf } from '../accounts/address';
import { accountState } from '../accounts/state';
import { maxHistoryPage } from '../jsonrpc/methods/jt_account';

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
        ctx.status = httpStatusByKind[error.kind];
        ctx.body = { error: { code: error.kind, message: error.message } };
        return;
      }
      logger.error({ err: error, path: ctx.path }, 'internal error in REST route');
      ctx.status = 500;
      ctx.body = { error: { code: 'internal', message: 'internal error' } };
    }
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidParams(`invalid ${name}: ${result.error.issues[0]?.message ?? 'invalid value'}`, name);
  return result.data;
}

const flag = (value: unknown, name: string) => parse(z.enum(['true', 'false']).optional(), value, name) === 'true';

const pageLimit = z
  .string()
  .regex(/^\d+$/, 'expected a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'expected at least 1').max(maxHistoryPage, `expected at most ${maxHistoryPage}`))
  .optional();
const marker = z.string().regex(/^([0-9a-f]{2})+$/, 'expected the marker of a previous page').optional();

/** Drops as a decimal amount of the native unit ("1234567" drops → "1.234567"). */
export function dropsToUnits(drops: string, dropsPerUnit: bigint): string {
  const value = BigInt(drops);
  const whole = value / dropsPerUnit;
  const fraction = (value % dropsPerUnit).toString().padStart(dropsPerUnit.toString().length - 1, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

export function restRoutes(context: MethodContext): Router {
  const { clients, profile } = context;
  const router = new Router({ prefix: '/v1' });

  router.get('/ledgers/:ledger', async (ctx) => {
    const identifier = ctx.params.ledger!;
    const ledger = /^(0x)?[0-9a-fA-F]{64}$/.test(identifier)
      ? parse(blockHash, identifier, 'ledger')
      : parse(blockNumberOrTag, identifier, 'ledger');
    const transactions = flag(ctx.query.transactions, 'transactions');
    const expand = flag(ctx.query.expand, 'expand');
    const detail = expand ? 'full' : transactions ? 'hashes' : 'none';
    const txDetail = { none: TxDetail.NONE, hashes: TxDetail.HASHES, full: TxDetail.FULL }[detail];
    const { ledger: record } = await clients.ledgerStore.getLedger({ ledger, txDetail });
    if (!record) throw new NotFound(`ledger ${identifier} is not stored`);
    ctx.body = { ledger: restLedger(record, detail, profile) };
  });

  router.get('/transactions/:hash', async (ctx) => {
    const hash = parse(hash32, ctx.params.hash, 'hash');
    const { transaction } = await clients.ledgerStore.getTransaction({ hash });
    if (!transaction) throw new NotFound(`transaction ${ctx.params.hash} is not stored`);
    ctx.body = { transaction: restTransaction(transaction, profile) };
  });

  router.get('/accounts/:address/balances', async (ctx) => {
    const address = ctx.params.address!;
    const ledger = parse(stateBlockSelector, ctx.query.ledger ?? 'validated', 'ledger');
    const state = await accountState(address, accountIdOf(address, profile), ledger, context);
    ctx.body = {
      account: address,
      ledger_index: state.ledgerIndex,
      ledger_hash: state.ledgerHash,
      validated: true,
      balances: [
        { currency: profile.nativeCurrency, value: dropsToUnits(state.balance, profile.dropsPerUnit) },
        ...state.lines.map((line) => ({ currency: line.currency, counterparty: line.account, value: line.balance })),
      ],
    };
  });

  /** One page of an account's transactions (optionally of one type), oldest first unless descending. */
  const accountTransactions = async (ctx: Koa.Context, transactionType: string) => {
    const address = ctx.params.address!;
    const accountId = accountIdOf(address, profile);
    const limit = parse(pageLimit, ctx.query.limit, 'limit') ?? 20;
    const from = parse(marker, ctx.query.marker, 'marker');
    const page = await clients.ledgerStore.getAccountTransactions({
      accountId,
      direction: 0,
      forward: !flag(ctx.query.descending, 'descending'),
      limit,
      position: from === undefined ? { $case: 'page', page: 0 } : { $case: 'marker', marker: Buffer.from(from, 'hex') },
      ledgerRange: undefined,
      transactionType,
    });
    return { address, records: page.transactions, marker: page.marker.length > 0 ? page.marker.toString('hex') : undefined };
  };

  router.get('/accounts/:address/transactions', async (ctx) => {
    const type = parse(z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a transaction type such as Payment').optional(), ctx.query.type, 'type');
    const { address, records, marker: next } = await accountTransactions(ctx, type ?? '');
    ctx.body = { account: address, transactions: records.map((record) => restTransaction(record, profile)), ...(next ? { marker: next } : {}) };
  });

  router.get('/accounts/:address/payments', async (ctx) => {
    const { address, records, marker: next } = await accountTransactions(ctx, 'Payment');
    ctx.body = {
      account: address,
      payments: records.map((record) => {
        const { tx, meta, ...where } = restTransaction(record, profile) as ReturnType<typeof restTransaction> & { tx: Record<string, any>; meta: Record<string, any> };
        const amount = tx.Amount as string | { currency: string; issuer: string; value: string };
        const native = typeof amount === 'string';
        return {
          ...where,
          source: tx.Account,
          destination: tx.Destination,
          currency: native ? profile.nativeCurrency : amount.currency,
          ...(native ? {} : { issuer: amount.issuer }),
          amount: native ? dropsToUnits(amount, profile.dropsPerUnit) : amount.value,
          result: meta.TransactionResult,
        };
      }),
      ...(next ? { marker: next } : {}),
    };
  });

  router.get('/status', async (ctx) => {
    const [store, sync] = await Promise.all([
      clients.ledgerStore.getStatus({}),
      context.syncEnabled ? clients.sync.getSyncStatus({}).catch((error: Error) => ({ error: error.message })) : undefined,
    ]);
    ctx.body = {
      chain: profile.id,
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
                backfill: {
                  ledgers_per_second: sync.backfillLedgersPerSecond,
                  remaining_ledgers: Number(sync.backfillRemainingLedgers),
                  eta_seconds: sync.backfillEtaSeconds ?? null,
                },
                verification_failures: Number(sync.verificationFailureCount),
              },
    };
  });
  return router;
}
