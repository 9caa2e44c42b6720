import { describe, expect, it } from 'vitest';
import { hex } from './fields';

describe('the hex field', () => {
  it('takes whole hex bytes of either case and refuses anything else', () => {
    expect(hex.safeParse('00ff7Fa0').success).toBe(true);
    expect(hex.safeParse('ab'.repeat(200_000)).success).toBe(true);
    for (const text of ['12G4', 'abc', '0x12', 'ab cd']) expect(hex.safeParse(text).success, text).toBe(false);
  });
});
