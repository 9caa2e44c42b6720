import { startGrpcServer, type GrpcServerOptions } from './server';

/** Runs gRPC services until stopped: the shape every service's `start()` returns. */
export async function serveGrpc(options: GrpcServerOptions & { onStop?: () => Promise<void>; logFields?: Record<string, unknown> }) {
  const server = await startGrpcServer(options);
  options.logger.info({ address: server.address, ...options.logFields }, 'serving');
  return {
    address: server.address,
    health: server.health,
    async stop() {
      await server.stop();
      await options.onStop?.();
      options.logger.info('stopped');
    },
  };
}
