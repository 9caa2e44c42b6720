import { describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { SyncHealth } from './sync-health';

describe('SyncHealth: a stored ledger removed as not the network\'s', () => {
  it('says sync is repairing from the lowest removed ledger until the chain is linked at or below it', () => {
    const health = new SyncHealth(createLogger('sync', 'silent'));
    health.removedUnproven(10);
    health.removedUnproven(12);
    expect(health.stopText()).toBe("stored ledger 10 was not the network's: removing the stored ledgers below it that chain to it, and fetching the network's");
    health.removedUnproven(9);
    // A gap above the lowest removed ledger linked says nothing of the ledgers below it.
    health.linkedDownTo(10);
    expect(health.stopText()).toMatch(/^stored ledger 9 was not/);
    health.linkedDownTo(7);
    expect(health.stopText()).toBeUndefined();
  });

  it('names a store that refuses ledgers before a repair', () => {
    const health = new SyncHealth(createLogger('sync', 'silent'));
    health.removedUnproven(10);
    health.stopped(11, new Error('disk full'));
    expect(health.stopText()).toBe('stopped at ledger 11: disk full');
    health.stored();
    expect(health.stopText()).toMatch(/^stored ledger 10 was not/);
  });
});
