import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KvRange } from './kv';
import { memoryKeyValue } from './memory';

/** Keys of 1 to 3 bytes from a small alphabet: prefixes of one another, and bounds that are keys. */
const someKey = () => Buffer.from(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => [0x00, 0x01, 0x7f, 0x80, 0xff][Math.floor(Math.random() * 5)]!));

describe('memoryKeyValue', () => {
  it('lists every range as a filter over all keys in byte order would, across writes and deletes', async () => {
    const kv = memoryKeyValue();
    const held = new Map<string, Buffer>();
    for (let round = 0; round < 300; round++) {
      const key = someKey();
      if (Math.random() < 0.3) {
        await kv.batch([{ type: 'del', key }]);
        held.delete(key.toString('hex'));
      } else {
        const value = randomBytes(2);
        await kv.batch([{ type: 'put', key, value }]);
        held.set(key.toString('hex'), value);
      }
      const range: KvRange = { reverse: Math.random() < 0.5 };
      for (const bound of ['gte', 'gt', 'lt', 'lte'] as const) if (Math.random() < 0.4) range[bound] = someKey();
      if (Math.random() < 0.3) range.limit = Math.floor(Math.random() * 4);
      const expected = [...held.entries()]
        .map(([hex, value]) => [Buffer.from(hex, 'hex'), value] as [Buffer, Buffer])
        .filter(([key]) => (!range.gte || Buffer.compare(key, range.gte) >= 0) && (!range.gt || Buffer.compare(key, range.gt) > 0))
        .filter(([key]) => (!range.lt || Buffer.compare(key, range.lt) < 0) && (!range.lte || Buffer.compare(key, range.lte) <= 0))
        .sort(([a], [b]) => Buffer.compare(a, b));
      if (range.reverse) expected.reverse();
      const listed: [Buffer, Buffer][] = [];
      for await (const entry of kv.entries(range)) listed.push(entry);
      expect(listed).toEqual(range.limit === undefined ? expected : expected.slice(0, range.limit));
    }
  });
});
