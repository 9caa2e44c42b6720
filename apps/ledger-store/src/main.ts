import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { LedgerStoreServiceService } from '@ledger-node/contracts';
import { admittedBy, bindService, LEDGER_STORE_CALLERS, serveGrpc } from '@ledger-node/grpc';
import { indexTransactionOrPlaceholder } from '@ledger-node/chain';
import { counter, createLogger, observedGauge, observeEventLoop, type Logger } from '@ledger-node/telemetry';
import { ledgerStoreConfig } from './config';
import { ledgerStoreHandlers } from './grpc/handlers';
import { openLedgerStore } from './open';
import type { HistoryOptions, IndexOf, UnprovenOutcome } from './store';

export const serviceName = 'ledgernode.ledgerstore.v1.LedgerStoreService';

/** The methods that change the store (typed by the contract, so a removed method cannot stay listed). */
/** The exit code of a ledger-store that lost the PostgreSQL writer lock: restarted, it waits as a standby. */
const EXIT_LOCK_LOST = 1;

/** The ledger-store service: the ledger database (RocksDB, or PostgreSQL), served over gRPC. */
export async function start(flags: ParsedFlags) {
  const config = ledgerStoreConfig(flags);
  const logger = createLogger('ledger-store', config.logLevel);
  const unprovenSettled = counter('ledger_node_store_unproven_ledgers_total', 'Ledgers an import stored unproven that the network then proved (outcome="proven") or contradicted (outcome="removed")', ['outcome']);
  const profile = config.profile();
  const indexOf: IndexOf = (tx, position) => indexTransactionOrPlaceholder(tx.txBlob, tx.metaBlob, profile, position).index;
  const opened = await openLedgerStore(config.store, {
    logger,
    chain: config.chain,
    history: config.ledgerHistory > 0 ? boundedHistory(config.ledgerHistory, indexOf, logger) : undefined,
    unproven: {
      indexOf,
      onUnproven: (outcome) => {
        logUnproven(logger, outcome);
        const { first, last } = 'proven' in outcome ? outcome.proven : outcome.removed;
        unprovenSettled.inc({ outcome: 'proven' in outcome ? 'proven' : 'removed' }, last - first + 1);
      },
    },
    onFatal(error) {
      // Another process may write from now on: not one more write from this one (pino writes synchronously).
      logger.fatal({ reason: error.message }, `${error.message}; stopping so as not to write without the lock (a restart waits as a standby)`);
      process.exit(EXIT_LOCK_LOST);
    },
  });
  const store = opened.store;
  logger.info({ database: store.backend.location, role: store.role, completeRanges: store.ranges }, `database open as its ${store.role}`);
  // Open WatchLedgers streams never end by themselves: stopping ends them so shutdown need not wait.
  const stopping = new AbortController();
  const ledgersWritten = counter('ledger_node_store_ledgers_written_total', 'Ledgers written by this process, at the tip or below it (backfill)', ['position']);
  const transactionsWritten = counter('ledger_node_store_transactions_written_total', 'Transactions written by this process');
  const unsubscribe = store.events.subscribe((event) => {
    // A follower publishes the ledgers another process wrote.
    if (store.role !== 'writer') return;
    ledgersWritten.inc({ position: event.extendsTip ? 'tip' : 'backfill' });
    transactionsWritten.inc(event.transactions.length);
  });
  observedGauge('ledger_node_store_db_size_bytes', 'Size of the ledger database on disk', async () => (await store.status()).dbSizeBytes);
  observedGauge('ledger_node_store_ledgers', 'Ledgers stored', async () => Number((await store.status()).counters.ledgerCount));
  observedGauge('ledger_node_store_highest_ledger_index', 'Highest stored ledger', async () => (await store.status()).highestLedgerIndex);
  observeEventLoop();
  const served = await serveGrpc({
    address: config.address,
    logger,
    // Over mutual TLS each method admits its callers (libs/grpc callers.ts): the writes sync alone.
    services: [bindService(serviceName, LedgerStoreServiceService, ledgerStoreHandlers(store, stopping.signal), admittedBy(LEDGER_STORE_CALLERS))],
    metrics: { service: 'ledger-store', listener: metricsListener(flags, 'ledger-store') },
    onStop: () => {
      unsubscribe();
      return opened.close();
    },
  }).catch(async (error: unknown) => {
    await opened.close();
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

/** What became of ledgers an import left unproven, said once per span: proven ones are served from now on, contradicted ones were removed. */
function logUnproven(logger: Logger, outcome: UnprovenOutcome): void {
  if ('proven' in outcome) {
    const { first, last } = outcome.proven;
    logger.info({ first, last, by: outcome.by }, `imported ledgers ${first}-${last}, unproven until now, are proven by the network's ledger ${outcome.by} and served`);
  } else {
    const { first, last } = outcome.removed;
    logger.warn({ first, last, reason: outcome.reason }, `removed imported ledgers ${first}-${last}, which the network contradicts: ${outcome.reason}`);
  }
}

/** -ledger_history: the newest `ledgers` kept; each removed transaction re-indexed from its bytes as sync indexed it, so its index entries go with it. */
function boundedHistory(ledgers: number, indexOf: IndexOf, logger: Logger): HistoryOptions {
  let lastFailure: string | undefined;
  return {
    ledgers,
    indexOf,
    onPruned: (removed) => {
      lastFailure = undefined;
      logger.debug({ first: removed.first, last: removed.last }, `removed ledgers ${removed.first}-${removed.last} (-ledger_history ${ledgers})`);
    },
    onError: (error) => {
      const reason = error instanceof Error ? error.message : String(error);
      if (reason !== lastFailure) logger.warn({ reason }, `could not remove the lowest ledgers (-ledger_history ${ledgers}): ${reason}; trying again`);
      lastFailure = reason;
    },
  };
}
