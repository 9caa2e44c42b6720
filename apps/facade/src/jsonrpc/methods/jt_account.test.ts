import { describe, expect, it } from 'vitest';
import { parseParams } from '../method';
import { jt_account } from './jt_account';

const address = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

describe('jt_account parameters', () => {
  it('takes a page number up to 2^32 - 1 and refuses a larger one as invalid params, naming it', () => {
    expect(parseParams(jt_account, [address, 4_294_967_295])[1]).toBe(4_294_967_295);
    for (const page of [4_294_967_296, Number.MAX_SAFE_INTEGER]) {
      expect(() => parseParams(jt_account, [address, page])).toThrow(/page.*below 2\^32/);
    }
  });
});
