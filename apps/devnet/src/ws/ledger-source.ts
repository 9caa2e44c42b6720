/**
 * What the WebSocket handlers read: closed ledgers, their transactions, state and account history.
 * The live chain and the replay of recorded ledgers both implement it, so one set of handlers
 * serves both; only the live chain has a writer (submit, ledger_accept).
 */
import type { ChainProfile } from '@ledger-node/chain';
import type { LedgerRange } from '@ledger-node/contracts';
import type { ClosedLedger, ClosedTransaction, FeeSettings, JsonObject, SimulateRefusal, SimulateResult, StateEntry, SubmitResult } from '../engine/types';

export type { LedgerRange };

/** A transaction with the closed ledger that holds it. */
export interface LedgerTransaction {
  ledger: ClosedLedger;
  tx: ClosedTransaction;
}

/** rippled's account_tx resume point: the ledger and TransactionIndex of the next transaction to return. */
export interface AccountTxMarker {
  ledger: number;
  seq: number;
}

export interface AccountTxQuery {
  /** Address in the profile alphabet. */
  account: string;
  minLedgerIndex: number;
  maxLedgerIndex: number;
  /** Oldest first when true (rippled `forward`). */
  forward: boolean;
  limit: number;
  marker?: AccountTxMarker;
}

export interface AccountTxPage {
  transactions: LedgerTransaction[];
  /** Present when more transactions match. */
  marker?: AccountTxMarker;
}

/** The write side of the live chain. */
export interface LedgerWriter {
  submit(txBlobHex: string): SubmitResult;
  /** rippled simulate: the transaction applied to a copy of the open ledger (DevnetChain.simulate). */
  simulate(txJson: JsonObject): SimulateResult | SimulateRefusal;
  /** Closes the open ledger now (rippled `ledger_accept`). */
  acceptLedger(): ClosedLedger;
  openLedgerIndex(): number;
  /** Transactions in the open ledger or held for retry. */
  pendingCount(): number;
}

export interface LedgerSource {
  readonly mode: 'live' | 'replay';
  readonly profile: ChainProfile;
  readonly fees: FeeSettings;
  /** rippled `network_id`; at most 1024 so that clients need no NetworkID field in transactions. */
  readonly networkId: number;
  /** The newest validated ledger; undefined only for a source that holds none. */
  validatedLedger(): ClosedLedger | undefined;
  /** The contiguous ranges of ledgers held, ascending. */
  completeRanges(): LedgerRange[];
  ledger(ledgerIndex: number): ClosedLedger | undefined;
  ledgerByHash(ledgerHash: string): ClosedLedger | undefined;
  transaction(txHash: string): LedgerTransaction | undefined;
  /** Whether state objects can be read at this ledger (a recorded ledger may come without them). */
  holdsState(ledgerIndex: number): boolean;
  stateEntry(index: string, ledgerIndex: number): StateEntry | undefined;
  /** State entries in ascending index order after `afterIndex` (exclusive), at most `limit`. */
  stateEntries(ledgerIndex: number, afterIndex: string | undefined, limit: number): StateEntry[];
  accountTransactions(query: AccountTxQuery): AccountTxPage;
  /**
   * Calls `listener` with each ledger this follower should be told about, in ascending order:
   * every newly closed ledger on the live chain, the recorded ledgers at the replay rate in replay
   * mode. Returns the function that stops following.
   */
  followLedgers(listener: (ledger: ClosedLedger) => void): () => void;
  readonly writer?: LedgerWriter;
}

export { formatRanges } from '@ledger-node/rippled-api';

/** Contiguous ranges of a set of ledger indexes. */
export function rangesOf(ledgerIndexes: Iterable<number>): LedgerRange[] {
  const sorted = [...new Set(ledgerIndexes)].sort((a, b) => a - b);
  const ranges: LedgerRange[] = [];
  for (const ledgerIndex of sorted) {
    const last = ranges.at(-1);
    if (last && last.last + 1 === ledgerIndex) last.last = ledgerIndex;
    else ranges.push({ first: ledgerIndex, last: ledgerIndex });
  }
  return ranges;
}
