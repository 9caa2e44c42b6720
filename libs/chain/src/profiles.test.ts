import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@ledger-node/test-utils';
import { jingtumDefinitionsTable, readDefinitionsTable, xrplDefinitionsTable } from './definitions';
import { chainIds, getProfile } from './profiles';

describe('getProfile', () => {
  it('knows xrpl and jingtum', () => {
    expect(chainIds).toEqual(['xrpl', 'jingtum']);
    expect(getProfile('jingtum').nativeCurrency).toBe('SWT');
    expect(getProfile('xrpl').trustLineEntryType).toBe('RippleState');
  });

  it('names the allowed ids when the id is unknown', () => {
    expect(() => getProfile('ethereum')).toThrow(expect.objectContaining({ kind: 'invalid_params', message: expect.stringContaining('xrpl, jingtum') }));
    expect(() => getProfile('toString')).toThrow(/unknown chain/);
  });
});

describe('a profile whose binary format comes from a definitions file (-definitions)', () => {
  const { dir, remove } = tempDir();
  afterAll(remove);
  const write = (name: string, table: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(table));
    return file;
  };
  // An amendment newer than this release: a UInt32 field the shipped table does not name.
  const newer = { ...xrplDefinitionsTable, FIELDS: [...xrplDefinitionsTable.FIELDS, ['NewAmendmentField', { nth: 200, isVLEncoded: false, isSerialized: true, isSigningField: true, type: 'UInt32' }]] };

  it('reads a field the shipped table lacks by its name, where the shipped profile reads it by its type code', () => {
    const xrpl = getProfile('xrpl');
    const blob = xrpl.codec.encode({ TransactionType: 'AccountSet', Account: xrpl.genesis.address, Fee: '10', Sequence: 1 }) + '20C800000007';
    expect(xrpl.codec.decode(blob)).toMatchObject({ Unknown_UInt32_200: 7 });
    const updated = getProfile('xrpl', { definitionsFile: write('newer.json', newer) });
    expect(updated.codec.decode(blob)).toMatchObject({ NewAmendmentField: 7 });
    // Encoded in canonical order (the new field among the UInt32s), and read back by name.
    const encoded = updated.codec.encode({ TransactionType: 'AccountSet', Account: xrpl.genesis.address, Fee: '10', Sequence: 1, NewAmendmentField: 7 });
    expect(updated.codec.decode(encoded)).toMatchObject({ NewAmendmentField: 7, Sequence: 1 });
    expect(() => xrpl.codec.encode({ TransactionType: 'AccountSet', Account: xrpl.genesis.address, Fee: '10', Sequence: 1, NewAmendmentField: 7 })).toThrow();
    expect(updated.nativeCurrency).toBe('XRP');
    expect(getProfile('xrpl', { definitionsFile: path.join(dir, 'newer.json') })).toBe(updated);
  });

  it('keeps the chain: a Jingtum profile from a file still speaks j addresses and legacy contract numbering', () => {
    const jingtum = getProfile('jingtum', { definitionsFile: write('jingtum.json', jingtumDefinitionsTable) });
    expect(jingtum.codec.encodeAccountId(new Uint8Array(20))).toBe('jjjjjjjjjjjjjjjjjjjjjhoLvTp');
    expect(jingtum.legacyContractCodec).toBeDefined();
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['no FIELDS list', { ...xrplDefinitionsTable, FIELDS: {} }, /FIELDS is not a list/],
    ['a malformed field', { ...xrplDefinitionsTable, FIELDS: [['Bad', { nth: 'x' }]] }, /FIELDS\[0\]/],
    ['a field of a type TYPES does not list', { ...xrplDefinitionsTable, FIELDS: [['Odd', { nth: 1, isVLEncoded: false, isSerialized: true, isSigningField: true, type: 'UInt999' }]] }, /UInt999/],
    ['codes that are not integers', { ...xrplDefinitionsTable, TRANSACTION_TYPES: { Payment: 'zero' } }, /TRANSACTION_TYPES/],
  ])('refuses a file with %s, saying what is wrong', (_what, content, reason) => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    expect(() => readDefinitionsTable(file)).toThrow(reason);
    expect(() => readDefinitionsTable(file)).toThrow(expect.objectContaining({ kind: 'invalid_params', message: expect.stringContaining(`-definitions ${file}: `) }));
  });
});
