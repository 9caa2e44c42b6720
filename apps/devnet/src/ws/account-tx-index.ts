/**
 * Account history for account_tx: which transactions affected which account, in ledger order.
 * rippled derives the affected accounts from the metadata (TxMeta::getAffectedAccounts): every
 * AccountID field of the created/modified/deleted entries, plus the issuers of trust-line limits
 * and offer amounts.
 */
import type { ChainProfile } from '@ledger-node/chain';
import { affectedAccounts } from '@ledger-node/rippled-api';
import type { ClosedLedger, ClosedTransaction } from '../engine/types';
import type { AccountTxMarker, AccountTxPage, AccountTxQuery, LedgerTransaction } from './ledger-source';

/** Addresses whose history includes this transaction. */
export function affectedAccountsOf(tx: ClosedTransaction, profile: ChainProfile): Set<string> {
  return affectedAccounts(tx.txJson, tx.metaJson, profile);
}

interface IndexedTransaction extends LedgerTransaction {
  ledgerIndex: number;
  txIndex: number;
}

function compareToMarker(entry: IndexedTransaction, marker: AccountTxMarker): number {
  return entry.ledgerIndex - marker.ledger || entry.txIndex - marker.seq;
}

export class AccountTxIndex {
  /** Per address, ascending by (ledger index, TransactionIndex). */
  private readonly byAccount = new Map<string, IndexedTransaction[]>();
  private lastIndexedLedger = 0;

  constructor(private readonly profile: ChainProfile) {}

  /** Adds a ledger's transactions; ledgers must come in ascending order. */
  add(ledger: ClosedLedger): void {
    const ledgerIndex = ledger.header.ledgerIndex;
    if (ledgerIndex <= this.lastIndexedLedger) {
      throw new Error(`account history must be built in ledger order: ${ledgerIndex} after ${this.lastIndexedLedger}`);
    }
    this.lastIndexedLedger = ledgerIndex;
    const ordered = [...ledger.transactions].sort((a, b) => a.index - b.index);
    for (const tx of ordered) {
      const entry: IndexedTransaction = { ledger, tx, ledgerIndex, txIndex: tx.index };
      for (const account of affectedAccountsOf(tx, this.profile)) {
        let list = this.byAccount.get(account);
        if (!list) this.byAccount.set(account, (list = []));
        list.push(entry);
      }
    }
  }

  page(query: AccountTxQuery): AccountTxPage {
    const list = this.byAccount.get(query.account) ?? [];
    const inRange = (entry: IndexedTransaction) =>
      entry.ledgerIndex >= query.minLedgerIndex && entry.ledgerIndex <= query.maxLedgerIndex;
    const transactions: LedgerTransaction[] = [];
    if (query.forward) {
      // First entry at or after the marker, else at or after the lowest ledger of the range.
      let position = lowerBound(list, (entry) =>
        query.marker ? compareToMarker(entry, query.marker) >= 0 : entry.ledgerIndex >= query.minLedgerIndex,
      );
      for (; position < list.length && transactions.length < query.limit; position++) {
        const entry = list[position]!;
        if (entry.ledgerIndex > query.maxLedgerIndex) return { transactions };
        if (inRange(entry)) transactions.push(entry);
      }
      const next = list[position];
      return next && inRange(next) ? { transactions, marker: { ledger: next.ledgerIndex, seq: next.txIndex } } : { transactions };
    }
    // Newest first: last entry at or before the marker, else at or before the highest ledger of the range.
    let position =
      lowerBound(list, (entry) =>
        query.marker ? compareToMarker(entry, query.marker) > 0 : entry.ledgerIndex > query.maxLedgerIndex,
      ) - 1;
    for (; position >= 0 && transactions.length < query.limit; position--) {
      const entry = list[position]!;
      if (entry.ledgerIndex < query.minLedgerIndex) return { transactions };
      if (inRange(entry)) transactions.push(entry);
    }
    const next = position >= 0 ? list[position] : undefined;
    return next && inRange(next) ? { transactions, marker: { ledger: next.ledgerIndex, seq: next.txIndex } } : { transactions };
  }
}

/** First position whose entry satisfies `isAtOrAfter` (entries are sorted so it holds for a suffix). */
function lowerBound<T>(list: readonly T[], isAtOrAfter: (entry: T) => boolean): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isAtOrAfter(list[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
