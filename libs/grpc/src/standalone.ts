import { initMetrics, serveMetrics, type MetricsListener } from '@ledger-node/telemetry';
import { startGrpcServer, type GrpcServerOptions } from './server';

export interface ServeMetricsOptions {
  /** The `service` label of every metric of this process. */
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
