import type { SyncServiceService } from '@ledger-node/contracts';
import { InvalidParams } from '@ledger-node/errors';
import type { Handlers } from '@ledger-node/grpc';
import type { SyncEngine } from '../sync-engine';
import type { SyncRole } from '../writer-lock';

/**
 * gRPC handlers of the sync service: its status, straight from the engine, and whether it waits as
 * a standby (writer-lock.ts); the manifests it follows; state proofs from its proven trees.
 */
export function syncHandlers(engine: Pick<SyncEngine, 'status' | 'manifest' | 'stateProof'>, role?: SyncRole): Handlers<typeof SyncServiceService> {
  return {
    async getSyncStatus() {
      return { ...engine.status(), standby: role?.standby };
    },
    async getManifest(request) {
      // A node public key: a 33-byte compressed secp256k1 key or 0xED and 32 bytes of Ed25519.
      const key = request.publicKey;
      if (key.length !== 33 || ![0x02, 0x03, 0xed].includes(key[0]!)) throw new InvalidParams('public_key is not a 33-byte node public key', 'public_key');
      return { manifest: engine.manifest(key) };
    },
    async getStateProof(request) {
      return engine.stateProof(request.ledgerIndex, request.keys.map((key) => Buffer.from(key)));
    },
  };
}
