/**
 * Where sync's time goes: seconds per ledger in each stage of the
 * backfill and follow paths, one histogram with a `stage` label on sync's /metrics. Timed with
 * process.hrtime.bigint() around code the pipeline already separates; nothing per transaction.
 */
import { histogram } from '@ledger-node/telemetry';

/**
 * - `fetch`: from sending a `ledger` request until its answer's message event (8 in flight overlap).
 * - `parse`: UTF-8 and JSON.parse of the answer and its schema checks (zod), which decode every blob's hex once.
 * - `verify`: verifyLedger over those bytes: header hash, transaction hashes, tree root.
 * - `link`: the parent link to the already verified neighbour (backfill's child, the follower's tip).
 * - `index`: the LedgerWrite of a verified ledger (each transaction's index: accounts touched, sender, type, result).
 * - `state`: state derivation by the state prover: the ledger's state changes from its metadata, proven against
 *   its account_hash (with any ledger_entry reads it needs).
 * - `state_grpc`: the state prover's store calls for one ledger (its reads, PutStateChanges; a read of the ledgers below counts once, in the step that made it).
 * - `grpc`: a batch's write as sync sees it (serialisation, the call, the store's write), per ledger of the batch:
 *   PutLedgers for a followed ledger, PutLedgersStream for backfill's batches (two at once, so their
 *   times overlap: the stage can add up to more than the wall).
 */
export const SYNC_STAGES = ['fetch', 'parse', 'verify', 'link', 'index', 'state', 'state_grpc', 'grpc'] as const;
export type SyncStage = (typeof SYNC_STAGES)[number];

/** From a parent link check (~10 µs) to a ledger fetched under load (seconds). */
const STAGE_BUCKETS = [0.00001, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

let stageSeconds: ReturnType<typeof histogram<'stage'>> | undefined;

/** Seconds since `startedAtNs` (a process.hrtime.bigint() reading). */
export const secondsSince = (startedAtNs: bigint): number => Number(process.hrtime.bigint() - startedAtNs) / 1e9;

/** `seconds` spent on `ledgers` ledgers in `stage` (a batch counts as that many ledgers, each its share). */
export function observeStage(stage: SyncStage, seconds: number, ledgers = 1): void {
  stageSeconds ??= histogram('ledger_node_sync_stage_seconds', 'Seconds per ledger in each stage of backfill and follow (see apps/sync/src/stage-timing.ts)', ['stage'], STAGE_BUCKETS);
  const perLedger = seconds / ledgers;
  for (let ledger = 0; ledger < ledgers; ledger++) stageSeconds.observe({ stage }, perLedger);
}

/** Runs `work` and counts its time to `stage`, whether it returns or throws. */
export function timedStage<T>(stage: SyncStage, work: () => T): T {
  const startedAtNs = process.hrtime.bigint();
  try {
    return work();
  } finally {
    observeStage(stage, secondsSince(startedAtNs));
  }
}
