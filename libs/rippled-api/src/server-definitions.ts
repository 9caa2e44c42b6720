/**
 * rippled `server_definitions` (rippled 2.0, ServerInfo.cpp ServerDefinitions): the binary codec's
 * definitions — TYPES, LEDGER_ENTRY_TYPES, FIELDS, TRANSACTION_RESULTS, TRANSACTION_TYPES and any
 * further sections the chain's table carries — with `hash`, the SHA-512Half of the table written as
 * compact JSON with object keys in byte order (how rippled's Json::Value writes itself, a std::map).
 * A request whose `hash` matches is answered with the hash alone, so a client holding the table
 * need not fetch it again.
 */
import { createHash } from 'node:crypto';
import type { ChainProfile } from '@ledger-node/chain';
import { invalidField } from './errors';
import type { JsonObject } from './protocol';

const HASH256 = /^[0-9A-Fa-f]{64}$/;

function byteOrder(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
}

/** Compact JSON with object keys in byte order (rippled's Json writer). */
export function compactSortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactSortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
    entries.sort(([left], [right]) => byteOrder(left, right));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${compactSortedJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface Definitions {
  hash: string;
  answer: JsonObject;
}

const computed = new WeakMap<object, Definitions>();

/** The answer for a table, computed once: its sections in byte order of their names, and `hash`. */
export function definitionsOfTable(table: object): Definitions {
  let definitions = computed.get(table);
  if (definitions === undefined) {
    // A table read from rippled's own answer carries the hash of that answer: it is computed, not trusted.
    const sections = Object.entries(table as Record<string, unknown>).filter(([name]) => name !== 'hash');
    sections.sort(([left], [right]) => byteOrder(left, right));
    const body = Object.fromEntries(sections);
    const hash = createHash('sha512').update(compactSortedJson(body), 'utf8').digest().subarray(0, 32).toString('hex').toUpperCase();
    definitions = { hash, answer: { ...body, hash } };
    computed.set(table, definitions);
  }
  return definitions;
}

export function serverDefinitions(params: JsonObject, profile: Pick<ChainProfile, 'definitionsTable'>): JsonObject {
  const asked = params.hash;
  if (asked !== undefined && (typeof asked !== 'string' || !HASH256.test(asked))) throw invalidField('hash');
  const definitions = definitionsOfTable(profile.definitionsTable);
  if (typeof asked === 'string' && asked.toUpperCase() === definitions.hash) return { hash: definitions.hash };
  return definitions.answer;
}
