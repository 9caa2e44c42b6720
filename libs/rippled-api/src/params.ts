/**
 * Request parameters shared by several methods, read as rippled reads them (RPCHelpers.cpp:
 * ledger selection, accounts, limits, markers). Reading a ledger selector yields a plain value; the
 * holder of the ledgers resolves it.
 */
import { invalidField, missingField, RpcError } from './errors';
import { isJsonObject, type ApiVersion, type JsonObject } from './protocol';

const HASH_256 = /^[0-9A-Fa-f]{64}$/;

export function isHash256(value: unknown): value is string {
  return typeof value === 'string' && HASH_256.test(value);
}

/** A ledger a request names, before anyone looked it up. Hashes are uppercase. */
export type LedgerSpec =
  | { readonly kind: 'hash'; readonly ledgerHash: string }
  | { readonly kind: 'index'; readonly ledgerIndex: number }
  | { readonly kind: 'validated' }
  | { readonly kind: 'closed' }
  | { readonly kind: 'current' };

export type LedgerSpecDefault = 'current' | 'validated';

/** The largest ledger index: ledger indexes are unsigned 32-bit numbers. */
export const MAX_LEDGER_INDEX = 0xffffffff;

/**
 * rippled lookupLedger: `ledger_hash`, else `ledger_index` as a number, a decimal string or
 * `validated` / `closed` / `current`; neither → `fallback` (rippled: `current` for most methods).
 */
export function readLedgerSpec(request: JsonObject, fallback: LedgerSpecDefault = 'current'): LedgerSpec {
  const ledgerHash = request.ledger_hash;
  if (ledgerHash !== undefined) {
    if (typeof ledgerHash !== 'string') throw new RpcError('invalidParams', 'ledgerHashNotString');
    if (!HASH_256.test(ledgerHash)) throw new RpcError('invalidParams', 'ledgerHashMalformed');
    return { kind: 'hash', ledgerHash: ledgerHash.toUpperCase() };
  }
  const selector = request.ledger_index ?? fallback;
  // A ledger index is an unsigned 32-bit number (rippled LedgerIndex): anything larger names no ledger.
  if (typeof selector === 'number') {
    if (!Number.isSafeInteger(selector) || selector < 0 || selector > MAX_LEDGER_INDEX) throw new RpcError('invalidParams', 'ledgerIndexMalformed');
    return { kind: 'index', ledgerIndex: selector };
  }
  if (typeof selector !== 'string') throw new RpcError('invalidParams', 'ledgerIndexMalformed');
  if (/^\d+$/.test(selector)) {
    const ledgerIndex = Number(selector);
    if (!Number.isSafeInteger(ledgerIndex) || ledgerIndex > MAX_LEDGER_INDEX) throw new RpcError('invalidParams', 'ledgerIndexMalformed');
    return { kind: 'index', ledgerIndex };
  }
  switch (selector) {
    case 'validated':
    case 'closed':
    case 'current':
      return { kind: selector };
    default:
      throw new RpcError('invalidParams', 'ledgerIndexMalformed');
  }
}

/** Whether an address is well formed in the chain's alphabet (a chain codec satisfies it). */
export interface AddressCheck {
  isValidAddress(address: string): boolean;
}

/** A required address parameter; malformed → rippled `actMalformed`. */
export function readAccount(request: JsonObject, codec: AddressCheck, field = 'account'): string {
  const value = request[field];
  if (value === undefined) throw missingField(field);
  if (typeof value !== 'string' || !codec.isValidAddress(value)) throw new RpcError('actMalformed');
  return value;
}

export function readBoolean(request: JsonObject, field: string): boolean {
  const value = request[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidField(field, 'boolean');
  return value;
}

export interface LimitRange {
  readonly fallback: number;
  readonly min: number;
  readonly max: number;
}

/** rippled readLimitField: an unsigned integer, clamped to the method's range. */
export function readLimit(request: JsonObject, range: LimitRange): number {
  const value = request.limit;
  if (value === undefined || value === null) return range.fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidField('limit', 'unsigned integer');
  return Math.min(range.max, Math.max(range.min, value));
}

/** rippled's account_tx resume point: the ledger and TransactionIndex of the next transaction to return. */
export interface AccountTxMarker {
  readonly ledger: number;
  readonly seq: number;
}

export function readAccountTxMarker(request: JsonObject): AccountTxMarker | undefined {
  const marker = request.marker;
  if (marker === undefined || marker === null) return undefined;
  if (!isJsonObject(marker)) throw invalidField('marker');
  const { ledger, seq } = marker;
  if (typeof ledger !== 'number' || typeof seq !== 'number' || !Number.isSafeInteger(ledger) || !Number.isSafeInteger(seq) || ledger < 0 || seq < 0) {
    throw invalidField('marker');
  }
  return { ledger, seq };
}

/** `ledger_index_min` / `ledger_index_max`: absent or -1 means the end of the validated range. */
export function readLedgerBound(request: JsonObject, field: 'ledger_index_min' | 'ledger_index_max'): number | undefined {
  const value = request[field];
  if (value === undefined || value === null || value === -1) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidField(field, 'integer');
  return value;
}

/**
 * The ledgers an account_tx request searches, from its `ledger_index_min/max` and the validated
 * range held: API v2 rejects bounds outside the held range, v1 clamps them (rippled AccountTx.cpp
 * getLedgerRange).
 */
export function accountTxRange(
  request: JsonObject,
  held: { readonly first: number; readonly last: number },
  apiVersion: ApiVersion,
): { minLedgerIndex: number; maxLedgerIndex: number } {
  const requestedMin = readLedgerBound(request, 'ledger_index_min');
  const requestedMax = readLedgerBound(request, 'ledger_index_max');
  if (apiVersion > 1 && ((requestedMin !== undefined && requestedMin < held.first) || (requestedMax !== undefined && requestedMax > held.last))) {
    throw new RpcError('lgrIdxMalformed');
  }
  const minLedgerIndex = Math.max(requestedMin ?? held.first, held.first);
  const maxLedgerIndex = Math.min(requestedMax ?? held.last, held.last);
  if (maxLedgerIndex < minLedgerIndex) {
    throw apiVersion > 1 ? new RpcError('invalidLgrRange') : new RpcError('lgrIdxsInvalid');
  }
  return { minLedgerIndex, maxLedgerIndex };
}

/** The fields of rippled's requests that carry key material (its sign-and-submit forms, wallet_propose). */
export const KEY_FIELDS: readonly string[] = ['secret', 'seed', 'seed_hex', 'passphrase'];

/** rippled's refusal of a key field among `params` (the field named, never its value); `within` names the object they sit in. */
export function refuseKeyFields(params: Readonly<Record<string, unknown>>, within?: string): void {
  for (const field of KEY_FIELDS) if (params[field] !== undefined) throw invalidField(within === undefined ? field : `${within}.${field}`);
}

/** rippled simulate's own checks of a request, in its order: `binary` a boolean, no key fields, exactly one of tx_blob and tx_json. */
export function checkSimulateRequest(params: Readonly<Record<string, unknown>>): void {
  if (params.binary !== undefined && typeof params.binary !== 'boolean') throw invalidField('binary');
  refuseKeyFields(params);
  if (params.tx_blob !== undefined && params.tx_json !== undefined) throw new RpcError('invalidParams', 'Can only include one of `tx_blob` and `tx_json`.');
  if (params.tx_blob === undefined && params.tx_json === undefined) throw new RpcError('invalidParams', 'Neither `tx_blob` nor `tx_json` included.');
}
