import { describe, expect, it } from 'vitest';
import { dropsToUnits } from './units';

describe('dropsToUnits', () => {
  it.each([
    ['0', '0'],
    ['1', '0.000001'],
    ['1000000', '1'],
    ['1234567', '1.234567'],
    ['100000000000000000', '100000000000'],
    ['25000012', '25.000012'],
  ])('%s drops is %s', (drops, units) => {
    expect(dropsToUnits(drops, 1_000_000n)).toBe(units);
  });
});
