/**
 * Ledgers an import stored that nothing proved (`ledger-node import` of a run with no evidence of
 * its own, no stored child naming it, see transfer/proven.ts): stored whole, with their
 * transactions and index entries, but kept in the unproven ranges, outside the complete ranges, so
 * that no read serves them. Imported runs are linked to every stored neighbour (the import checks
 * each parent link), so a proven ledger written beside them settles them:
 *
 * - a proven ledger whose parent_hash is the hash of the unproven ledger below it proves that one
 *   and, through the links, its whole unproven run below: they join the complete ranges;
 * - a proven ledger stored identically at an unproven index proves it, and its run below, alike;
 * - a proven ledger that contradicts one (another hash at its index, or a parent_hash that is not
 *   the unproven parent's hash, or an unproven child that does not name it as parent) removes it,
 *   with every unproven ledger above it in its run, which all descend from it.
 *
 * Sync writes only proven ledgers, and its backfill fills the gap the unproven ranges leave from
 * the top down: the first ledger it writes above an unproven run settles the run.
 */
import type { LedgerWrite, TransactionWrite } from '@ledger-node/contracts';
import { decodeLedgerHeader } from '@ledger-node/chain';
import type { LedgerBackend } from '../backend/backend';
import type { StoredHeader, StoredTransaction } from '../backend/records';
import { addSpan, rangeHolding, removeFromRanges, removeSpan, type LedgerRange } from '../ledgers/ranges';
import type { Holdings } from './holdings';
import { requireStored } from './ledger-reads';

/** The sender and accounts a stored transaction's write indexed it under, re-derived from its bytes (as sync derived them). */
export type IndexOf = (tx: StoredTransaction, position: number) => Pick<TransactionWrite, 'senderAccountId' | 'affectedAccounts' | 'nftIds' | 'nftChange'>;

/** What settling unproven ledgers did, for the log. */
export type UnprovenOutcome = { proven: LedgerRange; by: number } | { removed: LedgerRange; reason: string };

const hex = (bytes: Buffer) => bytes.toString('hex').toUpperCase();

/** The write a stored ledger was stored with, re-derived from its stored bytes: what removing it takes away. */
export async function storedLedgerWrite(backend: LedgerBackend, header: StoredHeader, indexOf: IndexOf): Promise<LedgerWrite> {
  const transactions = (await backend.transactions(await backend.ledgerTransactionHashes(header.ledgerIndex))).map((tx) => requireStored(tx, header.ledgerIndex));
  return {
    ledgerIndex: header.ledgerIndex,
    ledgerHash: header.ledgerHash,
    headerBlob: header.header,
    transactions: transactions.map((tx, position) => ({
      hash: tx.hash,
      txBlob: tx.txBlob,
      metaBlob: tx.metaBlob,
      txIndex: tx.txIndex,
      transactionType: tx.transactionType,
      engineResult: tx.engineResult,
      ...indexOf(tx, position),
    })),
    stateChanges: [],
    stateChangesComplete: false,
  };
}

export class UnprovenLedgers {
  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    private readonly indexOf: IndexOf | undefined,
    private readonly onOutcome: ((outcome: UnprovenOutcome) => void) | undefined,
  ) {}

  /**
   * Before proven `writes` are stored (in the write queue): removes the unproven ledgers they
   * contradict, and answers, for each write, the unproven ledger it proves with its run below
   * (undefined: none), to promote once that write is stored.
   */
  async settle(writes: readonly LedgerWrite[]): Promise<(number | undefined)[]> {
    const { holdings } = this;
    if (holdings.unprovenRanges.length === 0) return writes.map(() => undefined);
    const near = [...new Set(writes.flatMap((write) => [write.ledgerIndex - 1, write.ledgerIndex, write.ledgerIndex + 1]))].filter((index) => holdings.unproven(index));
    const stored = new Map((await this.backend.headers(near)).map((header) => [header.ledgerIndex, header]));
    const storedUnproven = (index: number) => (holdings.unproven(index) ? stored.get(index) : undefined);
    const proves: (number | undefined)[] = [];
    for (const write of writes) {
      const { ledgerIndex } = write;
      const hash = hex(write.ledgerHash);
      const parentHash = decodeLedgerHeader(write.headerBlob).parentHash.toUpperCase();
      let proven: number | undefined;
      const own = storedUnproven(ledgerIndex);
      if (own && own.ledgerHash.equals(write.ledgerHash)) proven = ledgerIndex;
      else if (own) await this.removeRun(ledgerIndex, `the network's ledger ${ledgerIndex} is ${hash}, not ${hex(own.ledgerHash)}`);
      const parent = storedUnproven(ledgerIndex - 1);
      if (parent && hex(parent.ledgerHash) === parentHash) proven ??= ledgerIndex - 1;
      else if (parent) await this.remove(ledgerIndex - 1, ledgerIndex - 1, `the network's ledger ${ledgerIndex} names parent ${parentHash}, not ${hex(parent.ledgerHash)}`);
      const child = storedUnproven(ledgerIndex + 1);
      const childParent = child && decodeLedgerHeader(child.header).parentHash.toUpperCase();
      if (child && childParent !== hash) await this.removeRun(ledgerIndex + 1, `it names parent ${childParent}, and the network's ledger ${ledgerIndex} is ${hash}`);
      proves.push(proven);
    }
    return proves;
  }

  /** Moves each unproven ledger of `proven` (with its unproven run below it) to the complete ranges, in one write; `by` names what proved each. */
  async promote(proven: readonly { ledgerIndex: number; by: number }[]): Promise<void> {
    const { holdings } = this;
    let { completeRanges, unprovenRanges } = holdings;
    const spans: { span: LedgerRange; by: number }[] = [];
    for (const { ledgerIndex, by } of proven) {
      const run = rangeHolding(unprovenRanges, ledgerIndex);
      if (!run) continue;
      const span = { first: run.first, last: ledgerIndex };
      unprovenRanges = removeSpan(unprovenRanges, span);
      completeRanges = addSpan(completeRanges, span);
      spans.push({ span, by });
    }
    if (spans.length === 0) return;
    await this.backend.recordRanges({ completeRanges, unprovenRanges });
    holdings.completeRanges = completeRanges;
    holdings.unprovenRanges = unprovenRanges;
    holdings.announce('stored_below_tip');
    for (const { span, by } of spans) this.onOutcome?.({ proven: span, by });
  }

  /** Removes the unproven ledger at `first` and the rest of its run above it. */
  private removeRun(first: number, reason: string): Promise<void> {
    return this.remove(first, rangeHolding(this.holdings.unprovenRanges, first)!.last, reason);
  }

  /** Removes the unproven ledgers `first`..`last`, one atomic write each, highest first (a crash leaves the lower ones unproven, still linked). */
  private async remove(first: number, last: number, reason: string): Promise<void> {
    const { holdings, indexOf } = this;
    if (!indexOf) throw new Error('the store was opened without the transaction indexer that removing a stored ledger needs');
    for (let ledgerIndex = last; ledgerIndex >= first; ledgerIndex--) {
      const header = await this.backend.header(ledgerIndex);
      if (!header) continue;
      const unprovenRanges = removeFromRanges(holdings.unprovenRanges, ledgerIndex);
      holdings.counters = await this.backend.removeLedger(await storedLedgerWrite(this.backend, header, indexOf), header, { completeRanges: holdings.completeRanges, unprovenRanges }, holdings.counters);
      holdings.unprovenRanges = unprovenRanges;
    }
    this.onOutcome?.({ removed: { first, last }, reason });
  }
}
