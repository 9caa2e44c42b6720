import { metricsListener, type ParsedFlags } from '@ledger-node/config';
import { KeystoreServiceService } from '@ledger-node/contracts';
import { admittedBy, bindService, KEYSTORE_CALLERS, serveGrpc } from '@ledger-node/grpc';
import { createLogger } from '@ledger-node/telemetry';
import { keystoreConfig } from './config';
import { keystoreHandlers } from './grpc/handlers';
import { Keystore } from './keyfiles/keystore';

export const serviceName = 'ledgernode.keystore.v1.KeystoreService';

/**
 * The keystore service: the only process that generates or decrypts keys. It answers narrow
 * requests (list, generate, sign a message, sign an allowed transaction) over a unix socket
 * (0600), or over TCP only with a token.
 */
export async function start(flags: ParsedFlags) {
  const config = keystoreConfig(flags);
  const logger = createLogger('keystore', config.logLevel);
  const keystore = new Keystore({
    directory: config.directory,
    profile: config.profile,
    passphrase: config.passphrase,
    unlockSeconds: config.unlockSeconds,
    onTightened: (file, mode) => logger.warn({ file, mode: `0${mode.toString(8)}` }, 'a key file others than its owner could reach: took the group and other permission bits away (now owner-only)'),
  });
  for (const file of keystore.removeAbandonedWrites()) logger.warn({ file }, 'removed the temp file of a key file write that did not finish');
  const { accounts, problems } = keystore.scan();
  for (const problem of problems) logger.warn({ file: problem.file, code: problem.code }, problem.message);
  if (!keystore.hasPassphrase) logger.info('no passphrase configured (-password_file or LEDGER_NODE_PASSWORD): accounts can be listed but not created or used');

  return serveGrpc({
    address: config.address,
    logger,
    authToken: config.authToken,
    // Over mutual TLS only the services that sign through it may call: submission and the facade.
    services: [bindService(serviceName, KeystoreServiceService, keystoreHandlers(keystore, config.profile, logger), admittedBy(KEYSTORE_CALLERS))],
    metrics: { service: 'keystore', listener: metricsListener(flags, 'keystore') },
    logFields: { directory: config.directory, chain: config.profile.id, accounts: accounts.length, token: config.authToken !== undefined },
  });
}
