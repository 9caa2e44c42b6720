/**
 * What catching up from the store may cost. A resumed subscription reads every ledger after its
 * resume point from the store, and nothing it sends paces those reads: an account filter that
 * matches nothing sends nothing. So the reads are bounded where they are made, not where messages
 * go out:
 * - a resume point more than -max_resume_ledgers behind the newest stored (validated) ledger is
 *   refused before any ledger is read;
 * - each ledger a catch-up reads from the store takes one token of one node-wide budget,
 *   -resume_rate ledgers a second shared by every stream of both APIs; a catch-up past it waits its
 *   turn (paced, never dropped), and ledgers the follower still holds in memory are free;
 * - one client (its address) has at most MAX_CATCH_UPS_PER_CLIENT resumes catching up at once.
 */
import { OutOfRange, RateLimited } from '@ledger-node/errors';
import { formatRanges, type LedgerRange } from '@ledger-node/rippled-api';
import { counter, gauge } from '@ledger-node/telemetry';
import { STREAM_APIS, type StreamApi } from './connection';

/** Resumed subscriptions one client (one address) may have catching up at once. */
export const MAX_CATCH_UPS_PER_CLIENT = 4;

/** Why a resume was refused (a metric label). */
export type ResumeRefusalReason = 'not_stored' | 'beyond_newest' | 'window' | 'client_limit';

const catchUpMetrics = {
  refused: counter(
    'ledger_node_stream_resumes_refused_total',
    'Stream resumes (from_ledger, fromBlock) refused, by API and reason: not_stored, beyond_newest, window (-max_resume_ledgers), client_limit',
    ['api', 'reason'],
  ),
  admitted: counter('ledger_node_stream_resumes_total', 'Stream resumes (from_ledger, fromBlock) admitted, by API: each catches up from the store, then follows live', ['api']),
  running: gauge('ledger_node_stream_catch_ups', 'Resumed subscriptions catching up from the store, by API', ['api']),
  reads: counter('ledger_node_stream_catch_up_reads_total', 'Ledgers stream subscribers read from the store to catch up, each taking one token of the -resume_rate budget'),
  waits: counter('ledger_node_stream_catch_up_waits_total', 'Catch-up reads that waited for the node-wide -resume_rate budget'),
};

for (const api of STREAM_APIS) catchUpMetrics.admitted.inc({ api }, 0);

export function countResumeRefusal(api: StreamApi, reason: ResumeRefusalReason): void {
  catchUpMetrics.refused.inc({ api, reason });
}

/** How each API names a resume point: rippled's from_ledger is the last ledger seen, jt_subscribe's fromBlock the first block wanted. */
const resumeTerms: Record<StreamApi, { pointOf(lastSeen: number): number; asked(point: number): string; earliest(point: number): string; instead: string }> = {
  rippled: {
    pointOf: (lastSeen) => lastSeen,
    asked: (point) => `cannot resume after ledger ${point}`,
    earliest: (point) => `resume after ledger ${point} or later`,
    instead: 'subscribe without from_ledger',
  },
  jsonrpc: {
    pointOf: (lastSeen) => lastSeen + 1,
    asked: (point) => `cannot resume from block ${point}`,
    earliest: (point) => `give fromBlock ${point} or later`,
    instead: 'subscribe without fromBlock',
  },
};

/**
 * Why a resume after `lastSeen` cannot be served, undefined when it can: ledgers after it that are
 * not stored (below the newest stored range, so the replay would have a gap), a point beyond the
 * newest stored ledger, or one more than `maxResumeLedgers` behind it. The error names the earliest
 * resume point in the API's own terms, in its message and as data.earliest_resume_point.
 */
export function resumeRefusal(
  lastSeen: number,
  ranges: readonly LedgerRange[],
  maxResumeLedgers: number,
  api: StreamApi,
): { reason: ResumeRefusalReason; error: OutOfRange } | undefined {
  const terms = resumeTerms[api];
  const asked = terms.asked(terms.pointOf(lastSeen));
  const held = formatRanges(ranges);
  const newest = ranges.at(-1);
  if (!newest) return { reason: 'not_stored', error: new OutOfRange(`${asked}: no ledger is stored yet`, { stored: held }) };
  if (lastSeen > newest.last) {
    return { reason: 'beyond_newest', error: new OutOfRange(`${asked}: the newest stored ledger is ${newest.last}`, { stored: held, newest_ledger: newest.last }) };
  }
  const earliestStored = newest.first - 1;
  const earliestInWindow = newest.last - maxResumeLedgers;
  const earliest = Math.max(earliestStored, earliestInWindow);
  if (lastSeen >= earliest) return undefined;
  const data = { stored: held, newest_ledger: newest.last, max_resume_ledgers: maxResumeLedgers, earliest_resume_point: terms.pointOf(earliest) };
  const remedy = `${terms.earliest(terms.pointOf(earliest))}, or ${terms.instead}`;
  if (earliestInWindow > earliestStored) {
    const behind = newest.last - lastSeen;
    return {
      reason: 'window',
      error: new OutOfRange(`${asked}: it is ${behind} ledgers behind the newest validated ledger ${newest.last}, and a resume replays at most ${maxResumeLedgers} (-max_resume_ledgers); ${remedy}`, data),
    };
  }
  return {
    reason: 'not_stored',
    error: new OutOfRange(`${asked}: ledgers ${lastSeen + 1} to ${newest.first - 1} are not stored (this node holds ${held}); ${remedy}`, data),
  };
}

