/**
 * Walks the fields of a transaction or its metadata (canonical binary form, read with the chain
 * library's BinaryCursor) without building JSON. Indexing needs a few fields and state images need
 * fields exactly as serialized, so this reader hands out raw bytes: no address or amount is
 * rendered as text only to be parsed or encoded back.
 */
import { ARRAY_END_MARKER, BinaryCursor, OBJECT_END_MARKER, readFieldValue, UnreadableBinary } from './binary-reader';
import type { XrplDefinitionsBase } from 'ripple-binary-codec';

/** Called for each field; `path` names the enclosing objects and array members, outermost first. */
export interface FieldVisitor {
  field?(path: readonly string[], name: string, typeName: string, value: Buffer): void;
  enter?(path: readonly string[], name: string): void;
  leave?(path: readonly string[], name: string): void;
}

function walkFields(cursor: BinaryCursor, definitions: XrplDefinitionsBase, path: string[], visitor: FieldVisitor, endMarker: string | undefined): void {
  while (!cursor.done) {
    const kind = cursor.fieldHeader(definitions);
    if (kind.name === endMarker) return;
    if (kind.typeName === 'STObject') {
      visitor.enter?.(path, kind.name);
      walkFields(cursor, definitions, [...path, kind.name], visitor, OBJECT_END_MARKER);
      visitor.leave?.(path, kind.name);
    } else if (kind.typeName === 'STArray') {
      const arrayPath = [...path, kind.name];
      visitor.enter?.(path, kind.name);
      for (;;) {
        const member = cursor.fieldHeader(definitions);
        if (member.name === ARRAY_END_MARKER) break;
        visitor.enter?.(arrayPath, member.name);
        walkFields(cursor, definitions, [...arrayPath, member.name], visitor, OBJECT_END_MARKER);
        visitor.leave?.(arrayPath, member.name);
      }
      visitor.leave?.(path, kind.name);
    } else {
      visitor.field?.(path, kind.name, kind.typeName, readFieldValue(cursor, kind));
    }
  }
  if (endMarker !== undefined) throw new UnreadableBinary(`missing ${endMarker}`);
}

/** Visits every field of a serialized object (a transaction or its metadata), depth first, in order. */
export function visitFields(blob: Buffer, definitions: XrplDefinitionsBase, visitor: FieldVisitor): void {
  walkFields(new BinaryCursor(blob), definitions, [], visitor, undefined);
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
