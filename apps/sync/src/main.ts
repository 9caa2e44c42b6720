import { serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { SyncServiceService } from '@ledger-node/contracts';
import { bindService, serveGrpc } from '@ledger-node/grpc';
import { createLogger, type LogLevel } from '@ledger-node/telemetry';

export const serviceName = 'ledgernode.sync.v1.SyncService';

/** The sync service. This version reports its status only; it does not connect upstream yet. */
export async function start(flags: ParsedFlags) {
  const logger = createLogger('sync', flags.string('log_level') as LogLevel);
  return serveGrpc({
    address: serviceAddress(flags, 'sync'),
    logger,
    services: [
      bindService(serviceName, SyncServiceService, {
        async getSyncStatus() {
          return {
            syncing: false,
            startingLedgerIndex: 0,
            currentLedgerIndex: 0,
            highestLedgerIndex: 0,
            upstreamUrl: flags.string('endpoint') ?? '',
            upstreamConnected: false,
            lagLedgers: 0,
            backfillLedgersPerSecond: 0,
            backfillRemainingLedgers: 0n,
            backfillEtaSeconds: undefined,
            verificationFailureCount: 0n,
            completeRanges: [],
            stateReady: false,
          };
        },
      }),
    ],
  });
}
