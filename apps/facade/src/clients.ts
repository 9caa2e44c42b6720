import { KeystoreServiceService, LedgerStoreServiceService, SubmissionServiceService, SyncServiceService } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';

/** The facade's gRPC clients, one per service it calls. */
export function createClients(addresses: { ledgerStore: string; sync: string; keystore: string; submission: string }, keystoreToken?: string) {
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
    keystore: createGrpcClient(KeystoreServiceService, addresses.keystore, { serviceLabel: 'keystore', deadlineMs: 10_000, idempotent: ['listAccounts'], authToken: keystoreToken }),
    // Sends are not retried: a payment sent again is signed again (another sequence), and a send
    // while submission is down answers its clear error at once rather than after every retry.
    submission: createGrpcClient(SubmissionServiceService, addresses.submission, { serviceLabel: 'submission', deadlineMs: 30_000, idempotent: ['getSubmission', 'listSubmissions'] }),
  };
}

export type Clients = ReturnType<typeof createClients>;

export function closeClients(clients: Clients): void {
  for (const client of Object.values(clients)) client.close();
}
