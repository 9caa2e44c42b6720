import type { LedgerStoreServiceService } from '@ledger-node/contracts';
import { NotImplemented } from '@ledger-node/errors';
import type { Handlers } from '@ledger-node/grpc';
import type { LedgerStore } from '../store';

/** gRPC handlers: translate contract messages into repository calls. */
export function ledgerStoreHandlers(store: LedgerStore): Handlers<typeof LedgerStoreServiceService> {
  const notYet = (operation: string) => async (): Promise<never> => {
    throw new NotImplemented(operation);
  };
  return {
    async getStatus() {
      const [lowest, highest, dbSizeBytes] = await Promise.all([
        store.ledgers.edge('lowest'),
        store.ledgers.edge('highest'),
        store.kv.sizeOnDisk(),
      ]);
      return {
        completeRanges: [],
        lowestLedgerIndex: lowest,
        highestLedgerIndex: highest,
        ledgerCount: 0n,
        transactionCount: 0n,
        stateObjectVersionCount: 0n,
        dbSizeBytes: BigInt(dbSizeBytes),
        stateDownload: undefined,
      };
    },
    putLedger: notYet('PutLedger'),
    putLedgers: notYet('PutLedgers'),
    putStateObjects: notYet('PutStateObjects'),
    setSyncMeta: notYet('SetSyncMeta'),
    getSyncMeta: notYet('GetSyncMeta'),
    getLedger: notYet('GetLedger'),
    getLedgerHeaders: notYet('GetLedgerHeaders'),
    getTransaction: notYet('GetTransaction'),
    getTransactionByIndex: notYet('GetTransactionByIndex'),
    getAccountState: notYet('GetAccountState'),
    getStateObject: notYet('GetStateObject'),
    getAccountTransactions: notYet('GetAccountTransactions'),
    getAccountTransactionCount: notYet('GetAccountTransactionCount'),
    async *watchLedgers() {
      throw new NotImplemented('WatchLedgers');
    },
  };
}
