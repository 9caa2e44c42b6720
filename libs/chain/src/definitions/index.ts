import { XrplDefinitions } from 'ripple-binary-codec';
import jingtumTable from './jingtum.json';

type DefinitionsTable = ConstructorParameters<typeof XrplDefinitions>[0];
type FieldEntry = [string, { nth: number; type: string; isVLEncoded: boolean; isSerialized: boolean; isSigningField: boolean }];

/**
 * Jingtum (skywelld) binary-codec table: the stock XRPL table with Jingtum's field, transaction,
 * ledger-entry and result codes (sources: swtclib serializer.ts, jingtum-core TER.h/LedgerFormats.h).
 */
export const jingtumDefinitionsTable = jingtumTable as unknown as DefinitionsTable;

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

/** The Jingtum table with the legacy contract numbering applied on top. */
export function jingtumLegacyContractTable(): DefinitionsTable {
  const legacyNames = new Set(LEGACY_CONTRACT_FIELDS.map(([name]) => name));
  const legacyCodes = new Set(LEGACY_CONTRACT_FIELDS.map(([, info]) => `${info.type}/${info.nth}`));
  const kept = (jingtumDefinitionsTable.FIELDS as unknown as FieldEntry[]).filter(
    ([name, info]) =>
      !legacyNames.has(name) &&
      !(LEGACY_CONTRACT_MARKER_FIELDS as readonly string[]).includes(name) &&
      !legacyCodes.has(`${info.type}/${info.nth}`),
  );
  return { ...jingtumDefinitionsTable, FIELDS: [...kept, ...LEGACY_CONTRACT_FIELDS] as unknown as DefinitionsTable['FIELDS'] };
}

export const jingtumDefinitions = new XrplDefinitions(jingtumDefinitionsTable);
export const jingtumLegacyContractDefinitions = new XrplDefinitions(jingtumLegacyContractTable());
