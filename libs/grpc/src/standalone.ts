import { initMetrics, observeReadiness, serveMetrics, type MetricsListener } from '@ledger-node/telemetry';
import { ServingStatus } from './health';
import { startGrpcServer, type GrpcServerOptions } from './server';

export interface ServeMetricsOptions {
  /** The `ledger_node_service` label of every metric of this process. */
  service: string;
  /** Where /metrics is served (-metrics_port); none when undefined. */
  listener?: MetricsListener;
}

/** Runs gRPC services until stopped: the shape every service's `start()` returns. */
export async function serveGrpc(
  options: GrpcServerOptions & { onStop?: () => Promise<void>; logFields?: Record<string, unknown>; metrics?: ServeMetricsOptions },
) {
  if (options.metrics) initMetrics(options.metrics.service);
  const server = await startGrpcServer(options);
  // ledger_node_ready follows what grpc.health.v1 answers for the whole server, whoever sets it.
  if (options.metrics) observeReadiness(() => server.health.get('') === ServingStatus.SERVING);
  const metricsServer = options.metrics?.listener
    ? await serveMetrics(options.metrics.listener, options.logger).catch(async (error: unknown) => {
        await server.stop();
        throw error;
      })
    : undefined;
  options.logger.info({ address: server.address, ...options.logFields }, 'serving');
  return {
    address: server.address,
    health: server.health,
    setReady: server.setReady,
    async stop() {
      await server.stop();
      await metricsServer?.close();
      await options.onStop?.();
      options.logger.info('stopped');
    },
  };
}
