/**
 * What a built history is made of: transactions per type and per result, ledger sizes, and the
 * sizes of the signed transactions and their metadata. Logged with "history built" (the bench reads
 * it from there) and checked by the tests of the mainnet-shaped history.
 */
import type { ClosedLedger } from '../engine/types';

export interface SizeSpread {
  min: number;
  max: number;
  mean: number;
}

export interface HistoryShape {
  ledgers: number;
  transactions: number;
  /** Count per TransactionType. */
  types: Record<string, number>;
  /** Count per engine result token (TransactionResult). */
  results: Record<string, number>;
  /** Transactions per ledger. */
  ledgerSizes: SizeSpread;
  /** Bytes of each signed transaction blob. */
  txBytes: SizeSpread;
  /** Bytes of each transaction's serialized metadata. */
  metaBytes: SizeSpread;
  /** Transactions that carry Memos. */
  withMemos: number;
}

function spreadOf(values: readonly number[]): SizeSpread {
  if (values.length === 0) return { min: 0, max: 0, mean: 0 };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const value of values) {
    min = Math.min(min, value);
    max = Math.max(max, value);
    sum += value;
  }
  return { min, max, mean: Math.round((sum / values.length) * 10) / 10 };
}

function increment(tally: Record<string, number>, key: string): void {
  tally[key] = (tally[key] ?? 0) + 1;
}

export function historyShape(ledgers: readonly ClosedLedger[]): HistoryShape {
  const types: Record<string, number> = {};
  const results: Record<string, number> = {};
  const txBytes: number[] = [];
  const metaBytes: number[] = [];
  let withMemos = 0;
  for (const ledger of ledgers) {
    for (const tx of ledger.transactions) {
      increment(types, String(tx.txJson.TransactionType));
      increment(results, String(tx.metaJson.TransactionResult));
      txBytes.push(tx.txBlob.length / 2);
      metaBytes.push(tx.metaBlob.length / 2);
      if (Array.isArray(tx.txJson.Memos)) withMemos++;
    }
  }
  return {
    ledgers: ledgers.length,
    transactions: txBytes.length,
    types,
    results,
    ledgerSizes: spreadOf(ledgers.map((ledger) => ledger.transactions.length)),
    txBytes: spreadOf(txBytes),
    metaBytes: spreadOf(metaBytes),
    withMemos,
  };
}
