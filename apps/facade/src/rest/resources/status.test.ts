import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import type { GetStatusResponse } from '@ledger-node/contracts';
import { buildInfo } from '@ledger-node/telemetry';
import type { MethodContext } from '../../jsonrpc/method';
import { statusRoutes } from './status';

/** The store's answer of an empty ledger-store: with -sync=false the route reads nothing else. */
const emptyStore = { completeRanges: [], unprovenRanges: [], ledgerCount: 0n, transactionCount: 0n, dbSizeBytes: 0n } as unknown as GetStatusResponse;
const context = { queries: { status: async () => emptyStore }, profile: getProfile('xrpl'), syncEnabled: false } as unknown as MethodContext;
const route = statusRoutes[0]!;

describe('GET /v1/status', () => {
  it('names the build the node runs: its version and git commit', async () => {
    const answer = route.response.parse(await route.handler({ params: {}, query: {}, body: undefined }, context));
    expect(answer).toMatchObject({ version: buildInfo().version, commit: buildInfo().commit, chain: 'xrpl', sync: { enabled: false } });
  });

  it.each([
    ['0123456789abcdef0123456789abcdef01234567', true],
    ['unknown', true],
    ['0123456', false],
  ])('documents the commit as a full hash or "unknown": %s %s', async (commit, valid) => {
    const answer = (await route.handler({ params: {}, query: {}, body: undefined }, context)) as Record<string, unknown>;
    expect(route.response.safeParse({ ...answer, commit }).success).toBe(valid);
  });
});

describe('GET /v1/status with sync', () => {
  const syncStatusOf = (rates: { liveLedgersPerSecond?: number; backfillLedgersPerSecond: number; backfillEtaSeconds?: number }) =>
    ({
      syncing: true,
      upstreamUrl: 'ws://127.0.0.1:1',
      upstreamConnected: true,
      currentLedgerIndex: 100,
      highestLedgerIndex: 120,
      lagLedgers: 20,
      completeRanges: [],
      stateReady: false,
      liveLedgersPerSecond: 0,
      backfillRemainingLedgers: 700n,
      verificationFailureCount: 0n,
      verificationFailuresByReason: {},
      indexFailureCount: 0n,
      ...rates,
    }) as unknown;
  const answerWith = async (rates: { liveLedgersPerSecond?: number; backfillLedgersPerSecond: number; backfillEtaSeconds?: number }) => {
    const withSync = { ...context, syncEnabled: true, syncStatus: { status: async () => syncStatusOf(rates) } } as unknown as MethodContext;
    return (await route.handler({ params: {}, query: {}, body: undefined }, withSync)) as { sync: Record<string, Record<string, unknown>> };
  };

  it('rounds the backfill rate to a tenth and its estimate to the second, and says null for an estimate it has not', async () => {
    expect((await answerWith({ backfillLedgersPerSecond: 43.07692307692308, backfillEtaSeconds: 16.162790697674417 })).sync.backfill).toEqual({
      ledgers_per_second: 43.1,
      remaining_ledgers: 700,
      eta_seconds: 16,
    });
    expect((await answerWith({ backfillLedgersPerSecond: 0, backfillEtaSeconds: Number.NaN })).sync.backfill!.eta_seconds).toBeNull();
    expect((await answerWith({ backfillLedgersPerSecond: 0 })).sync.backfill!.eta_seconds).toBeNull();
  });

  it('reports the live rate apart from the backfill rate: the pace at the tip, not the ledgers filled in below it', async () => {
    const answer = await answerWith({ liveLedgersPerSecond: 1.0526315789473684, backfillLedgersPerSecond: 79.4, backfillEtaSeconds: 8.8 });
    expect(answer.sync.live).toEqual({ ledgers_per_second: 1.1 });
    expect(answer.sync.backfill).toEqual({ ledgers_per_second: 79.4, remaining_ledgers: 700, eta_seconds: 9 });
    expect(route.response.parse(answer)).toMatchObject({ sync: { live: { ledgers_per_second: 1.1 } } });
  });
});
