import type { SyncServiceService } from '@ledger-node/contracts';
import type { Handlers } from '@ledger-node/grpc';
import type { SyncEngine } from '../sync-engine';

/** gRPC handlers of the sync service: its status, straight from the engine. */
export function syncHandlers(engine: Pick<SyncEngine, 'status'>): Handlers<typeof SyncServiceService> {
  return {
    async getSyncStatus() {
      return engine.status();
    },
  };
}
