import { readFileSync } from 'node:fs';
import { InvalidParams } from '@ledger-node/errors';
import { XrplDefinitions } from 'ripple-binary-codec';
import jingtumTable from './jingtum.json';
import xrplTable from './xrpl.json';

export type DefinitionsTable = ConstructorParameters<typeof XrplDefinitions>[0];
type FieldEntry = [string, { nth: number; type: string; isVLEncoded: boolean; isSerialized: boolean; isSigningField: boolean }];

/**
 * The chains' binary formats are data: each profile reads its table of types, fields, transaction
 * and ledger-entry types and result codes from a definitions file (rippled's definitions.json
 * shape), and `-definitions FILE` replaces it, so a new amendment's fields need no new code.
 *
 * XRPL: the table of ripple-binary-codec 2.11.0 (dist/enums/definitions.json).
 * Jingtum (skywelld): the stock XRPL table with Jingtum's field, transaction, ledger-entry and
 * result codes (sources: swtclib serializer.ts, jingtum-core TER.h/LedgerFormats.h).
 */
export const xrplDefinitionsTable = xrplTable as unknown as DefinitionsTable;
export const jingtumDefinitionsTable = jingtumTable as unknown as DefinitionsTable;

const REQUIRED_SECTIONS = ['TYPES', 'FIELDS', 'TRANSACTION_TYPES', 'LEDGER_ENTRY_TYPES', 'TRANSACTION_RESULTS'] as const;

function isCodeTable(value: unknown): value is Record<string, number> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((code) => Number.isInteger(code));
}

function isFieldEntry(value: unknown): value is FieldEntry {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string') return false;
  const info = value[1] as Record<string, unknown> | null;
  return (
    typeof info === 'object' &&
    info !== null &&
    Number.isInteger(info.nth) &&
    typeof info.type === 'string' &&
    ['isVLEncoded', 'isSerialized', 'isSigningField'].every((key) => typeof info[key] === 'boolean')
  );
}

/** A definitions table read from a file; InvalidParams saying what is wrong with it. */
export function readDefinitionsTable(file: string): DefinitionsTable {
  const fail = (reason: string) => new InvalidParams(`-definitions ${file}: ${reason}`, 'definitions');
  let table: Record<string, unknown>;
  try {
    table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw fail(error instanceof SyntaxError ? `not JSON (${error.message})` : (error as Error).message);
  }
  if (typeof table !== 'object' || table === null || Array.isArray(table)) throw fail('not a JSON object');
  for (const section of REQUIRED_SECTIONS) {
    if (section === 'FIELDS') {
      const fields = table.FIELDS;
      if (!Array.isArray(fields)) throw fail('FIELDS is not a list');
      const bad = fields.findIndex((entry) => !isFieldEntry(entry));
      if (bad >= 0) throw fail(`FIELDS[${bad}] is not [name, {nth, type, isVLEncoded, isSerialized, isSigningField}]`);
      const types = table.TYPES as Record<string, number> | undefined;
      const untyped = (fields as FieldEntry[]).find(([, info]) => types !== undefined && types[info.type] === undefined);
      if (untyped) throw fail(`field ${untyped[0]} has type ${untyped[1].type}, which TYPES does not list`);
    } else if (!isCodeTable(table[section])) {
      throw fail(`${section} is not an object of integer codes`);
    }
  }
  const asTable = table as unknown as DefinitionsTable;
  try {
    new XrplDefinitions(asTable);
  } catch (error) {
    throw fail((error as Error).message);
  }
  return asTable;
}

/** Names the current table gives to contract codes that only the pre-2019 numbering uses. */
export const LEGACY_CONTRACT_MARKER_FIELDS = ['LegacyPayload', 'LegacyParameter'] as const;

/**
 * Contract fields before swtclib 4c8251e ("implement multiple sign", 2019-10-28), per swtclib
 * swtc-serializer Constant.ts of that time; those codes later went to SignerQuorum, Parameter,
 * TokenInfo and TokenInfos.
 */
const LEGACY_CONTRACT_FIELDS: FieldEntry[] = [
  ['Method', { nth: 38, type: 'UInt32', isVLEncoded: false, isSerialized: true, isSigningField: true }],
  ['Payload', { nth: 16, type: 'Blob', isVLEncoded: true, isSerialized: true, isSigningField: true }],
  ['ContractMethod', { nth: 18, type: 'Blob', isVLEncoded: true, isSerialized: true, isSigningField: true }],
  ['Parameter', { nth: 19, type: 'Blob', isVLEncoded: true, isSerialized: true, isSigningField: true }],
  ['Arg', { nth: 15, type: 'STObject', isVLEncoded: false, isSerialized: true, isSigningField: true }],
  ['Args', { nth: 14, type: 'STArray', isVLEncoded: false, isSerialized: true, isSigningField: true }],
];

/** A Jingtum table with the legacy contract numbering applied on top. */
export function jingtumLegacyContractTable(table: DefinitionsTable = jingtumDefinitionsTable): DefinitionsTable {
  const legacyNames = new Set(LEGACY_CONTRACT_FIELDS.map(([name]) => name));
  const legacyCodes = new Set(LEGACY_CONTRACT_FIELDS.map(([, info]) => `${info.type}/${info.nth}`));
  const kept = (table.FIELDS as unknown as FieldEntry[]).filter(
    ([name, info]) =>
      !legacyNames.has(name) &&
      !(LEGACY_CONTRACT_MARKER_FIELDS as readonly string[]).includes(name) &&
      !legacyCodes.has(`${info.type}/${info.nth}`),
  );
  return { ...table, FIELDS: [...kept, ...LEGACY_CONTRACT_FIELDS] as unknown as DefinitionsTable['FIELDS'] };
}

/**
 * ripple-binary-codec's definitions for a table. Its constructor associates field classes before it
 * builds the permission names, leaving `PermissionValue` (DelegateSet) without a class; associating
 * again gives it one, as the codec's own default definitions have.
 */
export function definitionsOf(table: DefinitionsTable): XrplDefinitions {
  const definitions = new XrplDefinitions(table);
  definitions.associateTypes({});
  return definitions;
}

export const jingtumLegacyContractDefinitions = definitionsOf(jingtumLegacyContractTable());
