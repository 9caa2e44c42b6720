/**
 * Walks the fields of a transaction or its metadata (canonical binary form, read with the chain
 * library's BinaryCursor) without building JSON. Indexing needs a few fields and state images need
 * fields exactly as serialized, so this reader hands out raw bytes: no address or amount is
 * rendered as text only to be parsed or encoded back.
 */
import { ARRAY_END_MARKER, BinaryCursor, fieldKinds, OBJECT_END_MARKER, readFieldValue, skipFieldValue, UnreadableBinary, type FieldKind, type FieldKinds } from './binary-reader';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';

/**
 * Called for each field. `path` names the enclosing objects and array members, outermost first; it
 * is the walk's own array, valid only during the call. A field's value is `bytes[start, end)`
 * (without its length prefix): read in place, or copied out with `subarray`.
 */
export interface FieldVisitor {
  field?(path: readonly string[], kind: FieldKind, bytes: Buffer, start: number, end: number): void;
  enter?(path: readonly string[], name: string): void;
  leave?(path: readonly string[], name: string): void;
}

// rippled type codes of the nested types, and the field codes of their end markers.
const ST_OBJECT = 14;
const ST_ARRAY = 15;
const OBJECT_END = (ST_OBJECT << 16) | 1;
const ARRAY_END = (ST_ARRAY << 16) | 1;

function walkFields(cursor: BinaryCursor, kinds: FieldKinds, path: string[], visitor: FieldVisitor, insideObject: boolean): void {
  while (!cursor.done) {
    const ordinal = cursor.fieldOrdinal();
    if (ordinal === OBJECT_END && insideObject) return;
    const kind = kinds.of(ordinal);
    const typeCode = ordinal >> 16;
    if (typeCode === ST_OBJECT) {
      visitor.enter?.(path, kind.name);
      path.push(kind.name);
      walkFields(cursor, kinds, path, visitor, true);
      path.pop();
      visitor.leave?.(path, kind.name);
    } else if (typeCode === ST_ARRAY) {
      visitor.enter?.(path, kind.name);
      path.push(kind.name);
      for (let member = cursor.fieldOrdinal(); member !== ARRAY_END; member = cursor.fieldOrdinal()) {
        const { name } = kinds.of(member);
        visitor.enter?.(path, name);
        path.push(name);
        walkFields(cursor, kinds, path, visitor, true);
        path.pop();
        visitor.leave?.(path, name);
      }
      path.pop();
      visitor.leave?.(path, kind.name);
    } else {
      const start = skipFieldValue(cursor, kind);
      visitor.field?.(path, kind, cursor.bytes, start, cursor.offset);
    }
  }
  if (insideObject) throw new UnreadableBinary(`missing ${OBJECT_END_MARKER}`);
}

/** Visits every field of a serialized object (a transaction or its metadata), depth first, in order. */
export function visitFields(blob: Buffer, definitions: XrplDefinitionsBase, visitor: FieldVisitor): void {
  walkFields(new BinaryCursor(blob), fieldKinds(definitions), [], visitor, false);
}

/** The issuer AccountID of an issued-currency Amount; undefined for native and MPT amounts. */
export function amountIssuer(value: Buffer): Buffer | undefined {
  return value.length === 48 && value[0]! & 0x80 ? value.subarray(28, 48) : undefined;
}

/** The issuer AccountID of an Issue; undefined for the native asset and MPT issues. */
export function issueIssuer(value: Buffer): Buffer | undefined {
  return value.length === 40 ? value.subarray(20, 40) : undefined;
}

/** One field of a serialized object, as bytes. */
export interface RawField {
  name: string;
  /** rippled field code, (type code << 16) | nth: the canonical order sorts by it. */
  ordinal: number;
  /** Header and value as serialized, an object's or array's end marker included. */
  encoded: Buffer;
  /** The value alone: without a length prefix; an object's fields or an array's members without the end marker. */
  value: Buffer;
  /** The fields of an STObject, or the members (each a one-field wrapper object) of an STArray. */
  children?: RawField[];
}

function readRawFields(cursor: BinaryCursor, definitions: XrplDefinitionsBase, endMarker: string | undefined): RawField[] {
  const fields: RawField[] = [];
  while (!cursor.done) {
    const start = cursor.offset;
    const kind = cursor.fieldHeader(definitions);
    if (kind.name === endMarker) return fields;
    const valueStart = cursor.offset;
    let value: Buffer;
    let children: RawField[] | undefined;
    if (kind.typeName === 'STObject') {
      children = readRawFields(cursor, definitions, OBJECT_END_MARKER);
      value = cursor.bytes.subarray(valueStart, cursor.offset - 1);
    } else if (kind.typeName === 'STArray') {
      children = [];
      for (;;) {
        const memberStart = cursor.offset;
        const member = cursor.fieldHeader(definitions);
        if (member.name === ARRAY_END_MARKER) break;
        const memberValueStart = cursor.offset;
        const memberFields = readRawFields(cursor, definitions, OBJECT_END_MARKER);
        children.push({
          name: member.name,
          ordinal: member.ordinal,
          encoded: cursor.bytes.subarray(memberStart, cursor.offset),
          value: cursor.bytes.subarray(memberValueStart, cursor.offset - 1),
          children: memberFields,
        });
      }
      value = cursor.bytes.subarray(valueStart, cursor.offset - 1);
    } else {
      value = readFieldValue(cursor, kind);
    }
    fields.push({ name: kind.name, ordinal: kind.ordinal, encoded: cursor.bytes.subarray(start, cursor.offset), value, ...(children ? { children } : {}) });
  }
  if (endMarker !== undefined) throw new UnreadableBinary(`missing ${endMarker}`);
  return fields;
}

/** The top-level fields of a serialized object, each with its bytes; nested objects and arrays as trees. */
export function readObjectFields(blob: Buffer, definitions: XrplDefinitionsBase): RawField[] {
  return readRawFields(new BinaryCursor(blob), definitions, undefined);
}

/** The canonical serialization of a set of fields: sorted by field code, each as encoded. */
export function serializeFields(fields: Iterable<RawField>): Buffer {
  return Buffer.concat([...fields].sort((a, b) => a.ordinal - b.ordinal).map((field) => field.encoded));
}

/** A fixed-width field (no length prefix) with the given value bytes. */
export function fixedField(definitions: XrplDefinitionsBase, name: string, value: Buffer): RawField {
  const field = definitions.field.fromString(name);
  if (!field || field.isVariableLengthEncoded) throw new Error(`${name} is not a fixed-width field`);
  const encoded = Buffer.concat([field.header, value]);
  return { name, ordinal: field.ordinal, encoded, value: encoded.subarray(encoded.length - value.length) };
}
