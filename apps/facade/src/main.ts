import type { Server } from 'node:http';
import Koa from 'koa';
import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { createHttpServer, createLogger, initMetrics, observeReadiness, serveMetrics, type Logger, type MetricsServer } from '@ledger-node/telemetry';
import { closeClients, createClients } from './clients';
import { facadeConfig, type Listener } from './config';
import { Dispatcher } from './jsonrpc/dispatcher';
import type { MethodContext } from './jsonrpc/method';
import { methods } from './jsonrpc/methods/index';
import { withDiscovery } from './jsonrpc/openrpc';
import { JSON_RPC_PATH, jsonRpcErrorBody, jsonRpcRoute } from './jsonrpc/route';
import { jsonErrorBodies, restErrorBody } from './error-bodies';
import { probeRoutes, readiness, type ReadinessOptions } from './probes';
import { requestSpans } from './request-spans';
import { AnswerCache } from './queries/answer-cache';
import { HOT_SET_METRICS, HotSet } from './queries/hot-set';
import { Queries } from './queries/queries';
import { signingPolicy } from './jsonrpc/signing-policy';
import { restErrors, restMetrics } from './rest/define';
import { restRoutes } from './rest/routes';
import { statusPage } from './status-page/index';
import { callerIdentities } from './caller';
import { httpGuard } from './http-guard';
import { requestScope } from './request-scope';
import { rippledMethodsFor } from './rippled/methods/index';
import { rippledApi } from './rippled/server';
import { CatchUpBudget, ClientCatchUps } from './streams/catch-up';
import { LedgerFollower } from './streams/follower';
import { attachJsonRpcWebSocket } from './streams/jsonrpc-ws';
import type { Upgrades } from './streams/upgrade';
import { SendLimit } from './send-limit';
import { SyncStatusCache } from './sync-status';
import { TipCache } from './tip';

/**
 * The facade: JSON-RPC at /v1/jsonrpc and over WebSocket at /v1/ws (-rpc), the REST API under /v1
 * (-api) and rippled's API (-ws), over the gRPC services.
 */
export async function start(flags: ParsedFlags) {
  const config = facadeConfig(flags);
  const logger = createLogger('facade', config.logLevel);
  const clients = createClients(
    { ledgerStore: config.ledgerStoreAddress, sync: config.syncAddress, keystore: config.keystoreAddress, submission: config.submissionAddress },
    config.keystoreToken,
    { readOnly: config.readOnly },
  );
  const tip = new TipCache(clients, logger);
  const syncStatus = new SyncStatusCache(clients, logger);
  initMetrics('facade');
  const readinessOptions: ReadinessOptions = { clients, syncStatus, syncEnabled: config.syncEnabled, readyLagLedgers: flags.integer('ready_lag')! };
  const probes = probeRoutes({ ...readinessOptions, metrics: flags.boolean('listener_metrics') });
  observeReadiness(async () => (await readiness(readinessOptions)).ready);
  const guard = httpGuard({ allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins });
  const callerIdentity = callerIdentities(config.trustedProxies);
  let metricsServer: MetricsServer | undefined;
  // The newest ledgers' transaction answers, rendered as each is stored (-hot_set_mb; 0: none, nothing looked up there).
  const hotAnswers = config.hotSetBytes > 0 ? new AnswerCache(config.hotSetBytes, HOT_SET_METRICS) : undefined;
  const context: MethodContext = {
    clients,
    profile: config.profile,
    syncEnabled: config.syncEnabled,
    syncStatus,
    maxPageSize: config.maxPageSize,
    queries: new Queries(clients, tip, new AnswerCache(config.answerCacheBytes), hotAnswers),
    sends: new SendLimit(config.sendRate, config.sendRateLocal),
  };
  // One follower of the store feeds every stream subscriber of both WebSocket APIs, and bounds what
  // their catch-ups from the store may cost, node-wide.
  const follower = new LedgerFollower(clients, context.queries, config.profile, logger, {
    maxResumeLedgers: config.maxResumeLedgers,
    budget: new CatchUpBudget(config.resumeRate),
    clients: new ClientCatchUps(),
  });
  const servers: Server[] = [];
  const upgrades: Upgrades[] = [];
  const addresses: string[] = [];
  const shutdown = async () => {
    tip.stop();
    syncStatus.stop();
    follower.stop();
    await Promise.all(upgrades.map((upgrade) => upgrade.close()));
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
      app.use(jsonErrorBodies(jsonRpcErrorBody, logger));
      app.use(guard);
      app.use(requestScope(callerIdentity));
      app.use(probes);
      app.use(requestSpans([JSON_RPC_PATH]));
      const callerOf = signingPolicy({ listenerHost: config.rpc.host, token: config.rpcToken });
      app.use(jsonRpcRoute(dispatcher, config.maxBodyBytes, callerOf));
      const server = await listen(app, config.rpc, config.maxConnections, logger);
      servers.push(server);
      upgrades.push(
        attachJsonRpcWebSocket(server, app, {
          dispatcher,
          callerOf,
          callerIdentity,
          follower,
          profile: config.profile,
          guard,
          maxPayload: config.maxBodyBytes,
          queueBytes: config.wsQueueBytes,
          logger,
        }),
      );
      addresses.push(`http://${config.rpc.host}:${config.rpc.port}/v1/jsonrpc`, `ws://${config.rpc.host}:${config.rpc.port}/v1/ws`);
    }
    if (config.api) {
      const app = new Koa();
      const router = restRoutes(context, config.maxBodyBytes);
      app.use(jsonErrorBodies(restErrorBody, logger));
      app.use(guard);
      app.use(requestScope(callerIdentity));
      app.use(probes);
      app.use(requestSpans());
      app.use(restMetrics()).use(restErrors(logger)).use(router.routes()).use(router.allowedMethods());
      app.use(statusPage());
      servers.push(await listen(app, config.api, config.maxConnections, logger));
      addresses.push(`http://${config.api.host}:${config.api.port}/v1`);
    }
    if (config.ws) {
      const rippled = rippledApi({
        methods: rippledMethodsFor(config.profile),
        context: { ...context, networkId: config.networkId },
        follower,
        chain: { profile: config.profile, networkId: config.networkId },
        guard,
        callerIdentity,
        probes,
        maxBodyBytes: config.maxBodyBytes,
        queueBytes: config.wsQueueBytes,
        slowMs: flags.integer('slow_ms'),
        logger,
      });
      const server = await listen(rippled.app, config.ws, config.maxConnections, logger);
      servers.push(server);
      upgrades.push(rippled.attach(server));
      addresses.push(`ws://${config.ws.host}:${config.ws.port}`);
    }
    const metricsAt = metricsListener(flags, 'facade');
    if (metricsAt) metricsServer = await serveMetrics(metricsAt, logger);
  } catch (error) {
    await shutdown();
    throw error;
  }
  if (hotAnswers) {
    const hotSet = new HotSet(context.queries, hotAnswers, config.profile, logger);
    tip.onNewTip = (ledgerIndex) => void hotSet.ledgerStored(ledgerIndex);
  }
  tip.start();
  if (config.rpc || config.ws) follower.start();
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
    // A client gets seconds, not Node's minutes, to send a request (HTTP_TIMEOUTS).
    const server = createHttpServer(app.callback());
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
