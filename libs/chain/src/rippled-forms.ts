/**
 * Serialized forms that real ledgers hold and ripple-binary-codec does not write:
 *
 * - An AccountID of length zero (`8100`): rippled's default-constructed account, which it prints as
 *   `""`. Mainnet's UNLModify pseudo-transactions carry their `Account` so. (EnableAmendment and
 *   SetFee carry the zero account as 20 zero bytes, printed `rrrrrrrrrrrrrrrrrrrrrhoLvTp`: an
 *   ordinary address, encoded as such.) The codec writes `""` as 20 zero bytes, except in UNLModify.
 * - Early XRP Ledger history holds negative native amounts in metadata: the absolute value with
 *   the "positive" bit (0x40 of the first byte) cleared. The codec refuses to encode them.
 * - Native amounts above 10^17 drops: SWTC's supply is 6·10^17 drops, so Jingtum's genesis account
 *   holds more than the codec's XRP-sized limit. A native amount is 62 bits of drops on either chain.
 *
 * Encoding such JSON: the codec encodes it with those values made acceptable (an empty account,
 * zero drops), then the bytes of exactly those fields are rewritten into rippled's form. Decoding: the single-pass
 * decoder reads both forms; after the codec, `showEmptyAccounts` restores `""`.
 */
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { ARRAY_END_MARKER, BinaryCursor, type FieldKind, OBJECT_END_MARKER, readFieldValue } from './binary-reader';

type Rewrite = { kind: 'empty-account' } | { kind: 'native'; bytes: Buffer };

/** Field paths (`AffectedNodes/3/ModifiedNode/PreviousFields/Balance`) to rewrite after encoding. */
type Rewrites = Map<string, Rewrite>;

const DROPS = /^-?\d{1,19}$/;
/** The codec's limit on native amounts. */
const CODEC_MAX_DROPS = 10n ** 17n;
/** A native amount's magnitude: 62 bits (the top two are "not issued" and "positive"). */
const MAX_DROPS = (1n << 62n) - 1n;
const POSITIVE_BIT = 1n << 62n;

/** The 8 bytes of a native amount the codec refuses (negative, or above its limit); undefined for one it writes itself. */
function nativeBytes(text: string): Buffer | undefined {
  if (!DROPS.test(text)) return undefined;
  const drops = BigInt(text);
  const magnitude = drops < 0n ? -drops : drops;
  if (drops >= 0n && drops <= CODEC_MAX_DROPS) return undefined;
  if (magnitude > MAX_DROPS) return undefined; // left to the codec, which refuses it
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(drops < 0n ? magnitude : magnitude | POSITIVE_BIT);
  return bytes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON to hand to the codec and the rewrites its output needs; `rewrites` is empty (and `json`
 * the input itself) for JSON with neither form, which is nearly all of it.
 */
export function planRippledForms(json: Record<string, unknown>, definitions: XrplDefinitionsBase): { json: Record<string, unknown>; rewrites: Rewrites } {
  const rewrites: Rewrites = new Map();
  const adjusted = adjustObject(json, '', definitions, rewrites);
  return { json: rewrites.size === 0 ? json : adjusted, rewrites };
}

function adjustObject(object: Record<string, unknown>, path: string, definitions: XrplDefinitionsBase, rewrites: Rewrites): Record<string, unknown> {
  const adjusted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    const fieldPath = path === '' ? name : `${path}/${name}`;
    const typeName = definitions.field.fromString(name)?.type.name;
    const native = typeName === 'Amount' && typeof value === 'string' ? nativeBytes(value) : undefined;
    if (typeName === 'AccountID' && value === '') {
      rewrites.set(fieldPath, { kind: 'empty-account' });
      adjusted[name] = value;
    } else if (native !== undefined) {
      rewrites.set(fieldPath, { kind: 'native', bytes: native });
      adjusted[name] = '0';
    } else if (typeName === 'STObject' && isRecord(value)) {
      adjusted[name] = adjustObject(value, fieldPath, definitions, rewrites);
    } else if (typeName === 'STArray' && Array.isArray(value)) {
      adjusted[name] = value.map((member, position) => (isRecord(member) ? adjustObject(member, `${fieldPath}/${position}`, definitions, rewrites) : member));
    } else {
      adjusted[name] = value;
    }
  }
  return adjusted;
}

