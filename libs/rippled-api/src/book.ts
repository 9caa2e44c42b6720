/**
 * rippled `book_offers` shapes (BookOffers.cpp, NetworkOPs::getBookPage): the two sides of a book
 * as a request names them, and an offer's quality printed from its book directory's key.
 */
import type { ChainProfile } from '@ledger-node/chain';
import { isLedgerNodeError } from '@ledger-node/errors';
import { invalidField, missingField, RpcError, type RpcErrorToken } from './errors';
import { issuedCurrencyBytes } from './ledger-entry';
import { isJsonObject, type JsonObject } from './protocol';

/** One side of an order book: 20-byte currency and issuer (both zero for the native asset). */
export interface BookSide {
  readonly currency: Uint8Array;
  readonly issuer: Uint8Array;
  readonly native: boolean;
}

const ZERO_20 = new Uint8Array(20);

/**
 * `taker_pays` / `taker_gets` as rippled reads them: a currency (the native code, three letters or
 * 40 hex) and, for an issued currency, its issuer. Errors name the side: srcCurMalformed /
 * srcIsrMalformed for taker_pays, dstAmtMalformed / dstIsrMalformed for taker_gets.
 */
export function readBookSide(params: JsonObject, field: 'taker_pays' | 'taker_gets', profile: ChainProfile): BookSide {
  const [currencyError, issuerError]: [RpcErrorToken, RpcErrorToken] = field === 'taker_pays' ? ['srcCurMalformed', 'srcIsrMalformed'] : ['dstAmtMalformed', 'dstIsrMalformed'];
  const side = params[field];
  if (side === undefined) throw missingField(field);
  if (!isJsonObject(side)) throw invalidField(field, 'object');
  if (side.currency === undefined) throw new RpcError(currencyError, `Missing field '${field}.currency'.`);
  if (typeof side.currency !== 'string') throw new RpcError(currencyError, `Invalid field '${field}.currency', not string.`);
  const native = side.currency === profile.nativeCurrency || /^0{40}$/.test(side.currency);
  let currency: Uint8Array = ZERO_20;
  if (!native) {
    try {
      currency = issuedCurrencyBytes(side.currency, profile);
    } catch (error) {
      if (isLedgerNodeError(error) && error.kind === 'invalid_params') throw new RpcError(currencyError, `Invalid field '${field}.currency', bad currency.`);
      throw error;
    }
  }
  if (side.issuer !== undefined) {
    if (typeof side.issuer !== 'string') throw new RpcError(issuerError, `Invalid field '${field}.issuer', not string.`);
    if (!profile.codec.isValidAddress(side.issuer)) throw new RpcError(issuerError, `Invalid field '${field}.issuer', bad issuer.`);
  }
  if (native) {
    if (side.issuer !== undefined && profile.codec.decodeAccountId(side.issuer as string).some((byte) => byte !== 0)) {
      throw new RpcError(issuerError, `Unneeded field '${field}.issuer' for ${profile.nativeCurrency} currency specification.`);
    }
    return { currency: ZERO_20, issuer: ZERO_20, native: true };
  }
  if (side.issuer === undefined) throw new RpcError(issuerError, `Invalid field '${field}.issuer', expected non-${profile.nativeCurrency} issuer.`);
  const issuer = profile.codec.decodeAccountId(side.issuer as string);
  if (issuer.every((byte) => byte === 0)) throw new RpcError(issuerError, `Invalid field '${field}.issuer', bad issuer account one.`);
  return { currency, issuer, native: false };
}

/**
 * rippled STAmount::getText of a non-native amount: the mantissa with `e` and the exponent outside
 * [-25, -5], else plain decimal digits.
 */
export function amountText(mantissa: bigint, exponent: number): string {
  if (mantissa === 0n) return '0';
  const negative = mantissa < 0n;
  const digits = (negative ? -mantissa : mantissa).toString();
  const sign = negative ? '-' : '';
  if (exponent !== 0 && (exponent < -25 || exponent > -5)) return `${sign}${digits}e${exponent}`;
  if (exponent >= 0) return `${sign}${digits}${'0'.repeat(exponent)}`;
  const padded = digits.padStart(-exponent + 1, '0');
  const whole = padded.slice(0, padded.length + exponent).replace(/^0+(?=\d)/, '');
  const fraction = padded.slice(padded.length + exponent).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The quality of a book directory, from the last 8 bytes of its key (rippled getQuality /
 * amountFromQuality): an exponent byte (biased by 100) and a 56-bit mantissa; printed as an offer's
 * `quality`.
 */
export function directoryQuality(bookDirectoryKey: string): string {
  const quality = BigInt(`0x${bookDirectoryKey.slice(48)}`);
  const exponent = Number(quality >> 56n) - 100;
  return amountText(quality & 0x00ffffffffffffffn, exponent);
}