interface BudgetWaiter {
  resolve(): void;
  signal: AbortSignal | undefined;
  onAbort(): void;
}

/**
 * The node-wide budget of catch-up reads: a token bucket of `ledgersPerSecond` tokens a second,
 * holding at most a second's worth. Readers past it wait in turn (first come, first served), so
 * many catch-ups share it evenly and none is dropped.
 */
export class CatchUpBudget {
  private tokens: number;
  private refilledAtMs: number;
  private readonly waiting: BudgetWaiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly ledgersPerSecond: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(ledgersPerSecond) || ledgersPerSecond < 1) throw new RangeError(`a catch-up budget needs 1 or more ledgers a second, not ${ledgersPerSecond}`);
    this.tokens = ledgersPerSecond;
    this.refilledAtMs = nowMs();
  }

  /** Readers waiting for a token. */
  get waiters(): number {
    return this.waiting.length;
  }

  /**
   * Resolves once one ledger may be read. When `signal` aborts first (the subscriber is gone) it
   * resolves at once without a token: the caller sees its own stop and reads nothing.
   */
  take(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    this.refill();
    if (this.waiting.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      catchUpMetrics.reads.inc();
      return Promise.resolve();
    }
    catchUpMetrics.waits.inc();
    return new Promise((resolve) => {
      const waiter: BudgetWaiter = {
        resolve,
        signal,
        onAbort: () => {
          const position = this.waiting.indexOf(waiter);
          if (position >= 0) this.waiting.splice(position, 1);
          resolve();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
      this.schedule();
    });
  }

  private refill(): void {
    const now = this.nowMs();
    this.tokens = Math.min(this.ledgersPerSecond, this.tokens + ((now - this.refilledAtMs) * this.ledgersPerSecond) / 1000);
    this.refilledAtMs = now;
  }

  /** Wakes the first waiters once the bucket holds a token for them. */
  private schedule(): void {
    if (this.timer || this.waiting.length === 0) return;
    const delayMs = Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.ledgersPerSecond));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refill();
      while (this.waiting.length > 0 && this.tokens >= 1) {
        const waiter = this.waiting.shift()!;
        this.tokens -= 1;
        catchUpMetrics.reads.inc();
        waiter.signal?.removeEventListener('abort', waiter.onAbort);
        waiter.resolve();
      }
      this.schedule();
    }, delayMs);
    // A process that stops does not wait for catch-ups: their subscribers are gone with it.
    this.timer.unref();
  }
}

/** The bounds every stream's catch-up keeps (one for the node, shared by both APIs). */
export interface CatchUpLimits {
  /** The most ledgers a resume point may be behind the newest stored ledger (-max_resume_ledgers). */
  readonly maxResumeLedgers: number;
  readonly budget: CatchUpBudget;
  readonly clients: ClientCatchUps;
}

/** A resume admitted to catch up: released once it has caught up or its subscription ends. */
export interface CatchUpTicket {
  release(): void;
}

/** The resumes each client has catching up, at most `perClient` at once. */
export class ClientCatchUps {
  private readonly running = new Map<string, number>();

  constructor(readonly perClient = MAX_CATCH_UPS_PER_CLIENT) {}

  /** Admits one more resume of `client` (its address), or refuses it when the client has `perClient` catching up. */
  admit(client: string, api: StreamApi): CatchUpTicket {
    const count = this.running.get(client) ?? 0;
    if (count >= this.perClient) {
      countResumeRefusal(api, 'client_limit');
      throw new RateLimited(`too many resumes catching up for this client: at most ${this.perClient} at once; resume again once one has caught up, or subscribe without a resume point`, {
        max_catch_ups: this.perClient,
      });
    }
    this.running.set(client, count + 1);
    catchUpMetrics.admitted.inc({ api });
    catchUpMetrics.running.inc({ api });
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        catchUpMetrics.running.dec({ api });
        const left = (this.running.get(client) ?? 1) - 1;
        if (left > 0) this.running.set(client, left);
        else this.running.delete(client);
      },
    };
  }

  /** Resumes of `client` catching up now. */
  catchingUp(client: string): number {
    return this.running.get(client) ?? 0;
  }
}
