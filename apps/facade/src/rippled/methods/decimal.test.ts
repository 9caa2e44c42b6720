import { describe, expect, it } from 'vitest';
import { compareDecimal, divideExact, exactOf, exactText, negateDecimal, squareRootExact, sumDecimal, type ExactDecimal } from './decimal';

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

describe('divideExact and squareRootExact', () => {
  const text = (exact: ExactDecimal) => exactText(exact);
  it('divides to the digits asked, to nearest', () => {
    expect(text(divideExact(exactOf('744.5'), exactOf('10'), 16))).toBe('74.45');
    expect(text(divideExact(exactOf('2'), exactOf('3'), 16))).toBe('0.6666666666666667');
    expect(text(divideExact(exactOf('0.825'), exactOf('9'), 19))).toBe('0.09166666666666666667');
  });

  it("takes square roots as rippled's Number root2 does (rippled GetAggregatePrice_test's deviations)", () => {
    expect(text(squareRootExact(exactOf('0.09166666666666666667'), 19))).toBe('0.3027650354097491666');
    expect(text(squareRootExact(exactOf('0.035'), 19))).toBe('0.1870828693386970693');
    expect(text(squareRootExact(exactOf('0.04666666666666666667'), 19))).toBe('0.2160246899469286744');
    expect(text(squareRootExact(exactOf('0.025'), 19))).toBe('0.1581138830084189666');
    expect(text(squareRootExact(exactOf('4'), 16))).toBe('2');
    expect(text(squareRootExact(exactOf('0'), 16))).toBe('0');
    expect(text(squareRootExact(exactOf('2'), 16))).toBe('1.414213562373095');
  });
});
