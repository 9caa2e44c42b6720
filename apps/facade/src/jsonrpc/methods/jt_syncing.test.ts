import { describe, expect, it } from 'vitest';
import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import { readiness } from '../../probes';
import type { MethodContext } from '../method';
import { jt_syncing } from './jt_syncing';

const level: GetSyncStatusResponse = {
  syncing: false,
  startingLedgerIndex: 90,
  currentLedgerIndex: 100,
  highestLedgerIndex: 100,
  upstreamUrl: 'ws://127.0.0.1:1',
  upstreamConnected: true,
  lagLedgers: 0,
  backfillLedgersPerSecond: 0,
  backfillRemainingLedgers: 0n,
  verificationFailureCount: 0n,
  completeRanges: [{ first: 1, last: 100 }],
  stateReady: true,
  indexFailureCount: 0n,
  anchorProof: 'ledger 90 validated by 1 of 1 trusted validators',
  verificationFailuresByReason: {},
};
const stopped: GetSyncStatusResponse = { ...level, stopped: 'stopped at ledger 101: disk full' };

function clientsAnswering(status: GetSyncStatusResponse) {
  return {
    sync: { getSyncStatus: async () => status },
    ledgerStore: { getStatus: async () => ({ highestLedgerIndex: 100 }) },
  } as unknown as MethodContext['clients'];
}

describe('a sync that cannot store a verified ledger', () => {
  it('jt_syncing: false while level; the status object saying "stopped at ledger N: <reason>" while stopped', async () => {
    const call = (status: GetSyncStatusResponse) => jt_syncing.handler([] as never, { clients: clientsAnswering(status), syncEnabled: true } as MethodContext);
    expect(await call(level)).toBe(false);
    const answer = await call(stopped);
    expect(answer).toEqual({ startingBlock: 90, currentBlock: 100, highestBlock: 100, status: 'stopped at ledger 101: disk full' });
    expect(jt_syncing.result.safeParse(answer).success).toBe(true);
  });

  it('/readyz: not ready, with the reason', async () => {
    expect((await readiness({ clients: clientsAnswering(level), syncEnabled: true, readyLagLedgers: 5 })).ready).toBe(true);
    const { ready, checks } = await readiness({ clients: clientsAnswering(stopped), syncEnabled: true, readyLagLedgers: 5 });
    expect(ready).toBe(false);
    expect(checks.sync).toEqual({ ok: false, reason: 'stopped at ledger 101: disk full' });
  });
});
