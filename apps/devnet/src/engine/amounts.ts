/**
 * Amounts as transactions carry them: native drops (a decimal string) or an issued amount
 * `{ currency, issuer, value }`. Parsing never throws; a malformed amount is `undefined` and the
 * rule that reads it answers with its tem code.
 */
import { IouValue, IouValueError } from './iou';
import { MAX_NATIVE_DROPS } from './protocol';

export interface NativeAmount {
  native: true;
  drops: bigint;
}

export interface IssuedAmount {
  native: false;
  currency: string;
  issuer: string;
  value: IouValue;
}

export type Amount = NativeAmount | IssuedAmount;

const DROPS = /^-?\d+$/;
const CURRENCY_HEX = /^[0-9A-F]{40}$/;

export function parseAmount(json: unknown): Amount | undefined {
  if (typeof json === 'string') {
    if (!DROPS.test(json)) return undefined;
    return { native: true, drops: BigInt(json) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const { currency, issuer, value } = json as Record<string, unknown>;
  if (typeof currency !== 'string' || typeof issuer !== 'string' || typeof value !== 'string') return undefined;
  try {
    return { native: false, currency, issuer, value: IouValue.parse(value) };
  } catch (error) {
    if (error instanceof IouValueError) return undefined;
    throw error;
  }
}

/**
 * An issued currency code that names the native asset (rippled `badCurrency` / `isXRP`): the
 * chain's native code, or the all-zero code that ripple-binary-codec prints as 'XRP'.
 */
export function isNativeCurrencyCode(currency: string, nativeCurrency: string): boolean {
  return currency === nativeCurrency || currency === 'XRP' || (CURRENCY_HEX.test(currency) && /^0+$/.test(currency));
}

/** rippled `isLegalNet`: native amounts within the total supply. */
export function isLegalAmount(amount: Amount): boolean {
  return !amount.native || (amount.drops <= MAX_NATIVE_DROPS && amount.drops >= -MAX_NATIVE_DROPS);
}

export function isPositive(amount: Amount): boolean {
  return amount.native ? amount.drops > 0n : amount.value.signum() > 0;
}

export function amountToJson(amount: Amount): string | { currency: string; issuer: string; value: string } {
  return amount.native ? amount.drops.toString() : { currency: amount.currency, issuer: amount.issuer, value: amount.value.toString() };
}

export function issuedJson(currency: string, issuer: string, value: IouValue): { currency: string; issuer: string; value: string } {
  return { currency, issuer, value: value.toString() };
}
