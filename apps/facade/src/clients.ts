import { LedgerStoreServiceService } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';

/** The facade's gRPC clients, one per service it calls. */
export function createClients(addresses: { ledgerStore: string }) {
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
  };
}

export type Clients = ReturnType<typeof createClients>;
