/**
 * What catching up from the store may cost. A resumed subscription reads every ledger after its
 * resume point from the store, and nothing it sends paces those reads: an account filter that
 * matches nothing sends nothing. So the reads are bounded where they are made, not where messages
 * go out: a resume point more than -max_resume_ledgers behind the newest stored (validated) ledger
 * is refused before any ledger is read.
 */
import { OutOfRange } from '@ledger-node/errors';
import { formatRanges, type LedgerRange } from '@ledger-node/rippled-api';
import { counter } from '@ledger-node/telemetry';
import type { StreamApi } from './connection';

/** Why a resume was refused (a metric label). */
export type ResumeRefusalReason = 'not_stored' | 'beyond_newest' | 'window';

const catchUpMetrics = {
  refused: counter(
    'ledger_node_stream_resumes_refused_total',
    'Stream resumes (from_ledger, fromBlock) refused, by API and reason: not_stored, beyond_newest, window (-max_resume_ledgers)',
    ['api', 'reason'],
  ),
};

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

/** The bounds every stream's catch-up keeps (one for the node, shared by both APIs). */
export interface CatchUpLimits {
  /** The most ledgers a resume point may be behind the newest stored ledger (-max_resume_ledgers). */
  readonly maxResumeLedgers: number;
}
