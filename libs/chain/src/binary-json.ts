/**
 * Binary → JSON in one pass over the bytes, rendering what ripple-binary-codec's `decode` renders,
 * key for key. The codec copies the rest of the blob on every read, base58check-encodes every
 * AccountID and runs amounts through bignumber.js; on the facade's uncached reads that is most of
 * the CPU. This decoder renders the common types itself and throws UnreadableBinary for anything
 * else (MPT amounts and issues, Number, XChainBridge, signed integers, unknown fields, bytes the
 * codec might read differently), so the caller can hand the whole blob to the codec instead.
 */
import { coreTypes, type XrplDefinitionsBase } from 'ripple-binary-codec';
import type { AddressCodec } from './base58';
import { longCurrencyCode } from './currency';
import { ARRAY_END_MARKER, BinaryCursor, fieldKind, OBJECT_END_MARKER, readFieldValue, UnreadableBinary, type FieldKind } from './binary-reader';

type Json = string | number | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface FieldPlan {
  kind: FieldKind;
  /** How the value is laid out: an object or array of fields, an end marker, or a single value. */
  layout: 'object' | 'array' | 'end' | 'value';
  /** Renders a single value from its bytes; absent for a value this decoder leaves to the codec. */
  render?: (value: Buffer) => Json;
}

/** The fields ripple-binary-codec's UInt64 renders in base 10 rather than hex (types/uint-64.ts BASE10_AMOUNT_FIELDS). */
const BASE10_UINT64_FIELDS = new Set(['MaximumAmount', 'OutstandingAmount', 'MPTAmount', 'LockedAmount', 'ConfidentialOutstandingAmount']);

/** Widths of the UInt fields that hold a transaction type, ledger entry type or result code. */
const ENUM_WIDTHS: Record<string, number> = { UInt8: 1, UInt16: 2 };

/** ripple-binary-codec types/currency.ts ISO_REGEX: the characters of a three-letter code it prints as such. */
const ISO_CODE = /^[A-Z0-9a-z?!@#$%^&*(){}[\]|]{3}$/;

/** ripple-binary-codec types/amount.ts limits of an issued value: 16 significant digits, exponent -96..80. */
const MAX_IOU_PRECISION = 16;
const MIN_IOU_EXPONENT = -96;
const MAX_IOU_EXPONENT = 80;

/** Path step type bits (rippled STPathElement): which of account, currency and issuer follow. */
const STEP_ACCOUNT = 0x01;
const STEP_CURRENCY = 0x10;
const STEP_ISSUER = 0x20;
const PATH_SEPARATOR = 0xff;
const PATH_SET_END = 0x00;


/** Enough for the accounts of a busy ledger; AccountIDs recur (senders, issuers, book owners), most others never. */
const ADDRESS_CACHE_SIZE = 4096;

function hex(bytes: Buffer): string {
  return bytes.toString('hex').toUpperCase();
}

function isZero(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0) return false;
  return true;
}

/** ripple-binary-codec Currency.toJSON: 'XRP' for all zeros, a code in standard layout unless it is 'XRP', else 40 hex. */
function currencyJson(bytes: Buffer, longCodes: boolean): string {
  if (isZero(bytes)) return 'XRP';
  if (isZero(bytes.subarray(0, 12)) && isZero(bytes.subarray(15))) {
    const code = bytes.toString('latin1', 12, 15);
    if (code !== 'XRP' && ISO_CODE.test(code)) return code;
  }
  return (longCodes ? longCurrencyCode(bytes) : undefined) ?? hex(bytes);
}

/** Native amount: bit 62 is the sign (set when positive), the low 62 bits the drops. */
function dropsJson(bytes: Buffer): string {
  const high = bytes.readUInt32BE(0);
  const low = bytes.readUInt32BE(4);
  const sign = high & 0x40000000 ? '' : '-';
  const upper = high & 0x3fffffff;
  // Below 2^53 a double holds the drops exactly, and prints them without an exponent.
  const drops = upper < 0x200000 ? String(upper * 0x100000000 + low) : ((BigInt(upper) << 32n) | BigInt(low)).toString();
  return sign + drops;
}

/**
 * Issued amount value: bit 62 the sign (set when positive), 8 bits exponent + 97, 54 bits mantissa.
 * ripple-binary-codec prints mantissa × 10^exponent with bignumber.js (EXPONENTIAL_AT -112..96), after
 * refusing more than 16 significant digits or a normalized exponent outside -96..80. Within those
 * limits the decimal exponent stays in -81..95, so bignumber.js always prints plain decimal notation
 * without trailing zeros, which is what this builds; outside them the codec throws, and so do we.
 */
