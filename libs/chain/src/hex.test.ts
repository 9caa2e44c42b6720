import { describe, expect, it } from 'vitest';
import { decodeHex, isHex, toBytes } from './hex';

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

describe('decodeHex', () => {
  it('decodes whole hex bytes of either case', () => {
    expect(decodeHex('00ff7Fa0')).toEqual(Buffer.from([0x00, 0xff, 0x7f, 0xa0]));
    expect(decodeHex('')).toEqual(Buffer.alloc(0));
  });

  it.each(['0', 'abc', '0x12', 'zz', 'ab cd', '12g4', 'ab\u00e9c', '1 ', ' 1', 'ab\n', '\u0660\u0661'])('refuses %j', (text) => {
    expect(decodeHex(text)).toBeUndefined();
    expect(() => toBytes(text, 'blob')).toThrow('blob must be an even-length hex string');
  });

  it('agrees with the hex pattern on every string of two characters and on random text', () => {
    const alphabet = '0123456789abcdefABCDEFgxG -\u00ff';
    const texts: string[] = [];
    for (const first of alphabet) for (const second of alphabet) texts.push(first + second, `aa${first}${second}`, `${first}${second}bb`);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2000; n++) texts.push(Array.from({ length: Math.floor(random() * 9) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    for (const text of texts) expect(decodeHex(text) !== undefined, JSON.stringify(text)).toBe(HEX_PATTERN.test(text));
  });
});

describe('isHex', () => {
  it('takes whole hex bytes of either case, of any length', () => {
    expect(isHex('')).toBe(true);
    expect(isHex('00ff7Fa0')).toBe(true);
    expect(isHex('ab'.repeat(200_000))).toBe(true);
  });

  it('agrees with the hex pattern on short strings of every kind and on long ones with one bad character', () => {
    const alphabet = '0123456789abcdefABCDEFgxG -\u00ff\u0660';
    const texts: string[] = [];
    for (const first of alphabet) for (const second of alphabet) texts.push(first + second, `aa${first}${second}`, `${first}${second}bb`, `${first}`);
    for (const position of [0, 1, 70_000, 139_999]) texts.push(`${'a'.repeat(position)}z${'a'.repeat(139_999 - position)}`);
    for (const text of texts) expect(isHex(text), JSON.stringify(text.slice(0, 20))).toBe(HEX_PATTERN.test(text));
  });
});
