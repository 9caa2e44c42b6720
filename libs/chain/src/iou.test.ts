import { describe, expect, it } from 'vitest';
import { IouValue } from './iou';

const value = (text: string) => IouValue.parse(text);

describe('IouValue (rippled STAmount arithmetic for issued currencies)', () => {
  it('normalizes to a 16-digit mantissa', () => {
    expect([value('1').mantissa, value('1').exponent]).toEqual([1_000_000_000_000_000n, -15]);
    expect([value('-12.5').mantissa, value('-12.5').exponent]).toEqual([-1_250_000_000_000_000n, -14]);
    expect(value('0.000').isZero()).toBe(true);
  });

  it('prints plain decimals as ripple-binary-codec does', () => {
    expect(['100', '1.5', '-0.25', '0.00000000000000000001', '1e20', '9999999999999999e80'].map((text) => value(text).toString())).toEqual([
      '100',
      '1.5',
      '-0.25',
      '0.00000000000000000001',
      '100000000000000000000',
      '9999999999999999' + '0'.repeat(80),
    ]);
  });

  it('refuses more than 16 significant digits and non-numbers', () => {
    expect(() => value('12345678901234567')).toThrow(/16 significant digits/);
    expect(() => value('abc')).toThrow(/not a decimal number/);
  });

  it('adds by truncating the operand with the smaller exponent, like rippled', () => {
    expect(value('100').add(value('0.5')).toString()).toBe('100.5');
    expect(value('1000000000000000').add(value('0.01')).toString()).toBe('1000000000000000');
    expect(value('10').subtract(value('10')).isZero()).toBe(true);
    expect(value('5').subtract(value('7.25')).toString()).toBe('-2.25');
  });

  it('multiplies and divides with rippled’s rounding bias', () => {
    const rate = IouValue.of(1_005_000_000n, -9);
    expect(value('10').multiply(rate).toString()).toBe('10.05');
    expect(value('10.05').divide(rate).toString()).toBe('10');
    expect(value('1').divide(value('3')).toString()).toBe('0.3333333333333333');
  });

  it('compares exactly across exponents', () => {
    expect(value('0.1').compare(value('0.10'))).toBe(0);
    expect(value('-1').lessThan(value('0.000001'))).toBe(true);
    expect(value('1e-80').greaterThan(IouValue.ZERO)).toBe(true);
  });
});
