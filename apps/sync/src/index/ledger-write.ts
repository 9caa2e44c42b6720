/** The LedgerWrite of a verified ledger: its header, transactions and the index data the store keeps. */
import type { ChainProfile } from '@ledger-node/chain';
import type { LedgerWrite, TransactionWrite } from '@ledger-node/contracts';
import type { LedgerStateChanges } from '../state/state-changes';
import type { VerifiedLedger } from '../verify/verify-ledger';
import { indexTransaction } from './transaction-index';

/** One transaction of a verified ledger with its write record. */
export function transactionWrite(tx: VerifiedLedger['transactions'][number], profile: ChainProfile): TransactionWrite {
  const index = indexTransaction(tx.txBlob, tx.metaBlob, profile);
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
 * The LedgerWrite of a verified ledger with its state changes (state/state-changes.ts): the
 * objects it created, modified or deleted, with their images after and before it.
 */
export function ledgerWriteOf(ledger: VerifiedLedger, profile: ChainProfile, state: LedgerStateChanges): LedgerWrite {
  return {
    ledgerIndex: ledger.ledgerIndex,
    ledgerHash: ledger.ledgerHash,
    headerBlob: ledger.headerBlob,
    transactions: ledger.transactions.map((tx) => transactionWrite(tx, profile)),
    stateChanges: state.changes,
    stateChangesComplete: state.complete,
  };
}
