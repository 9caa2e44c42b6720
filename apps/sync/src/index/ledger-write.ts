/** The LedgerWrite of a verified ledger: its header, transactions and the index data the store keeps. */
import type { ChainProfile } from '@ledger-node/chain';
import type { LedgerWrite, StateObjectChange, TransactionWrite } from '@ledger-node/contracts';
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
 * State objects the ledger created, modified or deleted. Versioned state is derived from metadata
 * in a later step; until then a ledger is written with no state changes.
 */
export function stateChangesOf(_ledger: VerifiedLedger, _profile: ChainProfile): StateObjectChange[] {
  return [];
}

export function ledgerWriteOf(ledger: VerifiedLedger, profile: ChainProfile): LedgerWrite {
  return {
    ledgerIndex: ledger.ledgerIndex,
    ledgerHash: ledger.ledgerHash,
    headerBlob: ledger.headerBlob,
    transactions: ledger.transactions.map((tx) => transactionWrite(tx, profile)),
    stateChanges: stateChangesOf(ledger, profile),
  };
}
