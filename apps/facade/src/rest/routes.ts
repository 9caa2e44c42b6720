import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { TxDetail } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError, NotFound, type ErrorKind } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import type { MethodContext } from '../jsonrpc/method';
import { blockHash, blockNumberOrTag, hash32 } from '../jsonrpc/params';
import { restLedger, restTransaction } from '../format/rest';

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
