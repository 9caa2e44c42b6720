import type { ParsedFlags } from '@ledger-node/config';
import { LedgerStoreServiceService } from '@ledger-node/contracts';
import { bindService, serveGrpc } from '@ledger-node/grpc';
import { createLogger } from '@ledger-node/telemetry';
import { ledgerStoreConfig } from './config';
import { ledgerStoreHandlers } from './grpc/handlers';
import { openRocksDb } from './storage/rocksdb';
import { LedgerStore } from './store';

export const serviceName = 'ledgernode.ledgerstore.v1.LedgerStoreService';

/** The ledger-store service: sole owner of the RocksDB database, served over gRPC. */
export async function start(flags: ParsedFlags) {
  const config = ledgerStoreConfig(flags);
  const logger = createLogger('ledger-store', config.logLevel);
  const store = await LedgerStore.open(await openRocksDb(config.databasePath));
  logger.info({ database: config.databasePath, completeRanges: store.ranges }, 'database open');
  // Open WatchLedgers streams never end by themselves: stopping ends them so shutdown need not wait.
  const stopping = new AbortController();
  const served = await serveGrpc({
    address: config.address,
    logger,
    services: [bindService(serviceName, LedgerStoreServiceService, ledgerStoreHandlers(store, stopping.signal))],
    onStop: () => store.close(),
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  return {
    ...served,
    async stop() {
      stopping.abort();
      await served.stop();
    },
  };
}
