import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { readFixture } from '@ledger-node/test-utils';
import { coinEntry, coinLine } from './balances';

type State = { ledger: { accountState: Record<string, any>[] } };
const line = readFixture<State>('xrpl/ledgers/mainnet/38129-full-state.json').ledger.accountState.find(
  (entry) => entry.index === '73E075E64CA5E7CE60FFCD5359C1D730EDFFEE7C4D992760A87DF7EA0A34E40F',
)!;
const low = 'r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx';
const high = 'r9duXXmUuhSs6JxKpPCSh2tPUg9AGvE2cG';

describe('coinLine (a RippleState from mainnet ledger 38129, Balance -1 USD, high limit 10)', () => {
  it("gives the low account the stored balance and its own limit", () => {
    expect(coinLine(line, low)).toEqual({ account: high, balance: '-1', currency: 'USD', limit: '0', limit_peer: '10', noRipple: false, quality_in: 0, quality_out: 0 });
  });

  it('gives the high account the negated balance and the limits the other way round', () => {
    expect(coinLine(line, high)).toEqual({ account: low, balance: '1', currency: 'USD', limit: '10', limit_peer: '0', noRipple: false, quality_in: 0, quality_out: 0 });
  });

  it("reads each side's no-ripple flag and qualities", () => {
    const flagged = { ...line, Flags: 0x00200000, HighQualityIn: 1_000_000_000, LowQualityOut: 990_000_000 };
    expect(coinLine(flagged, high)).toMatchObject({ noRipple: true, quality_in: 1_000_000_000, quality_out: 0 });
    expect(coinLine(flagged, low)).toMatchObject({ noRipple: false, quality_in: 0, quality_out: 990_000_000 });
  });
});

describe('coinEntry', () => {
  it('names the no-rippling flag as the chain does', () => {
    const entry = coinLine(line, high);
    expect(Object.keys(coinEntry(entry, getProfile('xrpl')))).toEqual(['account', 'balance', 'currency', 'limit', 'limit_peer', 'no_ripple', 'quality_in', 'quality_out']);
    expect(coinEntry(entry, getProfile('jingtum'))).toHaveProperty('no_skywell', false);
  });
});
