/**
 * rippled's trust-line and directory shapes: one line seen from one of its two accounts
 * (RPC::TrustLine / addLine in AccountLines.cpp) and the page chain of a directory.
 */
import type { JsonObject } from './protocol';

/** RippleState flags (rippled LedgerFormats.h). */
export const rippleStateFlags = {
  lsfLowReserve: 0x00010000,
  lsfHighReserve: 0x00020000,
  lsfLowAuth: 0x00040000,
  lsfHighAuth: 0x00080000,
  lsfLowNoRipple: 0x00100000,
  lsfHighNoRipple: 0x00200000,
  lsfLowFreeze: 0x00400000,
  lsfHighFreeze: 0x00800000,
  lsfLowDeepFreeze: 0x02000000,
  lsfHighDeepFreeze: 0x04000000,
} as const;

interface IssuedAmount {
  currency: string;
  issuer: string;
  value: string;
}

function asIssuedAmount(value: unknown): IssuedAmount | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const amount = value as Partial<IssuedAmount>;
  return typeof amount.currency === 'string' && typeof amount.issuer === 'string' && typeof amount.value === 'string'
    ? (amount as IssuedAmount)
    : undefined;
}

/** The balance from the other side's view: rippled stores it from the low account's side. */
export function negateValue(value: string): string {
  if (/^-?0*(\.0*)?$/.test(value)) return '0';
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

/** The two accounts of a trust line (the issuers of its LowLimit and HighLimit). */
export function trustLineSides(line: JsonObject): { low: string; high: string } | undefined {
  const low = asIssuedAmount(line.LowLimit);
  const high = asIssuedAmount(line.HighLimit);
  return low && high ? { low: low.issuer, high: high.issuer } : undefined;
}

/**
 * One line of an account_lines answer, seen from `account`; `noRippleName` is the chain's wire
 * name of the no-rippling flag (`no_ripple`, Jingtum `no_skywell`). Undefined for an entry that is
 * not a well-formed line.
 */
export function lineView(line: JsonObject, account: string, noRippleName: string): JsonObject | undefined {
  const low = asIssuedAmount(line.LowLimit);
  const high = asIssuedAmount(line.HighLimit);
  const balance = asIssuedAmount(line.Balance);
  if (!low || !high || !balance) return undefined;
  const flags = typeof line.Flags === 'number' ? line.Flags : 0;
  const viewerIsLow = low.issuer === account;
  const [own, peer] = viewerIsLow ? [low, high] : [high, low];
  const side = viewerIsLow ? 'Low' : 'High';
  const bit = (lowBit: number, highBit: number, ofViewer: boolean) => (flags & (viewerIsLow === ofViewer ? lowBit : highBit)) !== 0;
  const { lsfLowAuth, lsfHighAuth, lsfLowNoRipple, lsfHighNoRipple, lsfLowFreeze, lsfHighFreeze } = rippleStateFlags;
  const view: JsonObject = {
    account: peer.issuer,
    balance: viewerIsLow ? balance.value : negateValue(balance.value),
    currency: balance.currency,
    limit: own.value,
    limit_peer: peer.value,
    [noRippleName]: bit(lsfLowNoRipple, lsfHighNoRipple, true),
    [`${noRippleName}_peer`]: bit(lsfLowNoRipple, lsfHighNoRipple, false),
    quality_in: typeof line[`${side}QualityIn`] === 'number' ? line[`${side}QualityIn`] : 0,
    quality_out: typeof line[`${side}QualityOut`] === 'number' ? line[`${side}QualityOut`] : 0,
  };
  if (bit(lsfLowAuth, lsfHighAuth, true)) view.authorized = true;
  if (bit(lsfLowAuth, lsfHighAuth, false)) view.peer_authorized = true;
  if (bit(lsfLowFreeze, lsfHighFreeze, true)) view.freeze = true;
  if (bit(lsfLowFreeze, lsfHighFreeze, false)) view.freeze_peer = true;
  return view;
}

/**
 * The page after a directory node (rippled dirNext): IndexNext is a UInt64 printed as hex ("0",
 * "1", or 16 digits); 0 or absent ends the chain.
 */
export function nextDirectoryPage(node: JsonObject): bigint | undefined {
  const next = node.IndexNext;
  const page = typeof next === 'string' && /^[0-9A-Fa-f]{1,16}$/.test(next) ? BigInt(`0x${next}`) : 0n;
  return page === 0n ? undefined : page;
}

/** The entry indexes a directory node lists, uppercase. */
export function directoryIndexes(node: JsonObject): string[] {
  const indexes = node.Indexes;
  if (!Array.isArray(indexes)) return [];
  return indexes.filter((index): index is string => typeof index === 'string').map((index) => index.toUpperCase());
}
