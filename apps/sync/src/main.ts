import type { ParsedFlags } from '@ledger-node/config';
import { SyncServiceService } from '@ledger-node/contracts';
import { bindService, serveGrpc } from '@ledger-node/grpc';
import { createLogger } from '@ledger-node/telemetry';
import { syncConfig } from './config';
import { syncHandlers } from './grpc/handlers';
import { GrpcLedgerStore } from './store/ledger-store';
import { SyncEngine } from './sync-engine';

export const serviceName = 'ledgernode.sync.v1.SyncService';

/**
 * The sync service: follows the upstream's validated ledgers and backfills history, verifying each
 * ledger before it is written to the ledger-store. (`-sync=false` keeps the supervisor from starting it.)
 */
export async function start(flags: ParsedFlags) {
  const config = syncConfig(flags);
  const logger = createLogger('sync', config.logLevel);
  const storeAbort = new AbortController();
  const store = new GrpcLedgerStore(config.ledgerStoreAddress, logger, storeAbort.signal);
  const engine = new SyncEngine(config, store, logger);
  const server = await serveGrpc({
    address: config.address,
    logger,
    services: [bindService(serviceName, SyncServiceService, syncHandlers(engine))],
    onStop: async () => {
      storeAbort.abort();
      await engine.stop();
      store.close();
    },
  }).catch((error: unknown) => {
    store.close();
    throw error;
  });
  engine.start();
  return server;
}