function issuedValueJson(bytes: Buffer): string {
  const high = bytes.readUInt32BE(0);
  const mantissa = (BigInt(high & 0x003fffff) << 32n) | BigInt(bytes.readUInt32BE(4));
  if (mantissa === 0n) return '0';
  const exponent = ((high >>> 22) & 0xff) - 97;
  const digits = mantissa.toString();
  let significant = digits.length;
  while (digits[significant - 1] === '0') significant--;
  const leadingExponent = digits.length - 1 + exponent;
  if (significant > MAX_IOU_PRECISION || leadingExponent - 15 < MIN_IOU_EXPONENT || leadingExponent - 15 > MAX_IOU_EXPONENT) {
    throw new UnreadableBinary('issued amount out of range');
  }
  const coefficient = digits.slice(0, significant);
  // The value is coefficient × 10^scale; `integerDigits` of the coefficient's digits stand before the point.
  const scale = digits.length - significant + exponent;
  const integerDigits = significant + scale;
  let text: string;
  if (scale >= 0) text = coefficient + '0'.repeat(scale);
  else if (integerDigits > 0) text = `${coefficient.slice(0, integerDigits)}.${coefficient.slice(integerDigits)}`;
  else text = `0.${'0'.repeat(-integerDigits)}${coefficient}`;
  return high & 0x40000000 ? text : `-${text}`;
}

/**
 * Renders canonical binary objects (transactions, metadata, ledger entries) to the JSON of
 * ripple-binary-codec's `decode` with one definitions table, AccountIDs in one address alphabet.
 */
export class BinaryJsonDecoder {
  private readonly plans = new Map<number, FieldPlan>();
  private readonly addressOf = new Map<string, string>();
  private readonly renderers: Record<string, (value: Buffer) => Json>;

  constructor(
    private readonly definitions: XrplDefinitionsBase,
    private readonly addresses: AddressCodec,
    /** Jingtum: four-to-six-character currency codes render as text. */
    private readonly longCurrencyCodes = false,
  ) {
    this.renderers = {
      UInt8: (value) => value[0]!,
      UInt16: (value) => value.readUInt16BE(0),
      UInt32: (value) => value.readUInt32BE(0),
      // ripple-binary-codec Hash128.toHex: an all-zero Hash128 prints as ''.
      Hash128: (value) => (isZero(value) ? '' : hex(value)),
      Hash160: hex,
      Hash192: hex,
      Hash256: hex,
      Blob: hex,
      Currency: (value) => this.currency(value),
      AccountID: (value) => this.address(value),
      Vector256: (value) => {
        if (value.length % 32 !== 0) throw new UnreadableBinary('Vector256 length is not a multiple of 32');
        const hashes: string[] = [];
        for (let offset = 0; offset < value.length; offset += 32) hashes.push(hex(value.subarray(offset, offset + 32)));
        return hashes;
      },
      Amount: (value) => this.amount(value),
      Issue: (value) => this.issue(value),
      PathSet: (value) => this.pathSet(value),
    };
  }

  /** The JSON of one serialized object; UnreadableBinary when the codec must render it. */
  decode(blob: Buffer): JsonObject {
    return this.readObject(new BinaryCursor(blob), false);
  }

  private readObject(cursor: BinaryCursor, nested: boolean): JsonObject {
    const json: JsonObject = {};
    while (!cursor.done) {
      const plan = this.plan(cursor.fieldOrdinal());
      if (plan.kind.name === OBJECT_END_MARKER && nested) return json;
      json[plan.kind.name] = this.readField(cursor, plan);
    }
    // The codec closes an object that runs to the end of the data without its end marker; leave that to it.
    if (nested) throw new UnreadableBinary(`missing ${OBJECT_END_MARKER}`);
    return json;
  }

  private readField(cursor: BinaryCursor, plan: FieldPlan): Json {
    switch (plan.layout) {
      case 'object':
        return this.readObject(cursor, true);
      case 'array':
        return this.readArray(cursor);
      case 'value':
        if (plan.render) return plan.render(readFieldValue(cursor, plan.kind));
        break;
      case 'end':
        // Out of place: the codec stops at a top-level ObjectEndMarker, ignoring what follows, and
        // reads an ArrayEndMarker inside an object as an array; leave both to it.
        break;
    }
    throw new UnreadableBinary(`field ${plan.kind.name} (${plan.kind.typeName}) is left to the codec`);
  }

  /** STArray: each member a one-field object wrapping an STObject (rippled: `[{"Memo": {...}}]`). */
  private readArray(cursor: BinaryCursor): Json[] {
    const members: Json[] = [];
    for (;;) {
      const plan = this.plan(cursor.fieldOrdinal());
      if (plan.kind.name === ARRAY_END_MARKER) return members;
      if (plan.layout !== 'object') throw new UnreadableBinary(`array member ${plan.kind.name} is not an object`);
      members.push({ [plan.kind.name]: this.readObject(cursor, true) });
    }
  }

  private plan(ordinal: number): FieldPlan {
    let plan = this.plans.get(ordinal);
    if (!plan) {
      plan = this.makePlan(fieldKind(this.definitions, ordinal));
      this.plans.set(ordinal, plan);
    }
    return plan;
  }

