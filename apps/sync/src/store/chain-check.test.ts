import { describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { LedgerRangeSet } from '../backfill/ranges';
import { SyncHealth } from '../sync-health';
import { ChainCheck } from './chain-check';

const logger = createLogger('sync', 'silent');
const hashOf = (ledgerIndex: number, chain = 'A') => `${chain}${String(ledgerIndex).padStart(63, '0')}`.replace(/[^0-9A-F]/g, 'C');

/** A store holding ledgers 10-20 of chain A (identity: ledger 10), and an upstream on `upstreamChain`. */
function setup(upstreamChain: string, upstreamHolds = (ledgerIndex: number) => ledgerIndex >= 1) {
  const ranges = new LedgerRangeSet();
  ranges.addRange(10, 20);
  const health = new SyncHealth(logger);
  const check = new ChainCheck({
    chain: { ranges, link: async (ledgerIndex) => ({ ledgerIndex, ledgerHash: Buffer.from(hashOf(ledgerIndex), 'hex'), parentHash: Buffer.alloc(32) }) },
    health,
    logger,
    identity: async () => ({ ledgerIndex: 10, ledgerHash: hashOf(10) }),
    upstreamHash: async (ledgerIndex) => (upstreamHolds(ledgerIndex) ? hashOf(ledgerIndex, upstreamChain) : undefined),
  });
  const announce = (ledgerIndex: number, chain = upstreamChain) => check.verdict({ ledgerIndex, ledgerHash: hashOf(ledgerIndex, chain), source: 'ws://up#1' });
  return { check, health, announce };
}

describe('ChainCheck: one chain, one owner', () => {
  it('follows an upstream whose ledgers at stored indexes are the stored ones, and any ledger above', async () => {
    const { health, announce, check } = setup('A');
    await check.onSubscribed();
    expect(await announce(15)).toBe('follow');
    expect(await announce(21)).toBe('follow');
    expect(health.stopText()).toBeUndefined();
  });

  it('stops at an upstream of another chain, naming the ledger and both hashes, and follows nothing more from it', async () => {
    const { health, announce } = setup('B');
    expect(await announce(12)).toBe('ignore');
    expect(health.stopText()).toBe(`stored chain is not the upstream's: ledger 12 is ${hashOf(12)} here and ${hashOf(12, 'B')} there`);
    // Above the stored ledgers too: nothing of that chain is followed.
    expect(await announce(25)).toBe('ignore');
  });

  it("catches an upstream far ahead at its subscription, by the store's identity ledger; one that agrees again resumes", async () => {
    const { health, check, announce } = setup('B');
    await check.onSubscribed();
    expect(health.stopText()).toBe(`stored chain is not the upstream's: ledger 10 is ${hashOf(10)} here and ${hashOf(10, 'B')} there`);
    expect(await announce(500)).toBe('ignore');
    expect(await announce(15, 'A')).toBe('follow');
    expect(health.stopText()).toBeUndefined();
  });

  it('an upstream behind the store, on another chain, without the identity ledger: stopped where they meet', async () => {
    const { health, check, announce } = setup('B', (ledgerIndex) => ledgerIndex >= 11 && ledgerIndex <= 12);
    await check.onSubscribed();
    expect(health.stopText()).toBeUndefined();
    expect(await announce(11)).toBe('ignore');
    expect(health.stopText()).toMatch(/^stored chain is not the upstream's: ledger 11 is /);
  });

  it("one stored ledger the upstream names otherwise, while the identity ledger agrees, is contested by the announced one: no stop", async () => {
    const { health, announce } = setup('A');
    expect(await announce(13, 'D')).toBe('contest');
    expect(health.stopText()).toBeUndefined();
  });
});
