import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { AccountNotFound, InvalidParams, LedgerNodeError, NotSynced, Rejected, UpstreamUnavailable } from '@ledger-node/errors';
import { fromStatus, toStatus } from './status';

describe('toStatus / fromStatus', () => {
  it.each([
    [new InvalidParams('bad address', 'address'), status.INVALID_ARGUMENT],
    [new NotSynced(), status.FAILED_PRECONDITION],
    [new AccountNotFound('no account rX at ledger 5'), status.NOT_FOUND],
    [new UpstreamUnavailable('upstream down'), status.UNAVAILABLE],
    [new Rejected('fee too low', 'telINSUF_FEE_P'), status.FAILED_PRECONDITION],
  ])('maps %s to its status code and back to the same kind, message and details', (error, code) => {
    const converted = toStatus(error);
    expect(converted.code).toBe(code);
    const back = fromStatus({ code: converted.code, details: converted.details, metadata: converted.metadata });
    expect(back).toBeInstanceOf(LedgerNodeError);
    expect(back.kind).toBe(error.kind);
    expect(back.message).toBe(error.message);
    expect(back.details).toEqual(JSON.parse(JSON.stringify(error.details)));
  });

  it('turns an unexpected error into INTERNAL without its message', () => {
    const converted = toStatus(new TypeError('secret path /home/x/key'));
    expect(converted.code).toBe(status.INTERNAL);
    expect(converted.details).toBe('internal error');
  });

  it('maps a bare status from elsewhere by its code', () => {
    expect(fromStatus({ code: status.UNAVAILABLE, details: 'connect ECONNREFUSED' }).kind).toBe('unavailable');
    expect(fromStatus({ code: status.NOT_FOUND, details: 'x' }).kind).toBe('not_found');
    expect(fromStatus({ code: status.DATA_LOSS, details: 'x' }).kind).toBe('internal');
  });
});
