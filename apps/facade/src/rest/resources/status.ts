/** REST: what the node holds and how its sync stands. */
import { z } from 'zod';
import { defineRoute, noParams, noQuery } from '../define';

export const statusRoutes = [
  defineRoute({
    method: 'get',
    path: '/status',
    summary: 'What the node holds and how its sync stands: stored ranges, counts, upstream, lag, backfill progress.',
    params: noParams,
    query: noQuery,
    response: z.object({
      chain: z.string(),
      native_currency: z.string().describe('code of the native currency, counted in drops'),
      drops_per_unit: z.string().regex(/^\d+$/).describe('drops in one unit of the native currency'),
      store: z.object({
        complete_ranges: z.array(z.string()),
        lowest_ledger_index: z.number().int().nullable(),
        highest_ledger_index: z.number().int().nullable(),
        ledger_count: z.number().int(),
        transaction_count: z.number().int(),
        db_size_bytes: z.number().int(),
      }),
      sync: z.looseObject({ enabled: z.boolean() }),
    }),
    errors: {},
    async handler(_input, { queries, profile, syncEnabled, syncStatus }) {
      const [store, sync] = await Promise.all([
        queries.status(),
        syncEnabled ? syncStatus.status().catch((error: Error) => ({ error: error.message })) : undefined,
      ]);
      return {
        chain: profile.id,
        native_currency: profile.nativeCurrency,
        drops_per_unit: profile.dropsPerUnit.toString(),
        store: {
          complete_ranges: store.completeRanges.map((range) => `${range.first}-${range.last}`),
          lowest_ledger_index: store.lowestLedgerIndex ?? null,
          highest_ledger_index: store.highestLedgerIndex ?? null,
          ledger_count: Number(store.ledgerCount),
          transaction_count: Number(store.transactionCount),
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
                  backfill: {
                    ledgers_per_second: sync.backfillLedgersPerSecond,
                    remaining_ledgers: Number(sync.backfillRemainingLedgers),
                    eta_seconds: sync.backfillEtaSeconds ?? null,
                  },
                  verification_failures: Number(sync.verificationFailureCount),
                  verification_failures_by_reason: Object.fromEntries(Object.entries(sync.verificationFailuresByReason).map(([reason, count]) => [reason, Number(count)])),
                  index_failures: Number(sync.indexFailureCount),
                  last_index_failure: sync.lastIndexFailure ?? null,
                  stopped: sync.stopped ?? null,
                  anchor_proof: sync.anchorProof,
                },
      };
    },
  }),
];
