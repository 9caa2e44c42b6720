import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { accountTxRange, readAccount, readAccountTxMarker, readBoolean, readLedgerSpec, readLimit } from './params';

const codec = getProfile('xrpl').codec;
const genesis = getProfile('xrpl').genesis.address;

describe('readLedgerSpec', () => {
  it('takes ledger_hash first, uppercase', () => {
    expect(readLedgerSpec({ ledger_hash: 'ab'.repeat(32), ledger_index: 5 })).toEqual({ kind: 'hash', ledgerHash: 'AB'.repeat(32) });
  });

  it('takes ledger_index as a number, a decimal string or a name', () => {
    expect(readLedgerSpec({ ledger_index: 5 })).toEqual({ kind: 'index', ledgerIndex: 5 });
    expect(readLedgerSpec({ ledger_index: '5' })).toEqual({ kind: 'index', ledgerIndex: 5 });
    expect(readLedgerSpec({ ledger_index: 'validated' })).toEqual({ kind: 'validated' });
    expect(readLedgerSpec({ ledger_index: 'closed' })).toEqual({ kind: 'closed' });
    expect(readLedgerSpec({ ledger_index: 'current' })).toEqual({ kind: 'current' });
  });

  it('falls back to the method default', () => {
    expect(readLedgerSpec({})).toEqual({ kind: 'current' });
    expect(readLedgerSpec({}, 'validated')).toEqual({ kind: 'validated' });
  });

  it.each([
    [{ ledger_hash: 5 }, 'ledgerHashNotString'],
    [{ ledger_hash: 'XYZ' }, 'ledgerHashMalformed'],
    [{ ledger_index: -1 }, 'ledgerIndexMalformed'],
    [{ ledger_index: 1.5 }, 'ledgerIndexMalformed'],
    [{ ledger_index: 'latest' }, 'ledgerIndexMalformed'],
    [{ ledger_index: true }, 'ledgerIndexMalformed'],
    // Ledger indexes are unsigned 32-bit: 2^32 and 2^53 - 1 name no ledger.
    [{ ledger_index: 4_294_967_296 }, 'ledgerIndexMalformed'],
    [{ ledger_index: '4294967296' }, 'ledgerIndexMalformed'],
    [{ ledger_index: Number.MAX_SAFE_INTEGER }, 'ledgerIndexMalformed'],
  ])('refuses %j with invalidParams %s', (request, message) => {
    expect(() => readLedgerSpec(request)).toThrow(expect.objectContaining({ token: 'invalidParams', message }));
  });
});

describe('request fields', () => {
  it('reads an account, refusing a malformed one with actMalformed', () => {
    expect(readAccount({ account: genesis }, codec)).toBe(genesis);
    expect(() => readAccount({}, codec)).toThrow(expect.objectContaining({ token: 'invalidParams', message: "Missing field 'account'." }));
    expect(() => readAccount({ account: 'rNot' }, codec)).toThrow(expect.objectContaining({ token: 'actMalformed' }));
    expect(() => readAccount({ peer: 5 }, codec, 'peer')).toThrow(expect.objectContaining({ token: 'actMalformed' }));
  });

  it('reads booleans and clamps limits', () => {
    expect(readBoolean({}, 'binary')).toBe(false);
    expect(readBoolean({ binary: true }, 'binary')).toBe(true);
    expect(() => readBoolean({ binary: 'yes' }, 'binary')).toThrow(/Invalid field 'binary', not boolean/);
    const range = { fallback: 200, min: 10, max: 400 };
    expect(readLimit({}, range)).toBe(200);
    expect(readLimit({ limit: 1 }, range)).toBe(10);
    expect(readLimit({ limit: 1000 }, range)).toBe(400);
    expect(() => readLimit({ limit: -1 }, range)).toThrow(/Invalid field 'limit'/);
  });

  it("reads account_tx's marker {ledger, seq}", () => {
    expect(readAccountTxMarker({ marker: { ledger: 10, seq: 2 } })).toEqual({ ledger: 10, seq: 2 });
    expect(readAccountTxMarker({})).toBeUndefined();
    expect(() => readAccountTxMarker({ marker: 'abc' })).toThrow(/Invalid field 'marker'/);
    expect(() => readAccountTxMarker({ marker: { ledger: 10 } })).toThrow(/Invalid field 'marker'/);
  });
});

describe('accountTxRange', () => {
  const held = { first: 100, last: 200 };

  it('is the held range when no bound is given (-1 too)', () => {
    expect(accountTxRange({}, held, 1)).toEqual({ minLedgerIndex: 100, maxLedgerIndex: 200 });
    expect(accountTxRange({ ledger_index_min: -1, ledger_index_max: -1 }, held, 2)).toEqual({ minLedgerIndex: 100, maxLedgerIndex: 200 });
  });

  it('clamps bounds outside the held range in API v1 and refuses them in v2', () => {
    expect(accountTxRange({ ledger_index_min: 50, ledger_index_max: 500 }, held, 1)).toEqual({ minLedgerIndex: 100, maxLedgerIndex: 200 });
    expect(() => accountTxRange({ ledger_index_min: 50 }, held, 2)).toThrow(expect.objectContaining({ token: 'lgrIdxMalformed' }));
    expect(() => accountTxRange({ ledger_index_max: 500 }, held, 2)).toThrow(expect.objectContaining({ token: 'lgrIdxMalformed' }));
  });

  it('refuses an empty range: lgrIdxsInvalid in v1, invalidLgrRange in v2', () => {
    expect(() => accountTxRange({ ledger_index_min: 150, ledger_index_max: 120 }, held, 1)).toThrow(expect.objectContaining({ token: 'lgrIdxsInvalid' }));
    expect(() => accountTxRange({ ledger_index_min: 150, ledger_index_max: 120 }, held, 2)).toThrow(expect.objectContaining({ token: 'invalidLgrRange' }));
  });
});
