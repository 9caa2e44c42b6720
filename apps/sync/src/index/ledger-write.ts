/** The LedgerWrite of a verified ledger: its header, transactions and the index data the store keeps. */
import type { ChainProfile } from '@ledger-node/chain';
import type { LedgerWrite, StateObjectChange, TransactionWrite } from '@ledger-node/contracts';
import type { SyncHealth } from '../sync-health';
import type { VerifiedLedger } from '../verify/verify-ledger';
import { indexTransactionOrPlaceholder } from './transaction-index';

/** One transaction of a verified ledger with its write record; a transaction that cannot be indexed is told to `health` and stored without index data. */
function transactionWrite(ledger: VerifiedLedger, position: number, profile: ChainProfile, health: SyncHealth): TransactionWrite {
  const tx = ledger.transactions[position]!;
  const { index, failure } = indexTransactionOrPlaceholder(tx.txBlob, tx.metaBlob, profile, position);
  if (failure !== undefined) health.indexFailed({ ledgerIndex: ledger.ledgerIndex, transactionHash: tx.hash.toString('hex').toUpperCase(), reason: failure });
  return {
    hash: tx.hash,
    txBlob: tx.txBlob,
    metaBlob: tx.metaBlob,
    txIndex: index.txIndex,
    senderAccountId: index.senderAccountId,
    affectedAccounts: index.affectedAccounts.map(({ accountId, direction }) => ({ accountId, direction })),
    transactionType: index.transactionType,
    engineResult: index.engineResult,
  };
}

/**
 * The LedgerWrite of a verified ledger, with its proven state changes when they are known
 * (state/state-changes.ts: the objects it created, modified or deleted, with their images after and
 * before it); without them the ledger is stored and its state proven later (state/state-prover.ts).
 */
export function ledgerWriteOf(ledger: VerifiedLedger, profile: ChainProfile, health: SyncHealth, provenChanges?: StateObjectChange[]): LedgerWrite {
  return {
    ledgerIndex: ledger.ledgerIndex,
    ledgerHash: ledger.ledgerHash,
    headerBlob: ledger.headerBlob,
    transactions: ledger.transactions.map((_tx, position) => transactionWrite(ledger, position, profile, health)),
    stateChanges: provenChanges ?? [],
    stateChangesComplete: provenChanges !== undefined,
  };
}
