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
      ],
    }),
    sync: createGrpcClient(SyncServiceService, addresses.sync, { serviceLabel: 'sync', deadlineMs: 3_000, idempotent: ['getSyncStatus'] }),
    keystore: createGrpcClient(KeystoreServiceService, addresses.keystore, { serviceLabel: 'keystore', deadlineMs: 10_000, idempotent: ['listAccounts'], authToken: keystoreToken }),
    // A signed blob sent twice is one transaction (one hash; the submission book and the upstream
    // know it), so submitSigned is retried while submission starts or restarts (about 13 s of
    // attempts). sendPayment is not: a retried payment would be signed again with the next sequence.
    submission: createGrpcClient(SubmissionServiceService, addresses.submission, {
      serviceLabel: 'submission',
      deadlineMs: 30_000,
      idempotent: ['getSubmission', 'listSubmissions', 'submitSigned'],
      retries: 10,
    }),
  };
}

export type Clients = ReturnType<typeof createClients>;

export function closeClients(clients: Clients): void {
  for (const client of Object.values(clients)) client.close();
}