  private makePlan(kind: FieldKind): FieldPlan {
    if (kind.name === OBJECT_END_MARKER || kind.name === ARRAY_END_MARKER) return { kind, layout: 'end' };
    const field = this.definitions.field.fromString(kind.name);
    // A field the table does not name is rendered by its type alone.
    if (field === undefined) return this.makeTypePlan(kind);
    const associatedType: unknown = field.associatedType;
    // The codec renders these three by name (BytesLookup), reading as many bytes as the UInt field holds.
    for (const lookup of [this.definitions.transactionType, this.definitions.ledgerEntryType, this.definitions.transactionResult]) {
      if (associatedType !== lookup) continue;
      const width = ENUM_WIDTHS[kind.typeName];
      if (width === undefined || width !== lookup.ordinalWidth || kind.variableLength) return { kind, layout: 'value' };
      return { kind, layout: 'value', render: (value) => this.codeName(lookup, value.readUIntBE(0, width), kind.name) };
    }
    // Any other override of a field's class (SignedAmount deltas, permission names) is the codec's to render.
    if (associatedType !== coreTypes[kind.typeName]) return { kind, layout: 'value' };
    return this.makeTypePlan(kind);
  }

  private makeTypePlan(kind: FieldKind): FieldPlan {
    if (kind.typeName === 'STObject') return { kind, layout: 'object' };
    if (kind.typeName === 'STArray') return { kind, layout: 'array' };
    const render = kind.typeName === 'UInt64' ? this.uint64Renderer(kind.name) : this.renderers[kind.typeName];
    // Only Blob, AccountID and Vector256 carry a length prefix in the codec's reading.
    const lengthPrefixed = kind.typeName === 'Blob' || kind.typeName === 'AccountID' || kind.typeName === 'Vector256';
    return lengthPrefixed === kind.variableLength ? { kind, layout: 'value', render } : { kind, layout: 'value' };
  }

  private uint64Renderer(fieldName: string): (value: Buffer) => string {
    if (BASE10_UINT64_FIELDS.has(fieldName)) return (value) => value.readBigUInt64BE(0).toString();
    return hex;
  }

  private codeName(lookup: XrplDefinitionsBase['transactionType'], code: number, fieldName: string): string {
    const name = lookup.from(String(code))?.name;
    if (name === undefined) throw new UnreadableBinary(`${fieldName} ${code} has no name in the definitions`);
    return name;
  }

  /** AccountID in the chain alphabet; the codec's base58check costs two SHA-256 per address, so recent ones are kept. */
  private address(accountId: Buffer): string {
    // A zero-length AccountID (UNLModify's Account) is rippled's default account, which it prints as "".
    if (accountId.length === 0) return '';
    if (accountId.length !== 20) throw new UnreadableBinary(`AccountID of ${accountId.length} bytes`);
    const key = accountId.toString('latin1');
    let address = this.addressOf.get(key);
    if (address === undefined) {
      address = this.addresses.encodeAccountId(accountId);
      if (this.addressOf.size >= ADDRESS_CACHE_SIZE) this.addressOf.delete(this.addressOf.keys().next().value!);
      this.addressOf.set(key, address);
    }
    return address;
  }

  private currency(bytes: Buffer): string {
    return currencyJson(bytes, this.longCurrencyCodes);
  }

  private amount(value: Buffer): Json {
    if (value.length === 8) return dropsJson(value);
    if (value.length === 48) {
      return { value: issuedValueJson(value), currency: this.currency(value.subarray(8, 28)), issuer: this.address(value.subarray(28, 48)) };
    }
    throw new UnreadableBinary('MPT amount');
  }

  private issue(value: Buffer): Json {
    if (value.length === 20) return { currency: this.currency(value) };
    if (value.length === 40) return { currency: this.currency(value.subarray(0, 20)), issuer: this.address(value.subarray(20, 40)) };
    throw new UnreadableBinary('MPT issue');
  }

  /**
   * Paths of steps, each step's keys in the codec's order (account, issuer, currency). Only the
   * canonical form is rendered: non-empty paths of steps with known type bits; the codec reads other
   * forms (an empty path, a step type 0x00 or 0xFF) its own way.
   */
  private pathSet(value: Buffer): Json {
    const paths: Json[] = [];
    let path: Json[] = [];
    let offset = 0;
    for (;;) {
      const stepType = value[offset++];
      if (stepType === PATH_SEPARATOR || stepType === PATH_SET_END) {
        if (path.length === 0) throw new UnreadableBinary('empty path');
        paths.push(path);
        path = [];
        if (stepType === PATH_SET_END) return paths;
        continue;
      }
      if (stepType === undefined || stepType & ~(STEP_ACCOUNT | STEP_CURRENCY | STEP_ISSUER)) {
        throw new UnreadableBinary(`path step type ${stepType}`);
      }
      const step: JsonObject = {};
      if (stepType & STEP_ACCOUNT) {
        step.account = this.address(value.subarray(offset, offset + 20));
        offset += 20;
      }
      let currency: string | undefined;
      if (stepType & STEP_CURRENCY) {
        currency = this.currency(value.subarray(offset, offset + 20));
        offset += 20;
      }
      if (stepType & STEP_ISSUER) {
        step.issuer = this.address(value.subarray(offset, offset + 20));
        offset += 20;
      }
      if (currency !== undefined) step.currency = currency;
      path.push(step);
    }
  }
}
