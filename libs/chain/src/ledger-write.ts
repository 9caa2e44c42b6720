/**
 * The LedgerWrite of a verified ledger: its header, transactions and the index data the store
 * keeps, derived from the verified bytes alone. Sync writes what it fetched with it and
 * `ledger-node import` what it read from an export, so both store the same rows for the same bytes.
 */
import type { LedgerWrite, StateObjectChange, TransactionWrite } from '@ledger-node/contracts';
import type { ChainProfile } from './profiles';
import { indexTransactionOrPlaceholder } from './transaction-index';
import type { VerifiedLedger } from './verify-ledger';

/** A verified transaction its ledger stores without index data, and why (see indexTransactionOrPlaceholder). */
export interface IndexFailure {
  ledgerIndex: number;
  transactionHash: string;
  reason: string;
}

/** One transaction of a verified ledger with its write record; one that cannot be indexed is told to `onIndexFailure` and stored without index data. */
function transactionWrite(ledger: VerifiedLedger, position: number, profile: ChainProfile, onIndexFailure: (failure: IndexFailure) => void): TransactionWrite {
  const tx = ledger.transactions[position]!;
  const { index, failure } = indexTransactionOrPlaceholder(tx.txBlob, tx.metaBlob, profile, position);
  if (failure !== undefined) onIndexFailure({ ledgerIndex: ledger.ledgerIndex, transactionHash: tx.hash.toString('hex').toUpperCase(), reason: failure });
  return {
    hash: tx.hash,
    txBlob: tx.txBlob,
    metaBlob: tx.metaBlob,
    txIndex: index.txIndex,
    senderAccountId: index.senderAccountId,
    affectedAccounts: index.affectedAccounts.map(({ accountId, direction }) => ({ accountId, direction })),
    transactionType: index.transactionType,
    engineResult: index.engineResult,
    nftIds: index.nftIds,
    nftChange: index.nftChange,
  };
}

/**
 * The LedgerWrite of a verified ledger, with its proven state changes when they are known (the
 * objects it created, modified or deleted, with their images after and before it); without them
 * the ledger is stored and its state proven later.
 */
export function verifiedLedgerWrite(
  ledger: VerifiedLedger,
  profile: ChainProfile,
  onIndexFailure: (failure: IndexFailure) => void,
  provenChanges?: StateObjectChange[],
): LedgerWrite {
  return {
    ledgerIndex: ledger.ledgerIndex,
    ledgerHash: ledger.ledgerHash,
    headerBlob: ledger.headerBlob,
    transactions: ledger.transactions.map((_tx, position) => transactionWrite(ledger, position, profile, onIndexFailure)),
    stateChanges: provenChanges ?? [],
    stateChangesComplete: provenChanges !== undefined,
  };
}
