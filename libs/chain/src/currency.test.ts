import { describe, expect, it } from 'vitest';
import { currencyFromBytes, currencyToBytes } from './currency';

describe('currency codes', () => {
  it('writes a three-letter code at bytes 12..14 and reads it back', () => {
    const bytes = currencyToBytes('USD');
    expect(Buffer.from(bytes).toString('hex').toUpperCase()).toBe('0000000000000000000000005553440000000000');
    expect(currencyFromBytes(bytes)).toBe('USD');
  });

  it('keeps a non-standard code as 40 uppercase hex', () => {
    const hex = '0000000000000000004A534C4153480000000000';
    expect(currencyFromBytes(currencyToBytes(hex.toLowerCase()))).toBe(hex);
  });

  it('refuses the native code as an issued currency', () => {
    expect(() => currencyToBytes('XRP')).toThrow(/native/);
    expect(() => currencyToBytes('0'.repeat(40))).toThrow(/native/);
    expect(() => currencyToBytes('SWT', 'SWT')).toThrow(/native/);
    expect(() => currencyToBytes('US')).toThrow(/three-character/);
    expect(currencyFromBytes(new Uint8Array(20), 'SWT')).toBe('SWT');
  });
});
