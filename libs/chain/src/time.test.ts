import { describe, expect, it } from 'vitest';
import { closeTimeHuman, rippleTimeToIso, RIPPLE_EPOCH_OFFSET } from './time';
import { allHeaderFixtures } from './test-fixtures';

describe('closeTimeHuman / rippleTimeToIso', () => {
  const withHumanTime = allHeaderFixtures().filter(([, fixture]) => typeof fixture.ledger.close_time_human === 'string');

  it('covers the fixtures that print close_time_human', () => {
    expect(withHumanTime.length).toBeGreaterThanOrEqual(15);
  });

  for (const [file, fixture] of withHumanTime) {
    it(`prints the close time of ${file} as the fixture does`, () => {
      const printed = fixture.ledger.close_time_human as string;
      // Newer rippled appends fractional seconds and ' UTC'; the date and time part is the same.
      expect(closeTimeHuman(Number(fixture.ledger.close_time))).toBe(printed.slice(0, 20));
      const [date, time] = printed.split(' ');
      const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
      const [year, month, day] = date!.split('-');
      const monthNumber = String(months.indexOf(month!) + 1).padStart(2, '0');
      expect(rippleTimeToIso(Number(fixture.ledger.close_time))).toBe(`${year}-${monthNumber}-${day}T${time!.slice(0, 8)}+00:00`);
    });
  }

  it('counts from 2000-01-01T00:00:00Z', () => {
    expect(RIPPLE_EPOCH_OFFSET).toBe(Date.UTC(2000, 0, 1) / 1000);
    expect(rippleTimeToIso(0)).toBe('2000-01-01T00:00:00+00:00');
  });

  it('rejects a negative or fractional time', () => {
    expect(() => closeTimeHuman(-1)).toThrow(/u32/);
    expect(() => rippleTimeToIso(1.5)).toThrow(/u32/);
  });
});
