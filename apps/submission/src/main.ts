import { serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { SubmissionServiceService } from '@ledger-node/contracts';
import { NotImplemented } from '@ledger-node/errors';
import { bindService, serveGrpc } from '@ledger-node/grpc';
import { createLogger, type LogLevel } from '@ledger-node/telemetry';

export const serviceName = 'ledgernode.submission.v1.SubmissionService';

/** The submission service. This version submits nothing yet: every operation answers "not available". */
export async function start(flags: ParsedFlags) {
  const notYet = (operation: string) => async (): Promise<never> => {
    throw new NotImplemented(operation);
  };
  return serveGrpc({
    address: serviceAddress(flags, 'submission'),
    logger: createLogger('submission', flags.string('log_level') as LogLevel),
    services: [
      bindService(serviceName, SubmissionServiceService, {
        signPayment: notYet('SignPayment'),
        sendPayment: notYet('SendPayment'),
        submitSigned: notYet('SubmitSigned'),
        getSubmission: notYet('GetSubmission'),
        listSubmissions: notYet('ListSubmissions'),
      }),
    ],
  });
}
