import { LedgerStoreServiceService, SyncServiceService } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';

/** The facade's gRPC clients, one per service it calls. */
export function createClients(addresses: { ledgerStore: string; sync: string }) {
  return {
    ledgerStore: createGrpcClient(LedgerStoreServiceService, addresses.ledgerStore, {
      serviceLabel: 'ledger-store',
      deadlineMs: 5_000,
      idempotent: [
        'getStatus',
        'getLedger',
        'getLedgerHeaders',
        'getTransaction',
        'getTransactionByIndex',
        'getAccountState',
        'getStateObject',
        'getAccountTransactions',
        'getAccountTransactionCount',
        'getSyncMeta',
      ],
    }),
    sync: createGrpcClient(SyncServiceService, addresses.sync, { serviceLabel: 'sync', deadlineMs: 3_000, idempotent: ['getSyncStatus'] }),
  };
}

export type Clients = ReturnType<typeof createClients>;

export function closeClients(clients: Clients): void {
  for (const client of Object.values(clients)) client.close();
}
