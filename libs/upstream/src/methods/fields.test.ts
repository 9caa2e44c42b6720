import { describe, expect, it } from 'vitest';
import { hex, isHex } from './fields';

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

describe('isHex', () => {
  it('takes whole hex bytes of either case, of any length', () => {
    expect(isHex('')).toBe(true);
    expect(isHex('00ff7Fa0')).toBe(true);
    expect(isHex('ab'.repeat(200_000))).toBe(true);
    expect(hex.safeParse('12G4').success).toBe(false);
  });

  it('agrees with the hex pattern on short strings of every kind and on long ones with one bad character', () => {
    const alphabet = '0123456789abcdefABCDEFgxG -\u00ff\u0660';
    const texts: string[] = [];
    for (const first of alphabet) for (const second of alphabet) texts.push(first + second, `aa${first}${second}`, `${first}${second}bb`, `${first}`);
    for (const position of [0, 1, 70_000, 139_999]) texts.push(`${'a'.repeat(position)}z${'a'.repeat(139_999 - position)}`);
    for (const text of texts) expect(isHex(text), JSON.stringify(text.slice(0, 20))).toBe(HEX_PATTERN.test(text));
  });
});
