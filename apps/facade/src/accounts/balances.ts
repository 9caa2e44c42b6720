import type { ChainProfile } from '@ledger-node/chain';

/** RippleState flags (rippled LedgerFormats): the no-rippling bit of each side. */
const lowNoRipple = 0x00100000;
const highNoRipple = 0x00200000;

export interface CoinLine {
  account: string;
  balance: string;
  currency: string;
  limit: string;
  limit_peer: string;
  noRipple: boolean;
  quality_in: number;
  quality_out: number;
}

type Amount = { currency: string; issuer: string; value: string };

/** Negates a decimal string as rippled prints amounts ("0" stays "0"). */
function negate(value: string): string {
  if (/^0(\.0*)?$/.test(value)) return value;
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

/**
 * One trust line from the queried account's side, as rippled's account_lines reports it: the low
 * account's balance is the stored Balance, the high account's its negation; limits, qualities and
 * the no-ripple flag are that side's.
 */
export function coinLine(line: Record<string, any>, account: string): CoinLine {
  const low = line.LowLimit as Amount;
  const high = line.HighLimit as Amount;
  const isLow = low.issuer === account;
  const balance = (line.Balance as Amount).value;
  const flags = Number(line.Flags ?? 0);
  return {
    account: isLow ? high.issuer : low.issuer,
    balance: isLow ? balance : negate(balance),
    currency: (line.Balance as Amount).currency,
    limit: isLow ? low.value : high.value,
    limit_peer: isLow ? high.value : low.value,
    noRipple: (flags & (isLow ? lowNoRipple : highNoRipple)) !== 0,
    quality_in: Number((isLow ? line.LowQualityIn : line.HighQualityIn) ?? 0),
    quality_out: Number((isLow ? line.LowQualityOut : line.HighQualityOut) ?? 0),
  };
}

/** SPEC §2.3 coins entry, with the no-rippling flag under the chain's wire name. */
export function coinEntry(line: CoinLine, profile: ChainProfile) {
  return {
    account: line.account,
    balance: line.balance,
    currency: line.currency,
    limit: line.limit,
    limit_peer: line.limit_peer,
    [profile.noRippleWireName]: line.noRipple,
    quality_in: line.quality_in,
    quality_out: line.quality_out,
  };
}
