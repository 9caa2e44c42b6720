/**
 * Request parameters shared by several methods, read as rippled reads them (RPCHelpers.cpp:
 * ledger selection, accounts, limits).
 */
import type { ClosedLedger, JsonObject } from '../engine/types';
import type { LedgerSource } from './ledger-source';
import { invalidField, missingField, RpcError } from './rpc-error';

/** A ledger a request reads: a closed (validated) one, or the live chain's open ledger. */
export type LedgerRef = { kind: 'closed'; ledger: ClosedLedger } | { kind: 'open'; ledgerIndex: number };

export type LedgerSelectorDefault = 'current' | 'validated';

const HASH_256 = /^[0-9A-Fa-f]{64}$/;

export function isHash256(value: unknown): value is string {
  return typeof value === 'string' && HASH_256.test(value);
}

/** The state index a ledger reference reads at. */
export function stateLedgerIndex(ref: LedgerRef): number {
  return ref.kind === 'closed' ? ref.ledger.header.ledgerIndex : ref.ledgerIndex;
}

function validated(source: LedgerSource): ClosedLedger {
  const ledger = source.validatedLedger();
  if (!ledger) throw new RpcError('lgrNotFound', 'ledgerNotFound');
  return ledger;
}

function closedAt(source: LedgerSource, ledgerIndex: number): LedgerRef {
  const ledger = source.ledger(ledgerIndex);
  if (ledger) return { kind: 'closed', ledger };
  // The open ledger is addressable by its index too (rippled: the current ledger's sequence).
  const openLedgerIndex = source.writer?.openLedgerIndex();
  if (openLedgerIndex === ledgerIndex) return { kind: 'open', ledgerIndex };
  throw new RpcError('lgrNotFound', 'ledgerNotFound');
}

/**
 * rippled lookupLedger: `ledger_hash`, else `ledger_index` as a number, a decimal string or
 * `validated` / `closed` / `current`. A single node validates what it closes, so `closed` is the
 * validated ledger; a source without an open ledger (replay) answers `current` with its newest.
 */
export function resolveLedger(request: JsonObject, source: LedgerSource, fallback: LedgerSelectorDefault = 'current'): LedgerRef {
  const ledgerHash = request.ledger_hash;
  if (ledgerHash !== undefined) {
    if (typeof ledgerHash !== 'string') throw new RpcError('invalidParams', 'ledgerHashNotString');
    if (!HASH_256.test(ledgerHash)) throw new RpcError('invalidParams', 'ledgerHashMalformed');
    const ledger = source.ledgerByHash(ledgerHash.toUpperCase());
    if (!ledger) throw new RpcError('lgrNotFound', 'ledgerNotFound');
    return { kind: 'closed', ledger };
  }
  const selector = request.ledger_index ?? fallback;
  if (typeof selector === 'number') {
    if (!Number.isSafeInteger(selector) || selector < 0) throw new RpcError('invalidParams', 'ledgerIndexMalformed');
    return closedAt(source, selector);
  }
  if (typeof selector !== 'string') throw new RpcError('invalidParams', 'ledgerIndexMalformed');
  if (/^\d+$/.test(selector)) return closedAt(source, Number(selector));
  switch (selector) {
    case 'validated':
    case 'closed':
      return { kind: 'closed', ledger: validated(source) };
    case 'current': {
      const openLedgerIndex = source.writer?.openLedgerIndex();
      return openLedgerIndex === undefined ? { kind: 'closed', ledger: validated(source) } : { kind: 'open', ledgerIndex: openLedgerIndex };
    }
    default:
      throw new RpcError('invalidParams', 'ledgerIndexMalformed');
  }
}

/** The ledger fields rippled adds to an answer read at a ledger. */
export function ledgerFields(ref: LedgerRef): JsonObject {
  return ref.kind === 'closed'
    ? { ledger_hash: ref.ledger.hash, ledger_index: ref.ledger.header.ledgerIndex, validated: true }
    : { ledger_current_index: ref.ledgerIndex, validated: false };
}

/** A required address parameter; malformed → rippled `actMalformed`. */
export function readAccount(request: JsonObject, source: LedgerSource, field = 'account'): string {
  const value = request[field];
  if (value === undefined) throw missingField(field);
  if (typeof value !== 'string' || !source.profile.codec.isValidAddress(value)) throw new RpcError('actMalformed');
  return value;
}

export function readBoolean(request: JsonObject, field: string): boolean {
  const value = request[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw invalidField(field, 'boolean');
  return value;
}

/** rippled readLimitField: an unsigned integer, clamped to the method's range. */
export function readLimit(request: JsonObject, range: { fallback: number; min: number; max: number }): number {
  const value = request.limit;
  if (value === undefined || value === null) return range.fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidField('limit', 'unsigned integer');
  return Math.min(range.max, Math.max(range.min, value));
}
