import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { KeystoreServiceService, LedgerStoreServiceService, SubmissionServiceService } from '@ledger-node/contracts';
import { bindService, createGrpcClient, dependenciesServing, serveGrpc, watchReadiness } from '@ledger-node/grpc';
import { createLogger, observedGauge } from '@ledger-node/telemetry';
import { submissionConfig } from './config';
import { submissionHandlers } from './grpc/handlers';
import { Payments } from './payments';
import { SubmissionBook } from './tracking/book';
import { Tracker } from './tracking/tracker';
import { RippledClient } from './upstream/rippled';

export const serviceName = 'ledgernode.submission.v1.SubmissionService';

/** The submission service: builds, signs (via the keystore), submits and tracks transactions. */
export async function start(flags: ParsedFlags) {
  const config = submissionConfig(flags);
  const logger = createLogger('submission', config.logLevel);
  const book = new SubmissionBook(config.bookFile);
  const upstream = new RippledClient(config.endpoints, logger);
  const keystore = createGrpcClient(KeystoreServiceService, config.keystoreAddress, { serviceLabel: 'keystore', deadlineMs: 10_000, idempotent: ['listAccounts'], authToken: config.keystoreToken });
  const ledgerStore = createGrpcClient(LedgerStoreServiceService, config.ledgerStoreAddress, { serviceLabel: 'ledger-store' });
  const payments = new Payments(config.profile, upstream, keystore, ledgerStore, book, logger);
  const tracker = new Tracker(book, ledgerStore, logger);
  const open = book.open();
  tracker.start();
  if (open.length > 0) {
    logger.info({ open: open.length }, 'tracking submissions still open before the restart');
    void payments.resubmitPending();
  }
  observedGauge('ledger_node_submission_pending', 'Submitted transactions not yet validated, expired or rejected', () => book.pending().length);
  let stopReadiness = () => {};
  const server = await serveGrpc({
    address: config.address,
    logger,
    services: [bindService(serviceName, SubmissionServiceService, submissionHandlers(payments, book))],
    metrics: { service: 'submission', listener: metricsListener(flags, 'submission') },
    onStop: async () => {
      stopReadiness();
      tracker.stop();
      book.close();
      upstream.close();
      keystore.close();
      ledgerStore.close();
    },
  });
  // Ready while the keystore (signing) and the ledger-store (tracking) answer.
  stopReadiness = watchReadiness(server, dependenciesServing({ keystore: config.keystoreAddress, 'ledger-store': config.ledgerStoreAddress }), logger);
  return server;
}
