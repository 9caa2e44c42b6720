import type { Logger } from '@ledger-node/telemetry';
import { startGrpcServer, type ServiceBinding } from './server';

/** Runs gRPC services until stopped: the shape every service's `start()` returns. */
export async function serveGrpc(options: { address: string; logger: Logger; services: ServiceBinding[]; onStop?: () => Promise<void> }) {
  const server = await startGrpcServer(options);
  options.logger.info({ address: server.address }, 'serving');
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
