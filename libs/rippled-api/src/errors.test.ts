import { describe, expect, it } from 'vitest';
import { InvalidParams, NotFound } from '@ledger-node/errors';
import { BareRpcError, errorFields, invalidField, missingField, RpcError } from './errors';

describe('errorFields', () => {
  it("gives a coded error rippled's token, code and message, with its extra fields", () => {
    expect(errorFields(new RpcError('actNotFound', undefined, { account: 'rX', validated: true }))).toEqual({
      account: 'rX',
      validated: true,
      error: 'actNotFound',
      error_code: 19,
      error_message: 'Account not found.',
    });
    expect(errorFields(new RpcError('lgrNotFound', 'ledgerNotFound'))).toEqual({ error: 'lgrNotFound', error_code: 21, error_message: 'ledgerNotFound' });
  });

  it('gives a bare error its token alone', () => {
    expect(errorFields(new BareRpcError('invalidTransaction', { error_exception: 'fails local checks' }))).toEqual({
      error: 'invalidTransaction',
      error_exception: 'fails local checks',
    });
  });

  it("words missing and invalid fields as rippled does", () => {
    expect(errorFields(missingField('account'))).toMatchObject({ error: 'invalidParams', error_code: 31, error_message: "Missing field 'account'." });
    expect(errorFields(invalidField('limit', 'unsigned integer'))).toMatchObject({ error_message: "Invalid field 'limit', not unsigned integer." });
  });

  it('names a bad input of the codec invalidParams and leaves every other error to the caller', () => {
    expect(errorFields(new InvalidParams('currency must be a string', 'currency'))).toEqual({
      error: 'invalidParams',
      error_code: 31,
      error_message: 'currency must be a string',
    });
    expect(errorFields(new NotFound('no such ledger'))).toBeUndefined();
    expect(errorFields(new Error('boom'))).toBeUndefined();
  });
});
