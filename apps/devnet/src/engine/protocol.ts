/**
 * Protocol constants the engine's rules use: flag bits (rippled LedgerFormats.h / TxFlags.h),
 * directory limits, and the per-chain definitions table that names result codes and field types.
 */
import type { ChainProfile } from '@ledger-node/chain';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';

/** Binary-codec definitions of the chain (result codes, field types, entry and transaction types): the profile's. */
export function definitionsOf(profile: ChainProfile): XrplDefinitionsBase {
  return profile.definitions;
}

/** Transaction flags every transaction type accepts (rippled `tfUniversal`). */
export const TxFlag = {
  fullyCanonicalSig: 0x80000000,
  innerBatchTxn: 0x40000000,
} as const;
export const UNIVERSAL_FLAGS = TxFlag.fullyCanonicalSig | TxFlag.innerBatchTxn;

export const PaymentFlag = {
  noRippleDirect: 0x00010000,
  partialPayment: 0x00020000,
  limitQuality: 0x00040000,
} as const;

export const TrustSetFlag = {
  setfAuth: 0x00010000,
  setNoRipple: 0x00020000,
  clearNoRipple: 0x00040000,
  setFreeze: 0x00100000,
  clearFreeze: 0x00200000,
} as const;

export const OfferCreateFlag = {
  passive: 0x00010000,
  immediateOrCancel: 0x00020000,
  fillOrKill: 0x00040000,
  sell: 0x00080000,
} as const;

/** Offer ledger-entry flags (rippled `lsfPassive`, `lsfSell`). */
export const OfferFlag = {
  passive: 0x00010000,
  sell: 0x00020000,
} as const;

export const AccountSetTxFlag = {
  requireDestTag: 0x00010000,
  optionalDestTag: 0x00020000,
  requireAuth: 0x00040000,
  optionalAuth: 0x00080000,
  disallowNative: 0x00100000,
  allowNative: 0x00200000,
} as const;

/** AccountSet SetFlag / ClearFlag values (rippled `asf*`). */
export const AccountSetFlag = {
  requireDest: 1,
  requireAuth: 2,
  disallowNative: 3,
  disableMaster: 4,
  accountTxnId: 5,
  noFreeze: 6,
  globalFreeze: 7,
  defaultRipple: 8,
  depositAuth: 9,
} as const;

/** AccountRoot flags (rippled `lsf*`). */
export const AccountRootFlag = {
  passwordSpent: 0x00010000,
  requireDestTag: 0x00020000,
  requireAuth: 0x00040000,
  disallowNative: 0x00080000,
  disableMaster: 0x00100000,
  noFreeze: 0x00200000,
  globalFreeze: 0x00400000,
  defaultRipple: 0x00800000,
  depositAuth: 0x01000000,
} as const;

/** Trust line (RippleState / SkywellState) flags. */
export const TrustLineFlag = {
  lowReserve: 0x00010000,
  highReserve: 0x00020000,
  lowAuth: 0x00040000,
  highAuth: 0x00080000,
  lowNoRipple: 0x00100000,
  highNoRipple: 0x00200000,
  lowFreeze: 0x00400000,
  highFreeze: 0x00800000,
} as const;

/** rippled `dirNodeMaxEntries` / `dirNodeMaxPages`. */
export const DIRECTORY_PAGE_SIZE = 32;
export const DIRECTORY_MAX_PAGES = 262_144n;

/** rippled `MaxPathSize` / `MaxPathLength`. */
export const MAX_PATHS = 6;
export const MAX_PATH_LENGTH = 8;

/** rippled `maxDomainLength` (bytes). */
export const MAX_DOMAIN_BYTES = 256;

/** Largest legal native amount: 10^17 drops (rippled `isLegalAmount`). */
export const MAX_NATIVE_DROPS = 10n ** 17n;
