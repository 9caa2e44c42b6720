import { describe, expect, it } from 'vitest';
import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import { createLogger } from '@ledger-node/telemetry';
import { readiness } from '../../probes';
import { SyncStatusCache } from '../../sync-status';
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
  liveLedgersPerSecond: 0,
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

const logger = createLogger('facade', 'silent');

function clientsAnswering(status: GetSyncStatusResponse | (() => Promise<GetSyncStatusResponse>)) {
  return {
    sync: { getSyncStatus: typeof status === 'function' ? status : async () => status },
    ledgerStore: { getStatus: async () => ({ highestLedgerIndex: 100 }) },
  } as unknown as MethodContext['clients'];
}

function contextAnswering(status: GetSyncStatusResponse) {
  const clients = clientsAnswering(status);
  return { clients, syncStatus: new SyncStatusCache(clients, logger), syncEnabled: true };
}

describe('a sync that cannot store a verified ledger', () => {
  it('jt_syncing: false while level; the status object saying "stopped at ledger N: <reason>" while stopped', async () => {
    const call = (status: GetSyncStatusResponse) => jt_syncing.handler([] as never, contextAnswering(status) as unknown as MethodContext);
    expect(await call(level)).toBe(false);
    const answer = await call(stopped);
    expect(answer).toEqual({ startingBlock: 90, currentBlock: 100, highestBlock: 100, status: 'stopped at ledger 101: disk full' });
    expect(jt_syncing.result.safeParse(answer).success).toBe(true);
  });

  it('/readyz: not ready, with the reason', async () => {
    expect((await readiness({ ...contextAnswering(level), readyLagLedgers: 5 })).ready).toBe(true);
    const { ready, checks } = await readiness({ ...contextAnswering(stopped), readyLagLedgers: 5 });
    expect(ready).toBe(false);
    expect(checks.sync).toEqual({ ok: false, reason: 'stopped at ledger 101: disk full' });
  });
});

describe('sync status asked for in the background', () => {
  it('answers from the latest copy while sync is slow to answer, and sync\'s own failure when there is no copy', async () => {
    let answer: () => Promise<GetSyncStatusResponse> = async () => level;
    const cache = new SyncStatusCache(clientsAnswering(() => answer()), logger);
    await expect(cache.status()).resolves.toEqual(level);
    // Sync (or the facade) too busy to answer in time: the fresh copy still stands.
    answer = () => Promise.reject(new Error('sync unavailable: no answer before the deadline'));
    await expect(cache.status()).resolves.toEqual(level);
    const empty = new SyncStatusCache(clientsAnswering(() => answer()), logger);
    await expect(empty.status()).rejects.toThrow('no answer before the deadline');
  });
});
