/** REST: what the node holds and how its sync stands. */
import { z } from 'zod';
import type { ValidatorListStatus } from '@ledger-node/contracts';
import { buildInfo } from '@ledger-node/telemetry';
import { defineRoute, noParams, noQuery, type RestTag } from '../define';

const tag: RestTag = { name: 'status', description: 'What the node holds and how its sync stands.' };

/** A node following a devnet, its backfill done. */
const example = {
  version: '0.1.0',
  commit: '4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b',
  chain: 'xrpl',
  native_currency: 'XRP',
  drops_per_unit: '1000000',
  store: { complete_ranges: ['1-1204'], unproven_ranges: [], lowest_ledger_index: 1, highest_ledger_index: 1204, retention_floor: null, ledger_count: 1204, transaction_count: 318, evidence_ledger_count: 1190, db_size_bytes: 4718592 },
  sync: {
    enabled: true,
    syncing: false,
    upstream_url: 'ws://127.0.0.1:6006',
    upstream_connected: true,
    starting_ledger_index: 1,
    current_ledger_index: 1204,
    highest_ledger_index: 1204,
    lag_ledgers: 0,
    state_ready: true,
    state_not_ready: null,
    live: { ledgers_per_second: 0.3 },
    backfill: { ledgers_per_second: 0, remaining_ledgers: 0, eta_seconds: null },
    verification_failures: 0,
    verification_failures_by_reason: {},
    index_failures: 0,
    last_index_failure: null,
    stopped: null,
    anchor_proof: 'ledger 1204 validated by 5 of 5 trusted validators (quorum 4)',
    validator_list: {
      publisher: 'ED3F1E0DA736FCF99BE2880A60DBD470715C0E04DD793FB862236B070571FC09E2',
      sequence: 1,
      expiration: 849139200,
      effective: 0,
      validators: 5,
      quorum: 4,
      state: 'accepted',
      reason: null,
      origin: 'the command line',
      publishers: [
        { publisher: 'ED3F1E0DA736FCF99BE2880A60DBD470715C0E04DD793FB862236B070571FC09E2', site: 'http://127.0.0.1:6006/vl.json', sequence: 1, effective: 0, expiration: 849139200, validators: 5, state: 'available', last_outcome: 'accepted', reason: null },
      ],
    },
  },
};

/** `sync.validator_list`: the lists and the quorum sync proves ledgers with (times in seconds since the XRP Ledger epoch). */
function validatorListJson(list: ValidatorListStatus) {
  return {
    publisher: list.publisher,
    sequence: list.sequence ?? null,
    expiration: list.expiration ?? null,
    effective: list.effective ?? null,
    validators: list.validators,
    quorum: list.quorum ?? null,
    state: list.state,
    reason: list.reason ?? null,
    origin: list.origin,
    publishers: list.publishers.map((publisher) => ({
      publisher: publisher.publisher,
      site: publisher.site ?? null,
      sequence: publisher.sequence ?? null,
      effective: publisher.effective ?? null,
      expiration: publisher.expiration ?? null,
      validators: publisher.validators,
      state: publisher.state,
      last_outcome: publisher.lastOutcome ?? null,
      reason: publisher.reason ?? null,
    })),
  };
}

