import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { SyncServiceService } from '@ledger-node/contracts';
import { admittedBy, bindService, dependenciesServing, serveGrpc, SYNC_CALLERS, watchReadiness } from '@ledger-node/grpc';
import { RIPPLE_EPOCH_OFFSET } from '@ledger-node/chain';
import { createLogger, observedGauge, observeEventLoop } from '@ledger-node/telemetry';
import { syncConfig } from './config';
import { syncHandlers } from './grpc/handlers';
import { GrpcLedgerStore } from './store/ledger-store';
import { SyncEngine } from './sync-engine';
import { SyncSummary } from './sync-summary';
import { SyncRole, takeSyncLock, untilStoreWrites, watchStoreRole } from './writer-lock';

export const serviceName = 'ledgernode.sync.v1.SyncService';

/** The exit code of a sync that lost the PostgreSQL sync writer lock, or gave it up: restarted, it waits as a standby. */
const EXIT_LOCK_LOST = 1;

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
  syncMetrics(engine);
  const stopSummary = new SyncSummary(() => engine.status(), engine.ingest, logger).start();
  // With -store postgres://…, one sync follows and backfills: the holder of the database's sync lock.
  const role = new SyncRole();
  const stopWaiting = new AbortController();
  let syncLock: { release(): Promise<void> } | undefined;
  let stopWatchingStore = () => {};
  let stopReadiness = () => {};
  const server = await serveGrpc({
    address: config.address,
    logger,
    services: [bindService(serviceName, SyncServiceService, syncHandlers(engine, role), admittedBy(SYNC_CALLERS))],
    metrics: { service: 'sync', listener: metricsListener(flags, 'sync') },
    onStop: async () => {
      stopWaiting.abort();
      stopWatchingStore();
      stopReadiness();
      stopSummary();
      storeAbort.abort();
      await engine.stop();
      store.close();
      await syncLock?.release();
    },
  }).catch((error: unknown) => {
    stopSummary();
    store.close();
    throw error;
  });
  const writerLock = config.writerLock;
  if (writerLock === undefined) engine.start();
  else {
    // The sync lock only while this sync's ledger-store writes (writer-lock.ts says why).
    const readRole = () => store.role();
    const contend = async () => {
      await untilStoreWrites(readRole, role, stopWaiting.signal);
      if (stopWaiting.signal.aborted) return;
      syncLock = await takeSyncLock(writerLock, {
        role,
        logger,
        signal: stopWaiting.signal,
        takeOver: () => {
          // A lock that comes while this process stops starts nothing.
          if (stopWaiting.signal.aborted) return;
          stopWatchingStore = watchStoreRole(readRole, (detail) => {
            logger.fatal({ reason: detail }, `this sync's ledger-store no longer writes (${detail ?? 'not the writer'}); stopping to give up the sync writer lock to a sync whose ledger-store writes (a restart waits as a standby)`);
            process.exit(EXIT_LOCK_LOST);
          });
          engine.start();
        },
        onLost(error) {
          // Another sync may write from now on: not one more write from this one (pino writes synchronously).
          logger.fatal({ reason: error.message }, `${error.message}; stopping so as not to write without the lock (a restart waits as a standby)`);
          process.exit(EXIT_LOCK_LOST);
        },
      });
    };
    void contend().catch((error: unknown) => logger.error({ err: error }, 'taking the sync writer lock failed'));
  }
  // Ready while this sync is not a standby, the ledger-store answers and the upstream connection is open.
  const storeServing = dependenciesServing({ 'ledger-store': config.ledgerStoreAddress });
  const readinessCheck = Object.assign(
    async () => role.standby ?? (await storeServing()) ?? engine.health.stopText() ?? (engine.status().upstreamConnected ? undefined : 'not connected to the upstream'),
    { close: storeServing.close },
  );
  stopReadiness = watchReadiness(server, readinessCheck, logger);
  return server;
}

/**
 * Sync's figures for Prometheus, read from the engine's status at each scrape. Rates are not among
 * them: ledgers stored are the counter ledger_node_sync_ledgers_stored_total{source} (ingest.ts),
 * whose rate() Prometheus computes, live and backfill apart.
 */
function syncMetrics(engine: SyncEngine): void {
  const storedLedgers = () => engine.status().completeRanges.reduce((sum, range) => sum + range.last - range.first + 1, 0);
  observedGauge('ledger_node_sync_lag_ledgers', "Ledgers the stored tip is behind the upstream's validated ledger", () => engine.status().lagLedgers);
  observedGauge('ledger_node_sync_current_ledger_index', 'Highest stored ledger', () => engine.status().currentLedgerIndex);
  observedGauge('ledger_node_sync_highest_ledger_index', "The upstream's highest validated ledger as last seen", () => engine.status().highestLedgerIndex);
  observedGauge('ledger_node_sync_upstream_connected', '1 while the upstream connection is open and subscribed', () => (engine.status().upstreamConnected ? 1 : 0));
  observedGauge('ledger_node_sync_stored_ledgers', 'Ledgers in the complete ranges (it falls as bounded history removes old ones; ledger_node_sync_ledgers_stored_total counts what sync stores)', storedLedgers);
  observedGauge('ledger_node_sync_backfill_remaining_ledgers', 'Ledgers left to backfill down to the start ledger (divided by the rate of ledger_node_sync_ledgers_stored_total{source="backfill"}: the time left)', () => Number(engine.status().backfillRemainingLedgers));
  observedGauge('ledger_node_sync_trusted_validators', 'Validators trusted now (published lists and -validators keys)', () => engine.status().validatorList?.validators);
  observedGauge('ledger_node_sync_validation_quorum', 'Validations from distinct trusted validators that prove a ledger (no negative UNL); absent while out of reach', () => engine.status().validatorList?.quorum);
  observedGauge('ledger_node_sync_validator_list_expiration_seconds', 'When the earliest published list in force expires, in Unix seconds', () => {
    const expirations = engine.status().validatorList?.publishers.map((publisher) => publisher.expiration).filter((time) => time !== undefined) ?? [];
    return expirations.length === 0 ? undefined : Math.min(...expirations) + RIPPLE_EPOCH_OFFSET;
  });
  // Verification failures are the counter ledger_node_sync_verification_failures_total{reason} (refusals.ts), validations and manifests refused among them; refused lists are ledger_node_sync_validator_list_refusals_total{reason}.
  observeEventLoop();
  observedGauge('ledger_node_sync_stopped', "1 while a verified ledger cannot be stored (sync retries) or the upstream's chain is not the stored one (/v1/status says why), else 0", () => (engine.health.stopText() === undefined ? 0 : 1));
}
