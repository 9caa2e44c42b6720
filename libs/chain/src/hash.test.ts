import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gatherInto, HashPrefix, sha512Half, sha512HalfGathered } from './hash';
import { transactionLeafHash } from './shamap';

/** SHA512Half the plain way: a hash object fed every part. */
const fedPartByPart = (...parts: Uint8Array[]) => {
  const hasher = createHash('sha512');
  for (const part of parts) hasher.update(part);
  return hasher.digest().subarray(0, 32);
};

describe('sha512Half', () => {
  it('hashes one part, several parts, no bytes, and more than the gathering limit as a hash object fed part by part does', () => {
    const cases: Uint8Array[][] = [
      [randomBytes(100)],
      [HashPrefix.transactionId, randomBytes(250)],
      [HashPrefix.innerNode, ...Array.from({ length: 16 }, () => randomBytes(32))],
      [new Uint8Array(0), new Uint8Array(0)],
      // Past 4 MiB: fed part by part.
      [randomBytes(3 << 20), randomBytes(2 << 20)],
      // Past the gathering buffer's first size: it grows.
      [randomBytes(70_000), randomBytes(70_000)],
      [randomBytes(10), randomBytes(20)],
    ];
    for (const parts of cases) expect(sha512Half(...parts).equals(fedPartByPart(...parts))).toBe(true);
  });

  it('hashes bytes written into the gathering buffer', () => {
    const bytes = randomBytes(300);
    bytes.copy(gatherInto(bytes.length));
    expect(sha512HalfGathered(bytes.length).equals(fedPartByPart(bytes))).toBe(true);
    expect(() => gatherInto((4 << 20) + 1)).toThrow(RangeError);
  });
});

describe('transactionLeafHash', () => {
  /** rippled Serializer::addVL's length prefix, as the XRPL binary format describes it. */
  const prefixOf = (length: number) => {
    if (length <= 192) return Buffer.from([length]);
    if (length <= 12480) return Buffer.from([193 + ((length - 193) >> 8), (length - 193) & 0xff]);
    return Buffer.from([241 + ((length - 12481) >> 16), ((length - 12481) >> 8) & 0xff, (length - 12481) & 0xff]);
  };

  it('hashes SND\\0 + VL(tx) + VL(meta) + id at every length prefix boundary', () => {
    const id = randomBytes(32);
    for (const [txLength, metaLength] of [
      [192, 193],
      [193, 192],
      [12480, 12481],
      [12481, 12480],
      [1, 918744],
    ] as const) {
      const tx = randomBytes(txLength);
      const meta = randomBytes(metaLength);
      const expected = fedPartByPart(HashPrefix.txNode, prefixOf(txLength), tx, prefixOf(metaLength), meta, id);
      expect(transactionLeafHash(id, tx, meta).equals(expected), `${txLength}, ${metaLength}`).toBe(true);
    }
  });
});
