import { describe, expect, it } from 'vitest';
import { compareDecimal, negateDecimal, sumDecimal } from './decimal';

describe('compareDecimal', () => {
  it.each([
    ['1', '2', -1],
    ['2', '1', 1],
    ['1.50', '1.5', 0],
    ['-1', '0', -1],
    ['0', '-0', 0],
    ['1e-5', '0.00001', 0],
    ['1e3', '999.9999', 1],
    ['-2', '-10', 1],
    ['12300', '1.23e4', 0],
    ['0.000000000000000000000000000001', '0', 1],
  ])('compares %s with %s: %i', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected);
  });

  it('refuses text that is not a decimal', () => {
    expect(() => compareDecimal('abc', '1')).toThrow(/not a decimal amount/);
  });

  it('negates', () => {
    expect(negateDecimal('5')).toBe('-5');
    expect(negateDecimal('-5')).toBe('5');
  });
});

describe('sumDecimal', () => {
  it.each([
    [['1', '2'], '3'],
    [['0.1', '0.2'], '0.3'],
    [['-5', '5'], '0'],
    [[], '0'],
    [['1e-30', '2e-30'], '3000000000000000e-45'],
    [['1000000000000000', '0.4'], '1000000000000000'],
    // Past 16 digits the sum rounds to nearest, a half to the even neighbour.
    [['9999999999999999', '0.5'], '1000000000000000e1'],
    [['1000000000000001', '0.5'], '1000000000000002'],
    [['1000000000000002', '0.5'], '1000000000000002'],
    [['-1.5', '-1e-5'], '-1.50001'],
  ])('adds %j to %s', (values, expected) => {
    expect(sumDecimal(values)).toBe(expected);
  });
});
