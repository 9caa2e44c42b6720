/**
 * Bounded history (-ledger_history): the newest ledgers are kept, the lowest removed in the
 * background a batch per write, then the state versions no kept ledger reads swept.
 */
import type { LedgerWrite } from '@ledger-node/contracts';
import type { LedgerBackend } from '../backend/backend';
import type { StoredHeader } from '../backend/records';
import { rangesOf, removeFromRanges, type LedgerRange } from '../ledgers/ranges';
import type { Holdings } from './holdings';
import { storedLedgerWrite, type IndexOf } from './unproven';
import type { WriteQueue } from './write-queue';

/** Ledgers removed per atomic write when history is bounded (-ledger_history). */
export const PRUNE_BATCH = 16;
/** How often a store with bounded history looks for ledgers to remove. */
const PRUNE_INTERVAL_MS = 1_000;
/** State versions read per sweep write (bounded history). */
const SWEEP_VERSIONS = 4096;

/** Bounded history (-ledger_history): the newest `ledgers` are kept, the lowest removed in the background. */
export interface HistoryOptions {
  /** Ledgers kept, ending at the highest stored; 0 keeps every ledger. */
  ledgers: number;
  /** How a removed ledger's transactions were indexed (the same chain profile as sync's): its index entries and sent counts go with it. */
  indexOf: IndexOf;
  /** Ledgers per atomic removal (PRUNE_BATCH). */
  batch?: number;
  intervalMs?: number;
  /** A removal failed; it is tried again after the interval. */
  onError?: (error: unknown) => void;
  /** Ledgers were removed (for logs and tests). */
  onPruned?: (removed: LedgerRange) => void;
  /** Nothing is left to remove or sweep until the next ledger is stored. */
  onSettled?: () => void;
}

export class Retention {
  private history: HistoryOptions | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  /** The state version sweep after a removal: the object to continue after, and whether ledgers were removed since it started. */
  private sweep: { afterKey: Buffer | undefined; restart: boolean } | undefined;

  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    private readonly queue: WriteQueue,
  ) {}

  /** Removes the lowest ledgers every interval, a batch per write, until the newest `ledgers` remain; then sweeps superseded state versions. */
  start(history: HistoryOptions): void {
    this.history = history;
    this.holdings.keptLedgers = history.ledgers;
    const step = async () => {
      let more = false;
      try {
        more = await this.step();
        if (!more) history.onSettled?.();
      } catch (error) {
        history.onError?.(error);
      }
      // Each step is its own write in the queue: reads never wait, and writes wait one batch at most.
      if (this.history === history) this.pruneTimer = setTimeout(() => void step(), more ? 0 : (history.intervalMs ?? PRUNE_INTERVAL_MS));
    };
    this.pruneTimer = setTimeout(() => void step(), 0);
  }

  stop(): void {
    this.history = undefined;
    this.holdings.keptLedgers = undefined;
    clearTimeout(this.pruneTimer);
  }

  /** One removal or sweep write; true when more work waits. */
  async step(): Promise<boolean> {
    const removed = await this.queue.write(() => this.pruneLowest());
    if (removed) {
      this.history?.onPruned?.(removed);
      this.sweep = this.sweep ? { ...this.sweep, restart: true } : { afterKey: undefined, restart: false };
      return true;
    }
    if (!this.sweep) return false;
    await this.queue.write(() => this.sweepStep());
    return this.sweep !== undefined;
  }

  /** The lowest ledger kept: the highest stored minus the ledgers kept, plus one. */
  floor(): number | undefined {
    return this.holdings.retentionFloor();
  }

  /**
   * Removes up to a batch of the lowest stored ledgers below the kept window in one atomic write.
   * The complete ranges held in memory rise first, so that no read started from now on is told a
   * ledger exists that is going; reads of removed ledgers answer as for any ledger not stored.
   */
  private async pruneLowest(): Promise<LedgerRange | undefined> {
    const { history, holdings } = this;
    const floor = this.floor();
    // The lowest stored ledger, an unproven one included.
    const lowest = Math.min(holdings.lowest() ?? Number.POSITIVE_INFINITY, holdings.unprovenRanges[0]?.first ?? Number.POSITIVE_INFINITY);
    if (!history || floor === undefined || !Number.isFinite(lowest) || lowest >= floor) return undefined;
    const headers = await this.backend.headersBetween(lowest, floor - 1, history.batch ?? PRUNE_BATCH);
    if (headers.length === 0) return undefined;
    const removed: { write: LedgerWrite; stored: StoredHeader }[] = [];
    for (const header of headers) removed.push({ stored: header, write: await storedLedgerWrite(this.backend, header, history.indexOf) });
    const ranges = headers.reduce((current, header) => removeFromRanges(current, header.ledgerIndex), holdings.completeRanges);
    // Ledgers an import left unproven below the floor go too, out of the unproven ranges.
    const unprovenRanges = headers.reduce((current, header) => removeFromRanges(current, header.ledgerIndex), holdings.unprovenRanges);
    holdings.completeRanges = ranges;
    holdings.unprovenRanges = unprovenRanges;
    holdings.counters = await this.backend.pruneLedgers!(removed, { completeRanges: ranges, unprovenRanges }, holdings.counters);
    holdings.announce('retention', rangesOf(headers.map((header) => header.ledgerIndex)));
    return { first: headers[0].ledgerIndex, last: headers.at(-1)!.ledgerIndex };
  }

  /** One write of the state version sweep; a sweep that reached the end starts over when ledgers were removed meanwhile. */
  private async sweepStep(): Promise<void> {
    const keepLow = this.holdings.lowest();
    if (!this.sweep || keepLow === undefined) return;
    const { counters, nextAfterKey } = await this.backend.sweepStateVersions!(keepLow, this.sweep.afterKey, SWEEP_VERSIONS, this.holdings.counters);
    this.holdings.counters = counters;
    if (nextAfterKey) this.sweep = { ...this.sweep, afterKey: nextAfterKey };
    else this.sweep = this.sweep.restart ? { afterKey: undefined, restart: false } : undefined;
  }
}
