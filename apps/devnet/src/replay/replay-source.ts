/**
 * Recorded real ledgers served through the same API as the live chain (read-only). A client that
 * follows the `ledger` stream is told about every recorded ledger in ascending order, at
 * `ledgersPerSecond`, starting when it subscribes.
 */
import type { ChainProfile } from '@ledger-node/chain';
import type { Logger } from '@ledger-node/telemetry';
import type { ClosedLedger, FeeSettings, StateEntry } from '../engine/types';
import { AccountTxIndex } from '../ws/account-tx-index';
import { rangesOf, type AccountTxPage, type AccountTxQuery, type LedgerRange, type LedgerSource, type LedgerTransaction } from '../ws/ledger-source';
import type { RecordedLedger } from './recorded-ledgers';

/** Recorded mainnet ledgers come from network 0 (rippled: the XRP Ledger mainnet's network id). */
export const REPLAY_NETWORK_ID = 0;

export interface ReplaySourceOptions {
  ledgersPerSecond: number;
  logger: Logger;
}

export class ReplayLedgerSource implements LedgerSource {
  readonly mode = 'replay' as const;
  readonly networkId = REPLAY_NETWORK_ID;
  readonly fees: FeeSettings;
  private readonly byIndex = new Map<number, RecordedLedger>();
  private readonly byHash = new Map<string, RecordedLedger>();
  private readonly transactions = new Map<string, LedgerTransaction>();
  private readonly accountHistory: AccountTxIndex;
  private readonly ranges: LedgerRange[];
  private readonly followers = new Set<NodeJS.Timeout>();

  constructor(
    readonly profile: ChainProfile,
    private readonly ledgers: readonly RecordedLedger[],
    private readonly options: ReplaySourceOptions,
  ) {
    this.fees = { baseFee: profile.baseFee, reserveBase: profile.reserveBase, reserveIncrement: profile.reserveIncrement };
    this.accountHistory = new AccountTxIndex(profile);
    const ascending = [...ledgers].sort((a, b) => a.header.ledgerIndex - b.header.ledgerIndex);
    for (const ledger of ascending) {
      this.byIndex.set(ledger.header.ledgerIndex, ledger);
      this.byHash.set(ledger.hash, ledger);
      for (const tx of ledger.transactions) this.transactions.set(tx.hash, { ledger, tx });
      this.accountHistory.add(ledger);
    }
    this.ledgers = ascending;
    this.ranges = rangesOf(this.byIndex.keys());
  }

  validatedLedger(): ClosedLedger | undefined {
    return this.ledgers.at(-1);
  }

  completeRanges(): LedgerRange[] {
    return this.ranges.map((range) => ({ ...range }));
  }

  ledger(ledgerIndex: number): ClosedLedger | undefined {
    return this.byIndex.get(ledgerIndex);
  }

  ledgerByHash(ledgerHash: string): ClosedLedger | undefined {
    return this.byHash.get(ledgerHash.toUpperCase());
  }

  transaction(txHash: string): LedgerTransaction | undefined {
    return this.transactions.get(txHash.toUpperCase());
  }

  holdsState(ledgerIndex: number): boolean {
    return this.byIndex.get(ledgerIndex)?.state !== undefined;
  }

  stateEntry(index: string, ledgerIndex: number): StateEntry | undefined {
    const state = this.byIndex.get(ledgerIndex)?.state;
    if (!state) return undefined;
    const position = firstAfter(state, index.toUpperCase(), true);
    const entry = state[position];
    return entry && entry.index === index.toUpperCase() ? entry : undefined;
  }

  stateEntries(ledgerIndex: number, afterIndex: string | undefined, limit: number): StateEntry[] {
    const state = this.byIndex.get(ledgerIndex)?.state ?? [];
    const start = afterIndex === undefined ? 0 : firstAfter(state, afterIndex.toUpperCase(), false);
    return state.slice(start, start + limit);
  }

  accountTransactions(query: AccountTxQuery): AccountTxPage {
    return this.accountHistory.page(query);
  }

  followLedgers(listener: (ledger: ClosedLedger) => void): () => void {
    const intervalMs = 1000 / this.options.ledgersPerSecond;
    let next = 0;
    let timer: NodeJS.Timeout | undefined;
    const announce = () => {
      const ledger = this.ledgers[next++];
      if (timer) this.followers.delete(timer);
      timer = undefined;
      if (!ledger) return;
      try {
        listener(ledger);
      } catch (error) {
        this.options.logger.error({ err: error, ledgerIndex: ledger.header.ledgerIndex }, 'announcing a recorded ledger failed');
      }
      if (next < this.ledgers.length) {
        timer = setTimeout(announce, intervalMs);
        this.followers.add(timer);
      }
    };
    // The first announcement waits one interval, so it follows the subscribe answer.
    timer = setTimeout(announce, intervalMs);
    this.followers.add(timer);
    return () => {
      if (timer) {
        clearTimeout(timer);
        this.followers.delete(timer);
      }
      timer = undefined;
      next = this.ledgers.length;
    };
  }

  /** Stops every announcement in progress. */
  stop(): void {
    for (const timer of this.followers) clearTimeout(timer);
    this.followers.clear();
  }
}

/** Position of `index` (inclusive) or of the first entry after it (exclusive) in an ascending list. */
function firstAfter(state: readonly StateEntry[], index: string, inclusive: boolean): number {
  let low = 0;
  let high = state.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const key = state[middle]!.index;
    if (key < index || (!inclusive && key === index)) low = middle + 1;
    else high = middle;
  }
  return low;
}
