import { describe, expect, it } from 'vitest';
import { readFixture } from '@ledger-node/test-utils';
import { directoryIndexes, lineView, negateValue, nextDirectoryPage, trustLineSides } from './trust-lines';

describe('lineView', () => {
  const line = {
    Balance: { currency: 'USD', issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: '-25' },
    Flags: 0x00020000 | 0x00200000 | 0x00080000 | 0x00400000,
    HighLimit: { currency: 'USD', issuer: 'rHigh', value: '100' },
    HighQualityIn: 7,
    LedgerEntryType: 'RippleState',
    LowLimit: { currency: 'USD', issuer: 'rLow', value: '0' },
  };

  it('shows the high account what the low one owes it, with its own flags', () => {
    expect(lineView(line, 'rHigh', 'no_ripple')).toEqual({
      account: 'rLow',
      balance: '25',
      currency: 'USD',
      limit: '100',
      limit_peer: '0',
      no_ripple: true,
      no_ripple_peer: false,
      quality_in: 7,
      quality_out: 0,
      authorized: true,
      freeze_peer: true,
    });
  });

  it('shows the low account its negative balance and the peer-side flags, under the chain wire name', () => {
    expect(lineView(line, 'rLow', 'no_skywell')).toEqual({
      account: 'rHigh',
      balance: '-25',
      currency: 'USD',
      limit: '0',
      limit_peer: '100',
      no_skywell: false,
      no_skywell_peer: true,
      quality_in: 0,
      quality_out: 0,
      peer_authorized: true,
      freeze: true,
    });
  });

  it('reads every trust line of mainnet ledger 38129 from both sides, balances mirrored', () => {
    const fixture = readFixture<{ ledger: { accountState: Array<Record<string, any>> } }>('xrpl/ledgers/mainnet/38129-full-state.json');
    const lines = fixture.ledger.accountState.filter((entry) => entry.LedgerEntryType === 'RippleState');
    expect(lines.length).toBeGreaterThan(0);
    for (const entry of lines) {
      const sides = trustLineSides(entry)!;
      const low = lineView(entry, sides.low, 'no_ripple')!;
      const high = lineView(entry, sides.high, 'no_ripple')!;
      expect(low.account).toBe(sides.high);
      expect(high.account).toBe(sides.low);
      expect(high.balance).toBe(negateValue(low.balance as string));
    }
  });

  it('is undefined for an entry that is not a line', () => {
    expect(lineView({ LedgerEntryType: 'AccountRoot' }, 'rX', 'no_ripple')).toBeUndefined();
  });
});

describe('negateValue', () => {
  it('flips the sign and keeps zero unsigned', () => {
    expect(negateValue('1.5')).toBe('-1.5');
    expect(negateValue('-1.5')).toBe('1.5');
    expect(negateValue('0')).toBe('0');
    expect(negateValue('-0')).toBe('0');
  });
});

describe('directory pages', () => {
  it('follows IndexNext until 0 and lists Indexes uppercase', () => {
    expect(nextDirectoryPage({ IndexNext: '0000000000000002' })).toBe(2n);
    expect(nextDirectoryPage({ IndexNext: '0' })).toBeUndefined();
    expect(nextDirectoryPage({})).toBeUndefined();
    expect(directoryIndexes({ Indexes: ['ab'.repeat(32), 5] })).toEqual(['AB'.repeat(32)]);
  });
});
