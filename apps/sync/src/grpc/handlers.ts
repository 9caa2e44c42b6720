import type { SyncServiceService } from '@ledger-node/contracts';
import type { Handlers } from '@ledger-node/grpc';
import type { SyncEngine } from '../sync-engine';
import type { SyncRole } from '../writer-lock';

/** gRPC handlers of the sync service: its status, straight from the engine, and whether it waits as a standby (writer-lock.ts). */
export function syncHandlers(engine: Pick<SyncEngine, 'status'>, role?: SyncRole): Handlers<typeof SyncServiceService> {
  return {
    async getSyncStatus() {
      return { ...engine.status(), standby: role?.standby };
    },
  };
}
