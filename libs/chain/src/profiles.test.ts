import { describe, expect, it } from 'vitest';
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
