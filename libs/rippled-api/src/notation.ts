/**
 * rippled's notation for the fields ripple-binary-codec prints otherwise, applied to decoded JSON
 * (a transaction, its metadata, a ledger entry) before the rippled API answers with it:
 *
 * - an issued amount's `value` as STAmount::getText prints it: the 16-digit mantissa and `e` with
 *   its exponent when the exponent is outside −25…−5 (`"9999999999999999e80"`,
 *   `"3310128109714975e-4"`), else plain decimal without trailing zeros; zero is `"0"`;
 * - a path step (STPathSet::getJson) with its `type`: 1 account, 16 currency, 32 issuer, summed;
 * - a UInt64 (STUInteger<std::uint64_t>::getJson) as short lower-case hex (`"0"`,
 *   `"5b04f94ae6af8000"`), except the fields rippled marks base ten (MPT amounts), which the codec
 *   already prints in decimal. Jingtum's servers, of the older rippled, print 16 upper-case digits:
 *   `shortUInt64` is off there.
 */
import type { ChainProfile } from '@ledger-node/chain';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { amountText } from './book';
import type { TransactionInput } from './format';
import type { JsonObject } from './protocol';
import { mptIssuanceIdOfFields } from './synthetic';

export interface NotationRules {
  readonly definitions: XrplDefinitionsBase;
  /** Today's rippled prints UInt64 as short lower-case hex; the older rippled (Jingtum's) as 16 upper-case digits. */
  readonly shortUInt64: boolean;
  /** An address's 20-byte account id (an MPTokenIssuance entry's id is made of its issuer's). */
  readonly decodeAccountId: (address: string) => Uint8Array;
}

/** The rules of the chain's servers: today's rippled on the XRP Ledger, the older rippled on Jingtum. */
export function notationOf(profile: ChainProfile): NotationRules {
  return { definitions: profile.definitions, shortUInt64: profile.id === 'xrpl', decodeAccountId: profile.codec.decodeAccountId };
}

/** The transaction with its JSON forms in rippled's notation, each rendered once, when first read. */
export function inRippledNotation(tx: TransactionInput, rules: NotationRules): TransactionInput {
  let txJson: JsonObject | undefined;
  let metaJson: JsonObject | undefined;
  return {
    hash: tx.hash,
    txBlob: tx.txBlob,
    metaBlob: tx.metaBlob,
    index: tx.index,
    get txJson() {
      return (txJson ??= rippledNotation(tx.txJson, rules));
    },
    get metaJson() {
      return (metaJson ??= rippledNotation(tx.metaJson, rules));
    },
  };
}

/** Keys that are no serialized field yet hold an amount: rippled prints them as amounts too. */
const AMOUNT_KEYS = new Set(['delivered_amount', 'DeliverMax']);

/** rippled's sMD_BaseTen UInt64 fields: printed in decimal by rippled and the codec alike. */
const BASE_TEN_UINT64 = new Set(['MaximumAmount', 'OutstandingAmount', 'MPTAmount', 'LockedAmount', 'ConfidentialOutstandingAmount']);

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const MANTISSA_DIGITS = 16;

/** An issued amount's value as rippled's STAmount::getText prints it; text that is no decimal is returned as it is. */
export function issuedValueText(value: string): string {
  const parts = DECIMAL.exec(value);
  if (!parts || (parts[2] === '' && (parts[3] ?? '') === '')) return value;
  const [, sign, whole, fraction = '', exponentText = '0'] = parts;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = Number(exponentText) - fraction.length;
  // Normalized as rippled holds it: a 16-digit mantissa (trailing zeros move into the exponent).
  if (digits.length < MANTISSA_DIGITS) {
    exponent -= MANTISSA_DIGITS - digits.length;
    digits = digits.padEnd(MANTISSA_DIGITS, '0');
  } else if (digits.length > MANTISSA_DIGITS) {
    const dropped = digits.slice(MANTISSA_DIGITS);
    if (/[^0]/.test(dropped)) return value; // more precision than an amount holds: not an amount's text
    exponent += dropped.length;
    digits = digits.slice(0, MANTISSA_DIGITS);
  }
  return amountText(BigInt(`${sign}${digits}`), exponent);
}

/** STPathElement types: the parts a step holds. */
const STEP_TYPES: readonly [string, number][] = [
  ['account', 0x01],
  ['currency', 0x10],
  ['issuer', 0x20],
];

function pathStep(step: unknown): unknown {
  if (!isObject(step) || 'type' in step) return step;
  const type = STEP_TYPES.reduce((sum, [key, bit]) => (key in step ? sum | bit : sum), 0);
  return { ...step, type };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A ledger entry as rippled answers with it: its JSON in rippled's notation, with its `index`. */
export function entryInRippledNotation(json: JsonObject, index: string, rules: NotationRules): JsonObject {
  // rippled STLedgerEntry::getJson: an MPTokenIssuance also shows its id.
  const issuanceId = json.LedgerEntryType === 'MPTokenIssuance' ? mptIssuanceIdOfFields(json, rules.decodeAccountId) : undefined;
  return { ...rippledNotation(json, rules), index, ...(issuanceId === undefined ? {} : { mpt_issuance_id: issuanceId }) };
}

/** `json` (decoded by the codec) in rippled's notation; the input is not modified. */
export function rippledNotation(json: JsonObject, rules: NotationRules): JsonObject {
  return renderObject(json, rules);
}

function renderObject(object: JsonObject, rules: NotationRules): JsonObject {
  const rendered: JsonObject = {};
  for (const [name, value] of Object.entries(object)) rendered[name] = renderField(name, value, rules);
  return rendered;
}

function renderField(name: string, value: unknown, rules: NotationRules): unknown {
  const type = AMOUNT_KEYS.has(name) ? 'Amount' : fieldType(name, rules.definitions);
  if (type === 'Amount') return isObject(value) && typeof value.value === 'string' && 'currency' in value ? { ...value, value: issuedValueText(value.value) } : value;
  if (type === 'UInt64') return rules.shortUInt64 && typeof value === 'string' && !BASE_TEN_UINT64.has(name) && /^[0-9A-Fa-f]{1,16}$/.test(value) ? BigInt(`0x${value}`).toString(16) : value;
  if (type === 'PathSet') return Array.isArray(value) ? value.map((path) => (Array.isArray(path) ? path.map(pathStep) : path)) : value;
  if (Array.isArray(value)) return value.map((entry) => (isObject(entry) ? renderObject(entry, rules) : entry));
  if (isObject(value)) return renderObject(value, rules);
  return value;
}

/** The field's serialized type name; undefined for a key that is no field (`hash`, `delivered_amount`). */
function fieldType(name: string, definitions: XrplDefinitionsBase): string | undefined {
  try {
    return definitions.field.fromString(name)?.type.name;
  } catch {
    return undefined;
  }
}
