import { KeystoreServiceService, LedgerStoreServiceService, SubmissionServiceService, SyncServiceService } from '@ledger-node/contracts';
import { LedgerNodeError } from '@ledger-node/errors';
import { createGrpcClient, refusingClient } from '@ledger-node/grpc';

/** What every call to the keystore or submission answers on a read-only node (-read_only). */
const readOnly = () =>
  new LedgerNodeError('unimplemented', 'this node is read-only (-read_only): it holds no local accounts, and signs, sends, submits and forwards nothing');

/**
 * The facade's gRPC clients, one per service it calls; on a read-only node the keystore and
 * submission clients refuse every call without dialling.
 */
export function createClients(addresses: { ledgerStore: string; sync: string; keystore: string; submission: string }, keystoreToken?: string, options: { readOnly?: boolean } = {}) {
  return {
    ledgerStore: createGrpcClient(LedgerStoreServiceService, addresses.ledgerStore, {
      serviceLabel: 'ledger-store',
      deadlineMs: 5_000,
      idempotent: [
        'getStatus',
        'getLedger',
        'getTransaction',
        'getTransactions',
        'getTransactionByIndex',
        'getAccountStates',
        'getAccountTransactions',
        'getAccountTransactionCount',
        'getStateObjects',
        'listStateObjects',
      ],
    }),
    sync: createGrpcClient(SyncServiceService, addresses.sync, { serviceLabel: 'sync', deadlineMs: 3_000, idempotent: ['getSyncStatus'] }),
    keystore: options.readOnly
      ? refusingClient(KeystoreServiceService, readOnly)
      : createGrpcClient(KeystoreServiceService, addresses.keystore, { serviceLabel: 'keystore', deadlineMs: 10_000, idempotent: ['listAccounts'], authToken: keystoreToken }),
    // Sends are not retried: a payment sent again is signed again (another sequence), and a send
    // while submission is down answers its clear error at once rather than after every retry.
    submission: options.readOnly
      ? refusingClient(SubmissionServiceService, readOnly)
      : createGrpcClient(SubmissionServiceService, addresses.submission, { serviceLabel: 'submission', deadlineMs: 30_000, idempotent: ['getSubmission', 'listSubmissions'] }),
  };
}

export type Clients = ReturnType<typeof createClients>;

export function closeClients(clients: Clients): void {
  for (const client of Object.values(clients)) client.close();
}
