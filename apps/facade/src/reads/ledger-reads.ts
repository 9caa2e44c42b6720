import type { GetAccountStateRequest, GetAccountStateResponse, TransactionRecord } from '@ledger-node/contracts';
import { Internal } from '@ledger-node/errors';
import { fromItemError } from '@ledger-node/grpc';
import type { Clients } from '../clients';
import { Batcher } from './batcher';

/** Keys per GetTransactions / GetAccountStates call (ledgerstore.proto allows 1000). */
const MAX_KEYS_PER_CALL = 1000;

/**
 * The ledger-store reads that many JSON-RPC calls make at once (transactions by hash, account
 * state), each gathered per event-loop turn into one gRPC call: a batch of 100 lookups, or 50
 * clients asking together, costs one hop instead of one each.
 */
export function ledgerReads(clients: Clients) {
  const store = clients.ledgerStore;
  return {
    /** A stored transaction by hash; undefined when it is not stored. */
    transaction: new Batcher<Buffer, TransactionRecord | undefined>('ledger-store GetTransactions', MAX_KEYS_PER_CALL, async (hashes) => {
      const { transactions } = await store.getTransactions({ hashes });
      const byHash = new Map(transactions.map((record) => [record.hash.toString('hex'), record]));
      return hashes.map((hash) => byHash.get(hash.toString('hex')));
    }),
    /** An account's root and trust lines at a ledger, or the error GetAccountStates refuses that read with. */
    accountState: new Batcher<GetAccountStateRequest, GetAccountStateResponse>('ledger-store GetAccountStates', MAX_KEYS_PER_CALL, async (requests) => {
      const { results } = await store.getAccountStates({ requests });
      return results.map(({ result }) => {
        if (result?.$case === 'state') return result.state;
        if (result?.$case === 'error') return fromItemError(result.error);
        return new Internal('the ledger-store answered a read with neither a state nor an error');
      });
    }),
  };
}

export type LedgerReads = ReturnType<typeof ledgerReads>;
