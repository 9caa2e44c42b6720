import { describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { RpcError } from './errors';
import { readStreamAccounts } from './streams';

const xrpl = getProfile('xrpl');
const valid = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';

describe('readStreamAccounts', () => {
  it('reads both lists and refuses a malformed address', () => {
    expect(readStreamAccounts({ accounts: [valid], accounts_proposed: [valid] }, xrpl)).toEqual([valid, valid]);
    expect(() => readStreamAccounts({ accounts: ['not an address'] }, xrpl)).toThrow(RpcError);
  });

  it('refuses lists over the limit before decoding any address', () => {
    const refusal = () => new RpcError('invalidParams', 'at most 2');
    // Malformed addresses past the limit: the limit answers, not the decoder.
    expect(() => readStreamAccounts({ accounts: [valid, 'x', 'y'] }, xrpl, { most: 2, refusal })).toThrow('at most 2');
    expect(() => readStreamAccounts({ accounts: [valid], accounts_proposed: [valid, valid] }, xrpl, { most: 2, refusal })).toThrow('at most 2');
    expect(readStreamAccounts({ accounts: [valid, valid] }, xrpl, { most: 2, refusal })).toHaveLength(2);
  });
});
