import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import type { GetStatusResponse } from '@ledger-node/contracts';
import { buildInfo } from '@ledger-node/telemetry';
import type { MethodContext } from '../../jsonrpc/method';
import { statusRoutes } from './status';

/** The store's answer of an empty ledger-store: with -sync=false the route reads nothing else. */
const emptyStore = { completeRanges: [], ledgerCount: 0n, transactionCount: 0n, dbSizeBytes: 0n } as unknown as GetStatusResponse;
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
