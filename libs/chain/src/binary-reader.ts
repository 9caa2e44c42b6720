/**
 * A reader for the canonical binary form (rippled STObject serialization): field headers and the
 * extent of each value, handed out as the raw bytes. Sync indexes and rebuilds state images from
 * these bytes without building JSON; the codec renders JSON from them in one pass.
 */
import type { XrplDefinitionsBase } from 'ripple-binary-codec';

export interface FieldKind {
  name: string;
  /** rippled field code, (type code << 16) | nth: the canonical order sorts by it. */
  ordinal: number;
  typeName: string;
  variableLength: boolean;
}

/** A field or type this reader does not know, or bytes it cannot read; the caller falls back to the full codec. */
export class UnreadableBinary extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableBinary';
  }
}

export const OBJECT_END_MARKER = 'ObjectEndMarker';
export const ARRAY_END_MARKER = 'ArrayEndMarker';

// rippled SField sizes of the fixed-width types (STBitString / STInteger widths).
const FIXED_WIDTHS: Record<string, number> = {
  UInt8: 1,
  UInt16: 2,
  UInt32: 4,
  UInt64: 8,
  UInt96: 12,
  UInt384: 48,
  UInt512: 64,
  Int32: 4,
  Int64: 8,
  Number: 12,
  Hash128: 16,
  Hash160: 20,
  Hash192: 24,
  Hash256: 32,
  Hash384: 48,
  Hash512: 64,
  Currency: 20,
};

/** The fields of one definitions table by field code, each looked up once. */
export interface FieldKinds {
  /** The field a field code names; UnreadableBinary for a code the table lacks. */
  of(ordinal: number): FieldKind;
}

const kindTables = new WeakMap<XrplDefinitionsBase, FieldKinds>();

/** The field kinds of a definitions table (one per table, kept while the table is). */
export function fieldKinds(definitions: XrplDefinitionsBase): FieldKinds {
  let kinds = kindTables.get(definitions);
  if (!kinds) {
    // By type code, then field code: two dense arrays, indexed faster than a map of the whole code.
    const table: (FieldKind | undefined)[][] = [];
    kinds = {
      of(ordinal) {
        const byType = (table[ordinal >> 16] ??= []);
        let kind = byType[ordinal & 0xffff];
        if (!kind) {
          const field = definitions.field.fromString(String(ordinal));
          kind = field
            ? { name: field.name, ordinal, typeName: field.type.name, variableLength: field.isVariableLengthEncoded }
            : unknownFieldKind(definitions, ordinal);
          byType[ordinal & 0xffff] = kind;
        }
        return kind;
      },
    };
    kindTables.set(definitions, kinds);
  }
  return kinds;
}

/** The field a field code names in a definitions table; UnreadableBinary for a code the table lacks. */
export function fieldKind(definitions: XrplDefinitionsBase, ordinal: number): FieldKind {
  return fieldKinds(definitions).of(ordinal);
}

/** Types whose values carry a length prefix (rippled STBlob, STAccount, STVector256). */
const LENGTH_PREFIXED_TYPES = new Set(['Blob', 'AccountID', 'Vector256']);

/**
 * A field the table does not name (a newer amendment's) but whose type it knows: read by its type
 * and named `Unknown_<Type>_<nth>`, so a verified ledger holding it is still read. A type the table
 * does not know cannot be measured: UnreadableBinary.
 */
function unknownFieldKind(definitions: XrplDefinitionsBase, ordinal: number): FieldKind {
  const typeCode = ordinal >> 16;
  const nth = ordinal & 0xffff;
  const typeName = definitions.type.from(String(typeCode))?.name;
  if (typeName === undefined) throw new UnreadableBinary(`unknown field: type ${typeCode}, nth ${nth}`);
  return { name: `Unknown_${typeName}_${nth}`, ordinal, typeName, variableLength: LENGTH_PREFIXED_TYPES.has(typeName) };
}

export class BinaryCursor {
  offset = 0;
  constructor(readonly bytes: Buffer) {}

  byte(): number {
    if (this.offset >= this.bytes.length) throw new UnreadableBinary('unexpected end of data');
    return this.bytes[this.offset++]!;
  }

