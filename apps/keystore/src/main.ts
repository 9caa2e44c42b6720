import { serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { KeystoreServiceService } from '@ledger-node/contracts';
import { NotImplemented } from '@ledger-node/errors';
import { bindService, serveGrpc } from '@ledger-node/grpc';
import { createLogger, type LogLevel } from '@ledger-node/telemetry';

export const serviceName = 'ledgernode.keystore.v1.KeystoreService';

/** The keystore service. This version holds no keys yet: every operation answers "not available". */
export async function start(flags: ParsedFlags) {
  const notYet = (operation: string) => async (): Promise<never> => {
    throw new NotImplemented(operation);
  };
  return serveGrpc({
    address: serviceAddress(flags, 'keystore'),
    logger: createLogger('keystore', flags.string('log_level') as LogLevel),
    services: [
      bindService(serviceName, KeystoreServiceService, {
        listAccounts: notYet('ListAccounts'),
        generateAccount: notYet('GenerateAccount'),
        signMessage: notYet('SignMessage'),
        signTransaction: notYet('SignTransaction'),
      }),
    ],
  });
}