export const statusRoutes = [
  defineRoute({
    method: 'get',
    path: '/status',
    operationId: 'getStatus',
    tag,
    summary: 'What the node holds and how its sync stands: its build (version, commit), stored ranges, counts, upstream, lag, backfill progress.',
    params: noParams,
    query: noQuery,
    response: z.object({
      version: z.string().describe("the node's version (its package.json)"),
      commit: z.string().regex(/^([0-9a-f]{40}|[0-9a-f]{64}|unknown)$/).describe('the git commit the node was built from, or "unknown"'),
      chain: z.string(),
      native_currency: z.string().describe('code of the native currency, counted in drops'),
      drops_per_unit: z.string().regex(/^\d+$/).describe('drops in one unit of the native currency'),
      store: z.object({
        complete_ranges: z.array(z.string()),
        unproven_ranges: z.array(z.string()).describe('ledgers ledger-node import stored that nothing proved yet: no read serves them until sync proves them (or removes them, contradicted)'),
        lowest_ledger_index: z.number().int().nullable(),
        retention_floor: z.number().int().nullable().describe('the lowest ledger bounded history (-ledger_history) keeps; null without it'),
        highest_ledger_index: z.number().int().nullable(),
        ledger_count: z.number().int(),
        transaction_count: z.number().int(),
        evidence_ledger_count: z.number().int().describe('stored ledgers kept with the signed validations that proved them (those followed live; 0 from a ledger-store older than the count)'),
        db_size_bytes: z.number().int(),
      }),
      sync: z
        .looseObject({ enabled: z.boolean() })
        .describe('sync state when enabled: upstream, ledger indexes, lag_ledgers, state_ready (and state_not_ready: why not), live {ledgers_per_second: ledgers followed at the tip per second over the last 10 s}, backfill {ledgers_per_second: ledgers filled in below the tip per second over the last 10 s, 0 once done; remaining_ledgers; eta_seconds: whole seconds, null when unknown or done}, failure counters, anchor_proof (how the newest ledger was proven) and validator_list (the published lists, validators and quorum that prove ledgers: publisher, sequence, expiration, effective, validators, quorum, state, reason, publishers)'),
    }),
    errors: {},
    example: { response: example },
    async handler(_input, { queries, profile, syncEnabled, syncStatus }) {
      const [store, sync] = await Promise.all([
        queries.status(),
        syncEnabled ? syncStatus.status().catch((error: Error) => ({ error: error.message })) : undefined,
      ]);
      const { version, commit } = buildInfo();
      return {
        version,
        commit,
        chain: profile.id,
        native_currency: profile.nativeCurrency,
        drops_per_unit: profile.dropsPerUnit.toString(),
        store: {
          complete_ranges: store.completeRanges.map((range) => `${range.first}-${range.last}`),
          unproven_ranges: store.unprovenRanges.map((range) => `${range.first}-${range.last}`),
          lowest_ledger_index: store.lowestLedgerIndex ?? null,
          retention_floor: store.retentionFloor ?? null,
          highest_ledger_index: store.highestLedgerIndex ?? null,
          ledger_count: Number(store.ledgerCount),
          transaction_count: Number(store.transactionCount),
          evidence_ledger_count: Number(store.evidenceLedgerCount ?? 0n),
          db_size_bytes: Number(store.dbSizeBytes),
        },
        sync:
          sync === undefined
            ? { enabled: false }
            : 'error' in sync
              ? { enabled: true, error: sync.error }
              : {
                  enabled: true,
                  syncing: sync.syncing,
                  upstream_url: sync.upstreamUrl,
                  upstream_connected: sync.upstreamConnected,
                  starting_ledger_index: sync.startingLedgerIndex,
                  current_ledger_index: sync.currentLedgerIndex,
                  highest_ledger_index: sync.highestLedgerIndex,
                  lag_ledgers: sync.lagLedgers,
                  state_ready: sync.stateReady,
                  state_not_ready: sync.stateNotReady ?? null,
                  // The two rates apart: the tip's pace, and backfill's below it. A rate to a tenth and an
                  // estimate to the second: more digits would claim a precision they lack.
                  live: { ledgers_per_second: Math.round(sync.liveLedgersPerSecond * 10) / 10 },
                  backfill: {
                    ledgers_per_second: Math.round(sync.backfillLedgersPerSecond * 10) / 10,
                    remaining_ledgers: Number(sync.backfillRemainingLedgers),
                    eta_seconds: sync.backfillEtaSeconds === undefined || !Number.isFinite(sync.backfillEtaSeconds) ? null : Math.round(sync.backfillEtaSeconds),
                  },
                  verification_failures: Number(sync.verificationFailureCount),
                  verification_failures_by_reason: Object.fromEntries(Object.entries(sync.verificationFailuresByReason).map(([reason, count]) => [reason, Number(count)])),
                  index_failures: Number(sync.indexFailureCount),
                  last_index_failure: sync.lastIndexFailure ?? null,
                  stopped: sync.stopped ?? null,
                  anchor_proof: sync.anchorProof,
                  validator_list: sync.validatorList ? validatorListJson(sync.validatorList) : null,
                },
      };
    },
  }),
];
