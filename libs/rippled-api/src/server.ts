/** rippled `server_info` / `server_state` shapes (NetworkOPs::getServerInfo) and `complete_ledgers`. */
import { RIPPLE_EPOCH_OFFSET, type ChainProfile } from '@ledger-node/chain';
import type { LedgerRange } from '@ledger-node/contracts';
import type { JsonObject } from './protocol';

export type { LedgerRange };

/** The chain's fees as a ledger's FeeSettings states them, in drops. */
export interface FeeSchedule {
  readonly baseFee: bigint;
  readonly reserveBase: bigint;
  readonly reserveIncrement: bigint;
}

/** rippled's `complete_ledgers` text: "a-b,c,d-e" ("empty" when nothing is held). */
export function formatRanges(ranges: readonly LedgerRange[]): string {
  if (ranges.length === 0) return 'empty';
  return ranges.map((range) => (range.first === range.last ? String(range.first) : `${range.first}-${range.last}`)).join(',');
}

/** A drops amount as the decimal number of native units rippled prints in server_info (e.g. 0.00001). */
export function nativeUnits(drops: bigint, dropsPerUnit: bigint): number {
  const whole = drops / dropsPerUnit;
  const fraction = (drops % dropsPerUnit).toString().padStart(dropsPerUnit.toString().length - 1, '0').replace(/0+$/, '');
  return Number(fraction ? `${whole}.${fraction}` : `${whole}`);
}

/** rippled's `time` field: '2024-Jan-05 10:01:02.123456 UTC'. */
export function serverTime(now: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return (
    `${now.getUTCFullYear()}-${months[now.getUTCMonth()]}-${pad(now.getUTCDate())} ` +
    `${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}.${pad(now.getUTCMilliseconds() * 1000, 6)} UTC`
  );
}

/** Seconds since a ledger closed (never negative). */
export function ledgerAgeSeconds(closeTime: number, nowMs: number): number {
  return Math.max(0, Math.floor(nowMs / 1000) - RIPPLE_EPOCH_OFFSET - closeTime);
}

export interface ValidatedLedgerInput {
  readonly ledgerIndex: number;
  /** Uppercase hex. */
  readonly hash: string;
  readonly closeTime: number;
}

/**
 * server_info's `validated_ledger`: fees in native units, named after the native asset
 * (base_fee_xrp on the XRP Ledger, base_fee_swt on Jingtum).
 */
export function serverInfoValidatedLedger(
  ledger: ValidatedLedgerInput,
  fees: FeeSchedule,
  profile: Pick<ChainProfile, 'nativeCurrency' | 'dropsPerUnit'>,
  nowMs: number,
): JsonObject {
  const native = profile.nativeCurrency.toLowerCase();
  return {
    age: ledgerAgeSeconds(ledger.closeTime, nowMs),
    [`base_fee_${native}`]: nativeUnits(fees.baseFee, profile.dropsPerUnit),
    hash: ledger.hash,
    [`reserve_base_${native}`]: nativeUnits(fees.reserveBase, profile.dropsPerUnit),
    [`reserve_inc_${native}`]: nativeUnits(fees.reserveIncrement, profile.dropsPerUnit),
    seq: ledger.ledgerIndex,
  };
}

/** server_state's `validated_ledger`: fees in drops, the close time in Ripple-epoch seconds. */
export function serverStateValidatedLedger(ledger: ValidatedLedgerInput, fees: FeeSchedule): JsonObject {
  return {
    base_fee: Number(fees.baseFee),
    close_time: ledger.closeTime,
    hash: ledger.hash,
    reserve_base: Number(fees.reserveBase),
    reserve_inc: Number(fees.reserveIncrement),
    seq: ledger.ledgerIndex,
  };
}

/** What the node trusts, as server_info shows it: the publishers' lists and the quorum. */
export interface TrustFacts {
  /** Trusted publishers (rippled ValidatorList::count). */
  publishers: number;
  /** When the earliest list in force expires (seconds since the XRP Ledger epoch); undefined while one is not had. */
  expiration?: number;
  /** Undefined while out of reach. */
  quorum?: number;
}

/**
 * rippled server_info's `validation_quorum` and `validator_list` {count, expiration, status}
 * (NetworkOPs::getServerInfo): "never"/"active" with no publisher, "unknown" while a list is not had.
 */
export function validatorListFields(trust: TrustFacts | undefined, nowMs: number): { validation_quorum: number; validator_list: { count: number; expiration: string; status: string } } {
  const quorum = trust?.quorum ?? 0;
  if (!trust || trust.publishers === 0) return { validation_quorum: quorum, validator_list: { count: 0, expiration: 'never', status: 'active' } };
  if (trust.expiration === undefined) return { validation_quorum: quorum, validator_list: { count: trust.publishers, expiration: 'unknown', status: 'unknown' } };
  const expiresMs = (trust.expiration + RIPPLE_EPOCH_OFFSET) * 1000;
  return {
    validation_quorum: quorum,
    validator_list: { count: trust.publishers, expiration: serverTime(new Date(expiresMs)), status: expiresMs > nowMs ? 'active' : 'expired' },
  };
}
