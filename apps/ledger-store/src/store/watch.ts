/** The stored ledgers as a stream: replayed from the store, then each one as it is stored (WatchLedgers). */
import type { LedgerBackend } from '../backend/backend';
import { closeTimeOf, type StoredHeader } from '../backend/records';
import { LedgerEvents, type LedgerEvent, type RangesEvent } from '../ledgers/events';
import { rangesContain, type LedgerRange } from '../ledgers/ranges';
import type { Holdings } from './holdings';
import { requireStored } from './ledger-reads';
import type { WriteQueue } from './write-queue';

const MAX_LEDGER_INDEX = 0xffffffff;
/** Headers read per step while a watch replays stored ledgers. */
const REPLAY_PAGE = 64;

/** The one wait of a watch, ended by its subscription's next event or its abort. */
class Wakeup {
  private resolve: (() => void) | undefined;

  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  wake(): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  }
}

export class LedgerWatch {
  readonly events = new LedgerEvents();

  constructor(
    private readonly backend: LedgerBackend,
    private readonly holdings: Holdings,
    private readonly queue: WriteQueue,
  ) {}

  async eventOfStored(header: StoredHeader): Promise<LedgerEvent> {
    const transactions = await this.backend.transactions(await this.backend.ledgerTransactionHashes(header.ledgerIndex));
    return {
      ledgerIndex: header.ledgerIndex,
      ledgerHash: header.ledgerHash,
      closeTime: closeTimeOf(header.header),
      transactions: transactions.map((tx) => {
        const stored = requireStored(tx, header.ledgerIndex);
        return { hash: stored.hash, engineResult: stored.engineResult, txIndex: stored.txIndex };
      }),
      extendsTip: false,
    };
  }

  /**
   * Stored ledgers from `fromLedgerIndex` upward (when given), then each ledger as it is stored:
   * every ledger with `includeBackfill`, else only those that extend the tip. No ledger is
   * delivered twice: live events that arrive while the replay runs are held back and dropped when
   * a replay page read (serialized with writes) already saw their ledger. Ends when `signal` aborts.
   */
  async *watch(options: { fromLedgerIndex?: number; includeBackfill: boolean }, signal: AbortSignal): AsyncGenerator<LedgerEvent> {
    const pending: LedgerEvent[] = [];
    const wakeup = new Wakeup();
    const unsubscribe = this.events.subscribe((event) => {
      if (!options.includeBackfill && !event.extendsTip) return;
      pending.push(event);
      wakeup.wake();
    });
    const onAbort = () => wakeup.wake();
    signal.addEventListener('abort', onAbort);
    try {
      let cursor = options.fromLedgerIndex;
      while (cursor !== undefined && !signal.aborted) {
        const from = cursor;
        const page = await this.queue.exclusive(async () => {
          const headers = await this.backend.headersBetween(from, MAX_LEDGER_INDEX, REPLAY_PAGE);
          const coveredLast = headers.length < REPLAY_PAGE ? MAX_LEDGER_INDEX : headers[headers.length - 1].ledgerIndex;
          // Every write before this read has published its event: those the page covers are in it.
          for (let position = pending.length - 1; position >= 0; position--) {
            if (pending[position].ledgerIndex >= from && pending[position].ledgerIndex <= coveredLast) pending.splice(position, 1);
          }
          // A follower's database may hold ledgers it has not published yet: they come as live events.
          return { headers: headers.filter((header) => rangesContain(this.holdings.completeRanges, header.ledgerIndex)), read: headers.length, last: headers.at(-1)?.ledgerIndex };
        });
        for (const header of page.headers) {
          if (signal.aborted) return;
          yield await this.eventOfStored(header);
        }
        const last = page.last;
        cursor = page.read < REPLAY_PAGE || last === undefined || last === MAX_LEDGER_INDEX ? undefined : last + 1;
      }
      for (;;) {
        while (pending.length > 0) {
          if (signal.aborted) return;
          yield pending.shift()!;
        }
        if (signal.aborted) return;
        await wakeup.wait();
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * What the store holds now, then again after each change other than a ledger stored above the
   * highest (Holdings.announce), in order, until `signal` aborts. A watcher that falls behind gets
   * the changes it missed as one: the newest holdings, with every ledger removed meanwhile.
   */
  async *watchRanges(signal: AbortSignal): AsyncGenerator<RangesEvent> {
    // Subscribed and read in one turn: no change falls between the first message and the next.
    let pending: RangesEvent | undefined = this.holdings.snapshot('current');
    const wakeup = new Wakeup();
    const unsubscribe = this.holdings.changes.subscribe((event) => {
      pending = pending ? { ...event, removed: mergeRanges(pending.removed, event.removed) } : event;
      wakeup.wake();
    });
    const onAbort = () => wakeup.wake();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (pending) {
          const event = pending;
          pending = undefined;
          yield event;
          continue;
        }
        await wakeup.wait();
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** Both lists of ranges as one, ascending and merged. */
function mergeRanges(a: readonly LedgerRange[], b: readonly LedgerRange[]): LedgerRange[] {
  const sorted = [...a, ...b].sort((left, right) => left.first - right.first);
  const merged: LedgerRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.first <= last.last + 1) merged[merged.length - 1] = { first: last.first, last: Math.max(last.last, range.last) };
    else merged.push({ ...range });
  }
  return merged;
}
