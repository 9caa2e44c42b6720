import { describe, expect, it } from 'vitest';
import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import { standbyReason, SyncRole } from '../writer-lock';
import { syncHandlers } from './handlers';

const engineStatus: GetSyncStatusResponse = {
  syncing: false,
  startingLedgerIndex: 0,
  currentLedgerIndex: 0,
  highestLedgerIndex: 0,
  upstreamUrl: 'ws://127.0.0.1:6006',
  upstreamConnected: false,
  lagLedgers: 0,
  liveLedgersPerSecond: 0,
  backfillLedgersPerSecond: 0,
  backfillRemainingLedgers: 0n,
  backfillEtaSeconds: undefined,
  verificationFailureCount: 0n,
  completeRanges: [],
  stateReady: false,
  indexFailureCount: 0n,
  lastIndexFailure: undefined,
  stopped: undefined,
  anchorProof: '',
  verificationFailuresByReason: {},
};
const engine = { status: () => engineStatus, manifest: () => undefined, stateProof: () => Promise.reject(new Error('not asked')) };
const call = (role?: SyncRole) => syncHandlers(engine, role).getSyncStatus({}, {} as never);

describe('GetSyncStatus', () => {
  it('says why a standby neither follows nor backfills, naming the database without its password', async () => {
    const role = new SyncRole();
    role.standby = standbyReason('the PostgreSQL database at postgres://ledger@db.internal:5432/ledgers');
    expect(await call(role)).toEqual({
      ...engineStatus,
      standby: 'standby: another sync service holds the sync writer lock on the PostgreSQL database at postgres://ledger@db.internal:5432/ledgers; this one connects to no upstream and stores nothing until it takes over',
    });
  });

  it('has no standby once this sync holds the lock, or without -store', async () => {
    expect((await call(new SyncRole())).standby).toBeUndefined();
    expect((await call()).standby).toBeUndefined();
  });
});
