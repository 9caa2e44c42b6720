import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache';

/** Bytes one entry counts for: its key and JSON plus the fixed per-entry overhead. */
function sizeOf(key: string, json: string): number {
  const probe = new AnswerCache(1 << 20);
  probe.set(key, json);
  return probe.usage.bytes;
}

describe('AnswerCache', () => {
  it('answers what was kept, and nothing for a key never kept', () => {
    const cache = new AnswerCache(1 << 20);
    cache.set('tx:ab', '{"hash":"AB"}');
    expect(cache.get('tx:ab')).toBe('{"hash":"AB"}');
    expect(cache.get('tx:cd')).toBeUndefined();
  });

  it('gives back text beyond ASCII as it was kept, counted in UTF-8 bytes', () => {
    const cache = new AnswerCache(1 << 20);
    const json = '{"memo":"Grüße, 世界 🌍"}';
    cache.set('tx:ef', json);
    expect(cache.get('tx:ef')).toBe(json);
    expect(cache.usage.bytes).toBe(sizeOf('tx:ef', '') + Buffer.byteLength(json, 'utf8'));
  });

  it('stays within its bound in bytes, dropping the least recently used first', () => {
    const json = 'x'.repeat(1000);
    const entry = sizeOf('k0', json);
    const cache = new AnswerCache(3 * entry);
    cache.set('k0', json);
    cache.set('k1', json);
    cache.set('k2', json);
    // k0 was used last, so k1 is the least recently used when k3 comes in.
    expect(cache.get('k0')).toBe(json);
    cache.set('k3', json);
    expect(cache.usage).toEqual({ entries: 3, bytes: 3 * entry });
    expect(cache.get('k1')).toBeUndefined();
    for (const kept of ['k0', 'k2', 'k3']) expect(cache.get(kept)).toBe(json);
  });

  it('counts a replaced entry once', () => {
    const cache = new AnswerCache(1 << 20);
    cache.set('k', 'a'.repeat(100));
    cache.set('k', 'b'.repeat(10));
    expect(cache.usage).toEqual({ entries: 1, bytes: sizeOf('k', 'b'.repeat(10)) });
  });

  it('keeps nothing with a bound of 0, nor an answer larger than its bound', () => {
    const none = new AnswerCache(0);
    none.set('k', '{}');
    expect(none.get('k')).toBeUndefined();
    const small = new AnswerCache(500);
    small.set('small', '{}');
    small.set('large', 'x'.repeat(1000));
    expect(small.get('large')).toBeUndefined();
    expect(small.get('small')).toBe('{}');
  });
});
