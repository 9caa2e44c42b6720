import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { KeystoreServiceService, LedgerStoreServiceService, SubmissionServiceService } from '@ledger-node/contracts';
import { admittedBy, bindService, createGrpcClient, dependenciesServing, serveGrpc, SUBMISSION_CALLERS, type ReadinessCheck, watchReadiness } from '@ledger-node/grpc';
import { createLogger, observedGauge } from '@ledger-node/telemetry';
import { submissionConfig } from './config';
import { Forwarder } from './forward/forwarder';
import { submissionHandlers } from './grpc/handlers';
import { Payments } from './payments';
import { SendingGate, takeSenderLock } from './sender-lock';
import { SubmissionBook } from './tracking/book';
import { Tracker } from './tracking/tracker';
import { pathRequestUpstream, submissionUpstream } from './upstream/client';
import { PathFinder } from './forward/path-finder';

export const serviceName = 'ledgernode.submission.v1.SubmissionService';

/** The submission service: builds, signs (via the keystore), submits and tracks transactions. */
export async function start(flags: ParsedFlags) {
  const config = submissionConfig(flags);
  const logger = createLogger('submission', config.logLevel);
  const book = new SubmissionBook(config.bookFile);
  const upstream = submissionUpstream(config.endpoints, logger);
  const keystore = createGrpcClient(KeystoreServiceService, config.keystoreAddress, { serviceLabel: 'keystore', deadlineMs: 10_000, idempotent: ['listAccounts'], authToken: config.keystoreToken });
  const ledgerStore = createGrpcClient(LedgerStoreServiceService, config.ledgerStoreAddress, { serviceLabel: 'ledger-store' });
  const payments = new Payments(config.profile, upstream, keystore, ledgerStore, book, logger);
  const tracker = new Tracker(book, ledgerStore, logger);
  const forwarder = new Forwarder({ request: (command, params, options) => upstream.request(command, params, options) }, undefined, (command, reason) =>
    logger.warn({ command, reason }, `forwarded ${command} got no usable answer: ${reason}`),
  );
  const pathFinder = new PathFinder((events) => pathRequestUpstream(config.endpoints, logger, events));
  const beginSending = () => {
    const open = book.open();
    tracker.start();
    if (open.length > 0) {
      logger.info({ open: open.length }, 'tracking submissions still open before the restart');
      void payments.resubmitPending();
    }
  };
  // With -store postgres://…, one submission service sends: the holder of the database's lock.
  const gate = new SendingGate();
  const stopWaiting = new AbortController();
  const senderLock = config.senderLock
    ? await takeSenderLock(config.senderLock, {
        gate,
        logger,
        signal: stopWaiting.signal,
        takeOver: beginSending,
        onLost(error) {
          // Another process may send from now on: not one more send from this one (pino writes synchronously).
          logger.fatal({ reason: error.message }, `${error.message}; stopping so as not to send without the lock (a restart waits as a standby)`);
          process.exit(1);
        },
      })
    : (beginSending(), undefined);
  observedGauge('ledger_node_submission_pending', 'Submitted transactions not yet validated, expired or rejected', () => book.pending().length);
  let stopReadiness = () => {};
  const server = await serveGrpc({
    address: config.address,
    logger,
    services: [bindService(serviceName, SubmissionServiceService, submissionHandlers(payments, book, forwarder, pathFinder, gate), admittedBy(SUBMISSION_CALLERS))],
    metrics: { service: 'submission', listener: metricsListener(flags, 'submission') },
    onStop: async () => {
      stopWaiting.abort();
      stopReadiness();
      tracker.stop();
      book.close();
      upstream.close();
      keystore.close();
      ledgerStore.close();
      await senderLock?.release();
    },
  });
  // Ready while the keystore (signing) and the ledger-store (tracking) answer, and this process is the sender.
  const dependencies = dependenciesServing({ keystore: config.keystoreAddress, 'ledger-store': config.ledgerStoreAddress });
  const ready: ReadinessCheck = Object.assign(async () => gate.refusal ?? (await dependencies()), { close: () => dependencies.close?.() });
  stopReadiness = watchReadiness(server, ready, logger);
  return server;
}
