import Router from '@koa/router';
import type Koa from 'koa';
import { isLedgerNodeError, type ErrorKind } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import type { Clients } from '../clients';

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

export function restRoutes(clients: Clients): Router {
  const router = new Router({ prefix: '/v1' });
  router.get('/status', async (ctx) => {
    const store = await clients.ledgerStore.getStatus({});
    ctx.body = {
      ledger_store: {
        lowest_ledger_index: store.lowestLedgerIndex ?? null,
        highest_ledger_index: store.highestLedgerIndex ?? null,
        complete_ranges: store.completeRanges.map((range) => `${range.first}-${range.last}`),
        db_size_bytes: Number(store.dbSizeBytes),
      },
    };
  });
  return router;
}
