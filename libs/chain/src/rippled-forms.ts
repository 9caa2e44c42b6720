/**
 * Two serialized forms that real ledgers hold and ripple-binary-codec does not write:
 *
 * - A pseudo-transaction's `Account` (EnableAmendment, SetFee, UNLModify; Jingtum's EnableFeature
 *   and SetFee) is the zero account, serialized with length zero (`8100`); JSON prints it as the
 *   zero account's address.
 * - Early XRP Ledger history holds negative native amounts in metadata: the absolute value with
 *   the "positive" bit (0x40 of the first byte) cleared. The codec refuses to encode them.
 *
 * Encoding such JSON: the codec encodes it with those values made acceptable (the absolute value),
 * then the bytes of exactly those fields are rewritten into rippled's form. Decoding needs nothing:
 * the codec and the single-pass decoder read both forms.
 */
import type { XrplDefinitionsBase } from 'ripple-binary-codec';
import { ARRAY_END_MARKER, BinaryCursor, OBJECT_END_MARKER, readFieldValue } from './binary-reader';

type Rewrite = 'empty-account' | 'negative-native';

/** Field paths (`AffectedNodes/3/ModifiedNode/PreviousFields/Balance`) to rewrite after encoding. */
type Rewrites = Map<string, Rewrite>;

const NEGATIVE_DROPS = /^-\d+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface RippledFormsOptions {
  definitions: XrplDefinitionsBase;
  /** Transaction types whose `Account` is the zero account serialized with length zero. */
  pseudoTransactionTypes: ReadonlySet<string>;
  /** True for the zero account, in whatever form the JSON holds it (address or 40 hex). */
  isZeroAccount(value: string): boolean;
}

/**
 * The JSON to hand to the codec and the rewrites its output needs; `rewrites` is empty (and `json`
 * the input itself) for JSON with neither form, which is nearly all of it.
 */
export function planRippledForms(json: Record<string, unknown>, options: RippledFormsOptions): { json: Record<string, unknown>; rewrites: Rewrites } {
  const rewrites: Rewrites = new Map();
  const adjusted = adjustObject(json, '', options, rewrites);
  if (
    typeof json.TransactionType === 'string' &&
    options.pseudoTransactionTypes.has(json.TransactionType) &&
    typeof json.Account === 'string' &&
    options.isZeroAccount(json.Account)
  ) {
    rewrites.set('Account', 'empty-account');
  }
  return { json: rewrites.size === 0 ? json : adjusted, rewrites };
}

function adjustObject(object: Record<string, unknown>, path: string, options: RippledFormsOptions, rewrites: Rewrites): Record<string, unknown> {
  const adjusted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    const fieldPath = path === '' ? name : `${path}/${name}`;
    const typeName = options.definitions.field.fromString(name)?.type.name;
    if (typeName === 'Amount' && typeof value === 'string' && NEGATIVE_DROPS.test(value)) {
      rewrites.set(fieldPath, 'negative-native');
      adjusted[name] = value.slice(1);
    } else if (typeName === 'STObject' && isRecord(value)) {
      adjusted[name] = adjustObject(value, fieldPath, options, rewrites);
    } else if (typeName === 'STArray' && Array.isArray(value)) {
      adjusted[name] = value.map((member, position) => (isRecord(member) ? adjustObject(member, `${fieldPath}/${position}`, options, rewrites) : member));
    } else {
      adjusted[name] = value;
    }
  }
  return adjusted;
}

/** The codec's output with the planned fields rewritten into rippled's form. */
export function applyRippledForms(hex: string, definitions: XrplDefinitionsBase, rewrites: Rewrites): string {
  if (rewrites.size === 0) return hex;
  const cursor = new BinaryCursor(Buffer.from(hex, 'hex'));
  const out: Buffer[] = [];
  rewriteFields(cursor, definitions, '', rewrites, out, undefined);
  return Buffer.concat(out).toString('hex').toUpperCase();
}

function rewriteFields(cursor: BinaryCursor, definitions: XrplDefinitionsBase, path: string, rewrites: Rewrites, out: Buffer[], endMarker: string | undefined): void {
  while (!cursor.done) {
    const start = cursor.offset;
    const kind = cursor.fieldHeader(definitions);
    const header = cursor.bytes.subarray(start, cursor.offset);
    if (kind.name === endMarker) {
      out.push(header);
      return;
    }
    const fieldPath = path === '' ? kind.name : `${path}/${kind.name}`;
    if (kind.typeName === 'STObject') {
      out.push(header);
      rewriteFields(cursor, definitions, fieldPath, rewrites, out, OBJECT_END_MARKER);
    } else if (kind.typeName === 'STArray') {
      out.push(header);
      for (let position = 0; ; position++) {
        const memberStart = cursor.offset;
        const member = cursor.fieldHeader(definitions);
        out.push(cursor.bytes.subarray(memberStart, cursor.offset));
        if (member.name === ARRAY_END_MARKER) break;
        rewriteFields(cursor, definitions, `${fieldPath}/${position}/${member.name}`, rewrites, out, OBJECT_END_MARKER);
      }
    } else {
      const value = readFieldValue(cursor, kind);
      const rewrite = rewrites.get(fieldPath);
      if (rewrite === 'empty-account') {
        out.push(header, Buffer.of(0));
      } else if (rewrite === 'negative-native' && value.length === 8) {
        const negative = Buffer.from(value);
        negative[0]! &= ~0x40;
        out.push(header, negative);
      } else {
        out.push(cursor.bytes.subarray(start, cursor.offset));
      }
    }
  }
}
