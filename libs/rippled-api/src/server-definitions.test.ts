import { describe, expect, it } from 'vitest';
import { getProfile, xrplDefinitionsTable } from '@ledger-node/chain';
import { RpcError } from './errors';
import { compactSortedJson, serverDefinitions } from './server-definitions';

const xrpl = getProfile('xrpl');
const jingtum = getProfile('jingtum');

function errorOf(params: Record<string, unknown>): string | undefined {
  try {
    serverDefinitions(params, xrpl);
    return undefined;
  } catch (error) {
    if (error instanceof RpcError) return `${error.token}: ${error.message}`;
    throw error;
  }
}

describe('server_definitions', () => {
  it("hashes the table as rippled does: the hash rippled's own answer carried is reproduced", () => {
    // The XRPL table is ripple-binary-codec's definitions.json, itself a rippled server_definitions answer with its hash.
    const recordedHash = (xrplDefinitionsTable as unknown as { hash: string }).hash;
    expect(recordedHash).toMatch(/^[0-9A-F]{64}$/);
    expect(serverDefinitions({}, xrpl).hash).toBe(recordedHash);
  });

  it('writes compact JSON with keys in byte order', () => {
    expect(compactSortedJson({ b: [1, { z: true, Z: 'x' }], a: -1 })).toBe('{"a":-1,"b":[1,{"Z":"x","z":true}]}');
  });

  it("answers the profile's sections: types, entry types, fields, results, transaction types", () => {
    const answer = serverDefinitions({}, jingtum);
    expect(Object.keys(answer)).toEqual(['FIELDS', 'LEDGER_ENTRY_TYPES', 'TRANSACTION_RESULTS', 'TRANSACTION_TYPES', 'TYPES', 'hash']);
    expect(answer.TRANSACTION_RESULTS).toBe(jingtum.definitionsTable.TRANSACTION_RESULTS);
    expect((answer.TYPES as Record<string, number>).Done).toBe(-1);
    expect(answer.hash).not.toBe(serverDefinitions({}, xrpl).hash);
  });

  it('answers only the hash when the request names the current one, in either case', () => {
    const { hash } = serverDefinitions({}, xrpl) as { hash: string };
    expect(serverDefinitions({ hash }, xrpl)).toEqual({ hash });
    expect(serverDefinitions({ hash: hash.toLowerCase() }, xrpl)).toEqual({ hash });
    expect(Object.keys(serverDefinitions({ hash: '0'.repeat(64) }, xrpl))).toContain('FIELDS');
  });

  it("refuses a hash that is not a uint256 with rippled's invalid field error", () => {
    expect(errorOf({ hash: 'AB' })).toBe("invalidParams: Invalid field 'hash'.");
    expect(errorOf({ hash: 5 })).toBe("invalidParams: Invalid field 'hash'.");
    expect(errorOf({ hash: null })).toBe("invalidParams: Invalid field 'hash'.");
  });
});
