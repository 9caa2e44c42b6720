import type Router from '@koa/router';
import type { MethodContext } from '../jsonrpc/method';
import { mountRoutes, type RestRoute } from './define';
import { openApiDocument } from './openapi';
import { accountRoutes } from './resources/accounts';
import { ledgerRoutes } from './resources/ledgers';
import { localAccountRoutes } from './resources/local-accounts';
import { statusRoutes } from './resources/status';
import { submissionRoutes } from './resources/submissions';
import { transactionRoutes } from './resources/transactions';

/** Every REST route, resource by resource, in the order the OpenAPI document lists them. */
export const restRouteDefinitions: readonly RestRoute[] = [
  ...ledgerRoutes,
  ...transactionRoutes,
  ...submissionRoutes,
  ...localAccountRoutes,
  ...accountRoutes,
  ...statusRoutes,
];

export function restRoutes(context: MethodContext, maxBodyBytes = 1024 * 1024): Router {
  const router = mountRoutes(restRouteDefinitions, context, maxBodyBytes);
  // Built by the first request for it (some 30 ms), not by every start of the facade.
  let document: ReturnType<typeof openApiDocument> | undefined;
  router.get('/openapi.json', (ctx) => {
    document ??= openApiDocument(restRouteDefinitions);
    ctx.body = document;
  });
  return router;
}