/** The codec's output with the planned fields rewritten into rippled's form. */
export function applyRippledForms(hex: string, definitions: XrplDefinitionsBase, rewrites: Rewrites): string {
  if (rewrites.size === 0) return hex;
  const out: Buffer[] = [];
  walkFields(Buffer.from(hex, 'hex'), definitions, {
    structure: (bytes) => out.push(bytes),
    leaf(path, header, value, raw) {
      const rewrite = rewrites.get(path);
      if (rewrite?.kind === 'empty-account') out.push(header, Buffer.of(0));
      else if (rewrite?.kind === 'native' && value.length === 8) out.push(header, rewrite.bytes);
      else out.push(raw);
    },
  });
  return Buffer.concat(out).toString('hex').toUpperCase();
}

/**
 * The codec's JSON for `hex` with every zero-length AccountID shown as rippled prints it (`""`);
 * the codec reads those as the zero account's address.
 */
export function showEmptyAccounts(json: Record<string, unknown>, hex: string, definitions: XrplDefinitionsBase): Record<string, unknown> {
  walkFields(Buffer.from(hex, 'hex'), definitions, {
    structure() {},
    leaf(path, _header, value, _raw, kind) {
      if (kind.typeName !== 'AccountID' || value.length !== 0) return;
      const names = path.split('/');
      let holder: unknown = json;
      for (const name of names.slice(0, -1)) holder = (holder as Record<string, unknown> | undefined)?.[name];
      if (isRecord(holder)) holder[names.at(-1)!] = '';
    },
  });
  return json;
}

interface FieldVisitor {
  /** Bytes that are not a leaf field: object and array headers, members' headers, end markers. */
  structure(bytes: Buffer): void;
  /** A leaf field at `path` (`AffectedNodes/3/ModifiedNode/PreviousFields/Balance`): its header, value and whole bytes. */
  leaf(path: string, header: Buffer, value: Buffer, raw: Buffer, kind: FieldKind): void;
}

function walkFields(bytes: Buffer, definitions: XrplDefinitionsBase, visitor: FieldVisitor): void {
  walkObject(new BinaryCursor(bytes), definitions, '', visitor, undefined);
}

function walkObject(cursor: BinaryCursor, definitions: XrplDefinitionsBase, path: string, visitor: FieldVisitor, endMarker: string | undefined): void {
  while (!cursor.done) {
    const start = cursor.offset;
    const kind = cursor.fieldHeader(definitions);
    const header = cursor.bytes.subarray(start, cursor.offset);
    if (kind.name === endMarker) {
      visitor.structure(header);
      return;
    }
    const fieldPath = path === '' ? kind.name : `${path}/${kind.name}`;
    if (kind.typeName === 'STObject') {
      visitor.structure(header);
      walkObject(cursor, definitions, fieldPath, visitor, OBJECT_END_MARKER);
    } else if (kind.typeName === 'STArray') {
      visitor.structure(header);
      for (let position = 0; ; position++) {
        const memberStart = cursor.offset;
        const member = cursor.fieldHeader(definitions);
        visitor.structure(cursor.bytes.subarray(memberStart, cursor.offset));
        if (member.name === ARRAY_END_MARKER) break;
        walkObject(cursor, definitions, `${fieldPath}/${position}/${member.name}`, visitor, OBJECT_END_MARKER);
      }
    } else {
      const value = readFieldValue(cursor, kind);
      visitor.leaf(fieldPath, header, value, cursor.bytes.subarray(start, cursor.offset), kind);
    }
  }
}
