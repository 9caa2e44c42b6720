import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { currencyToBytes } from './currency';
import { keylet } from './keylets';
import { stateEntryFromLedgerJson } from './ledger-json';
import { getProfile } from './profiles';
import type { LedgerFixture } from './test-fixtures';

describe('keylet', () => {
  const fixture = readFixture<LedgerFixture>('xrpl/ledgers/mainnet/38129-full-state.json');
  const xrpl = getProfile('xrpl');
  const entries = fixture.ledger.accountState!;
  const accountId = (address: string) => xrpl.codec.decodeAccountId(address);

  it('gives the index of every AccountRoot in ledger 38129', () => {
    const roots = entries.filter((entry) => entry.LedgerEntryType === 'AccountRoot');
    expect(roots.length).toBeGreaterThan(100);
    for (const root of roots) expect(keylet.account(accountId(root.Account))).toBe(root.index);
  });

  it('gives the index of every owner directory root and trust line in ledger 38129', () => {
    const ownerRoots = entries.filter((entry) => entry.LedgerEntryType === 'DirectoryNode' && entry.Owner && entry.index === entry.RootIndex);
    const lines = entries.filter((entry) => entry.LedgerEntryType === 'RippleState');
    expect(ownerRoots.length).toBeGreaterThan(0);
    expect(lines.length).toBeGreaterThan(0);
    for (const directory of ownerRoots) expect(keylet.ownerDir(accountId(directory.Owner))).toBe(directory.index);
    for (const line of lines) {
      const low = accountId(line.LowLimit.issuer);
      const high = accountId(line.HighLimit.issuer);
      const currency = currencyToBytes(line.Balance.currency);
      expect(keylet.rippleState(low, high, currency)).toBe(line.index);
      expect(keylet.rippleState(high, low, currency)).toBe(line.index);
    }
  });

  it('gives the index of the ledger hashes skip list present in ledger 38129', () => {
    const skipLists = entries.filter((entry) => entry.LedgerEntryType === 'LedgerHashes');
    expect(skipLists.map((entry) => entry.index)).toContain(keylet.ledgerHashes());
  });

  it('gives page 0 as the directory root and other pages under the dir space', () => {
    const root = keylet.ownerDir(accountId(xrpl.genesis.address));
    expect(keylet.dirPage(root, 0n)).toBe(root);
    expect(keylet.dirPage(root, 1n)).not.toBe(root);
    expect(keylet.dirPage(root, 1n)).not.toBe(keylet.dirPage(root, 2n));
  });

  it('gives the well-known singleton indexes of rippled', () => {
    // rippled: keylet::amendments() and keylet::fees() as printed by `ledger_entry` on every network.
    expect(keylet.amendments()).toBe('7DB0788C020F02780A673DC74757F23823FA3014C1866E72CC4CD8B226CD6EF4');
    expect(keylet.feeSettings()).toBe('4BC50C9B0D8515D3EAAE1E74B29A95804346C491EE1A95BF25E4AAB854A6A651');
  });

  it('indexes the state entries of the fixture with the codec it round-trips', () => {
    for (const entry of entries.slice(0, 20)) {
      const { blob } = stateEntryFromLedgerJson(entry, xrpl);
      const { index, ...fields } = entry;
      expect(xrpl.codec.decode(blob)).toEqual(fields);
    }
  });
});
