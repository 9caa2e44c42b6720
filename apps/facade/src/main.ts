import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { createLogger, initMetrics, serveMetrics, type Logger, type MetricsServer } from '@ledger-node/telemetry';
import { closeClients, createClients } from './clients';
import { facadeConfig, type Listener } from './config';
import { Dispatcher } from './jsonrpc/dispatcher';
import type { MethodContext } from './jsonrpc/method';
import { methods } from './jsonrpc/methods/index';
import { withDiscovery } from './jsonrpc/openrpc';
import { JSON_RPC_PATH, jsonRpcRoute } from './jsonrpc/route';
import { probeRoutes } from './probes';
import { requestSpans } from './request-spans';
import { AnswerCache } from './queries/answer-cache';
import { Queries } from './queries/queries';
import { signingPolicy } from './jsonrpc/signing-policy';
import { restErrors } from './rest/define';
import { restRoutes } from './rest/routes';
import { statusPage } from './status-page/index';
import { httpGuard } from './http-guard';
import { requestScope } from './request-scope';
import { SendLimit } from './send-limit';
import { SyncStatusCache } from './sync-status';
import { TipCache } from './tip';

/** The facade: JSON-RPC at /v1/jsonrpc (-rpc) and the REST API under /v1 (-api), over the gRPC services. */
export async function start(flags: ParsedFlags) {
  const config = facadeConfig(flags);
  const logger = createLogger('facade', config.logLevel);
  const clients = createClients(
    { ledgerStore: config.ledgerStoreAddress, sync: config.syncAddress, keystore: config.keystoreAddress, submission: config.submissionAddress },
    config.keystoreToken,
  );
  const tip = new TipCache(clients, logger);
  const syncStatus = new SyncStatusCache(clients, logger);
  initMetrics('facade');
  const probes = probeRoutes({
    clients,
    syncStatus,
    syncEnabled: config.syncEnabled,
    readyLagLedgers: flags.integer('ready_lag')!,
    metrics: flags.boolean('listener_metrics'),
  });
  const guard = httpGuard({ allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins });
  let metricsServer: MetricsServer | undefined;
  const context: MethodContext = {
    clients,
    profile: config.profile,
    syncEnabled: config.syncEnabled,
    tip,
    syncStatus,
    maxPageSize: config.maxPageSize,
    queries: new Queries(clients, tip, new AnswerCache(config.answerCacheBytes)),
    sends: new SendLimit(config.sendRate),
  };
  const servers: Server[] = [];
  const addresses: string[] = [];
  const shutdown = async () => {
    tip.stop();
    syncStatus.stop();
    await Promise.all(servers.map(close));
    await metricsServer?.close();
    closeClients(clients);
  };

  try {
    if (config.rpc) {
      const dispatcher = new Dispatcher({
        methods: withDiscovery(methods),
        context,
        logger,
        maxBatchLength: config.maxBatchLength,
        maxResponseBytes: config.maxResponseBytes,
        slowMs: flags.integer('slow_ms'),
      });
      const app = new Koa();
      app.use(guard);
      app.use(requestScope());
      app.use(probes);
      app.use(requestSpans([JSON_RPC_PATH]));
      app.use(jsonRpcRoute(dispatcher, config.maxBodyBytes, signingPolicy({ listenerHost: config.rpc.host, token: config.rpcToken })));
      servers.push(await listen(app, config.rpc, config.maxConnections, logger));
      addresses.push(`http://${config.rpc.host}:${config.rpc.port}/v1/jsonrpc`);
    }
    if (config.api) {
      const app = new Koa();
      const router = restRoutes(context, config.maxBodyBytes);
      app.use(guard);
      app.use(requestScope());
      app.use(probes);
      app.use(requestSpans());
      app.use(restErrors(logger)).use(router.routes()).use(router.allowedMethods());
      app.use(statusPage());
      servers.push(await listen(app, config.api, config.maxConnections, logger));
      addresses.push(`http://${config.api.host}:${config.api.port}/v1`);
    }
    const metricsAt = metricsListener(flags, 'facade');
    if (metricsAt) metricsServer = await serveMetrics(metricsAt, logger);
  } catch (error) {
    await shutdown();
    throw error;
  }
  tip.start();
  if (config.syncEnabled) syncStatus.start();
  logger.info({ addresses }, 'facade serving');

  return {
    address: addresses.join(' '),
    async stop() {
      await shutdown();
      logger.info('facade stopped');
    },
  };
}

function listen(app: Koa, listener: Listener, maxConnections: number, logger: Logger): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app.callback());
    server.maxConnections = maxConnections;
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen on ${listener.host}:${listener.port}: ${error.code ?? error.message}`)),
    );
    server.listen(listener.port, listener.host, () => {
      logger.debug({ listener }, 'listening');
      resolve(server);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
