/** rippled `account_info` shapes: the account root with its flags spelled out (AccountInfo.cpp). */
import type { JsonObject } from './protocol';

/** AccountRoot flags rippled always reports in `account_flags` (LedgerFormats.h lsf*). */
const accountFlagBits: ReadonlyArray<[string, number]> = [
  ['defaultRipple', 0x00800000],
  ['depositAuth', 0x01000000],
  ['disableMasterKey', 0x00100000],
  ['disallowIncomingXRP', 0x00080000],
  ['globalFreeze', 0x00400000],
  ['noFreeze', 0x00200000],
  ['passwordSpent', 0x00010000],
  ['requireAuthorization', 0x00040000],
  ['requireDestinationTag', 0x00020000],
];

/** Flags rippled adds only once their amendment is enabled in the ledger read. */
const disallowIncomingBits: ReadonlyArray<[string, number]> = [
  ['disallowIncomingNFTokenOffer', 0x04000000],
  ['disallowIncomingCheck', 0x08000000],
  ['disallowIncomingPayChan', 0x10000000],
  ['disallowIncomingTrustline', 0x20000000],
];
const allowTrustLineClawbackBit = 0x80000000;
const allowTrustLineLockingBit = 0x40000000;

/** Amendments (by name) whose flags rippled's account_flags include when they are enabled. */
export const accountFlagAmendments = ['DisallowIncoming', 'Clawback', 'TokenEscrow'] as const;
export type AccountFlagAmendment = (typeof accountFlagAmendments)[number];

export function accountFlags(flags: number, enabled: ReadonlySet<AccountFlagAmendment> = new Set()): JsonObject {
  const isSet = (bit: number) => ((flags >>> 0) & bit) >>> 0 !== 0;
  const json: JsonObject = Object.fromEntries(accountFlagBits.map(([name, bit]) => [name, isSet(bit)]));
  if (enabled.has('DisallowIncoming')) for (const [name, bit] of disallowIncomingBits) json[name] = isSet(bit);
  if (enabled.has('Clawback')) json.allowTrustLineClawback = isSet(allowTrustLineClawbackBit);
  if (enabled.has('TokenEscrow')) json.allowTrustLineLocking = isSet(allowTrustLineLockingBit);
  return json;
}

/**
 * rippled injectSLE: an AccountRoot with an EmailHash also shows its Gravatar address
 * (`urlgravatar`, from the lower-case MD5 hex).
 */
export function accountDataJson(root: JsonObject, index: string): JsonObject {
  const data: JsonObject = { ...root, index };
  if (typeof root.EmailHash === 'string') data.urlgravatar = `http://www.gravatar.com/avatar/${root.EmailHash.toLowerCase()}`;
  return data;
}