  take(length: number): Buffer {
    if (this.offset + length > this.bytes.length) throw new UnreadableBinary('unexpected end of data');
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  /** Moves past `length` bytes. */
  skip(length: number): void {
    if (this.offset + length > this.bytes.length) throw new UnreadableBinary('unexpected end of data');
    this.offset += length;
  }

  peek(): number {
    if (this.offset >= this.bytes.length) throw new UnreadableBinary('unexpected end of data');
    return this.bytes[this.offset]!;
  }

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  /** rippled Serializer::addVL length prefix: 1 to 3 bytes. */
  variableLength(): number {
    const first = this.byte();
    if (first <= 192) return first;
    if (first <= 240) return 193 + (first - 193) * 256 + this.byte();
    if (first <= 254) return 12481 + (first - 241) * 65536 + this.byte() * 256 + this.byte();
    throw new UnreadableBinary('invalid variable-length prefix');
  }

  /**
   * Field code, (type code << 16) | nth, from a 1 to 3 byte field id (rippled SField header).
   * rippled SerialIter::getFieldID: a code written in its own byte must not fit in the first byte's nibble.
   */
  fieldOrdinal(): number {
    const first = this.byte();
    let typeCode = first >> 4;
    let nth = first & 0x0f;
    if (typeCode === 0) {
      typeCode = this.byte();
      if (typeCode < 16) throw new UnreadableBinary(`non-canonical field id: type code ${typeCode} in its own byte`);
    }
    if (nth === 0) {
      nth = this.byte();
      if (nth < 16) throw new UnreadableBinary(`non-canonical field id: field code ${nth} in its own byte`);
    }
    return (typeCode << 16) | nth;
  }

  fieldHeader(definitions: XrplDefinitionsBase): FieldKind {
    return fieldKind(definitions, this.fieldOrdinal());
  }
}

const NO_ACCOUNT_ISSUER = Buffer.from('0000000000000000000000000000000000000001', 'hex');
const ISSUE_KIND: FieldKind = { name: 'Issue', ordinal: 0, typeName: 'Issue', variableLength: false };

/** The bytes of one value (without its length prefix) of any type but STObject and STArray. */
export function readFieldValue(cursor: BinaryCursor, kind: FieldKind): Buffer {
  const start = skipFieldValue(cursor, kind);
  return cursor.bytes.subarray(start, cursor.offset);
}

/** Moves past one value of any type but STObject and STArray; answers where the value (without its length prefix) starts. */
export function skipFieldValue(cursor: BinaryCursor, kind: FieldKind): number {
  if (kind.variableLength) {
    const length = cursor.variableLength();
    cursor.skip(length);
    return cursor.offset - length;
  }
  const start = cursor.offset;
  const fixed = FIXED_WIDTHS[kind.typeName];
  if (fixed !== undefined) {
    cursor.skip(fixed);
    return start;
  }
  switch (kind.typeName) {
    case 'Amount': {
      // Issued amount: 8-byte value, currency, issuer; MPT amount: flag byte, value, issuance id; native: 8 bytes.
      const lead = cursor.peek();
      cursor.skip(lead & 0x80 ? 48 : lead & 0x20 ? 33 : 8);
      break;
    }
    case 'Issue': {
      // Native: an all-zero currency alone; MPT: the issuer, the no-account marker, a sequence; else currency and issuer.
      const currency = cursor.take(20);
      if (currency.every((byte) => byte === 0)) break;
      if (cursor.take(20).equals(NO_ACCOUNT_ISSUER)) cursor.skip(4);
      break;
    }
    case 'PathSet':
      // Path steps: a type byte naming which of account, currency and issuer follow; 0xFF separates paths, 0x00 ends.
      for (let stepType = cursor.byte(); stepType !== 0x00; stepType = cursor.byte()) {
        if (stepType === 0xff) continue;
        if (stepType & 0x01) cursor.skip(20);
        if (stepType & 0x10) cursor.skip(20);
        if (stepType & 0x20) cursor.skip(20);
      }
      break;
    case 'XChainBridge':
      for (let part = 0; part < 2; part++) {
        cursor.skip(cursor.variableLength());
        skipFieldValue(cursor, ISSUE_KIND);
      }
      break;
    default:
      throw new UnreadableBinary(`field ${kind.name} has type ${kind.typeName}, which this reader does not know`);
  }
  return start;
}
