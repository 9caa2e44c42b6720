/**
 * The key codecs pin store format 1: each bucket's key bytes are exactly what every earlier
 * release wrote (a change here is a new STORE_FORMAT_VERSION), they decode to the parts they were
 * made of, and a part of the wrong width is refused rather than stored.
 */
import { describe, expect, it } from 'vitest';
import { Internal } from '@ledger-node/errors';
import { Keys, namedKey, Bucket } from './buckets';

const hash = Buffer.alloc(32, 0xab);
const accountId = Buffer.alloc(20, 0xcd);
const hex = (bytes: Buffer) => bytes.toString('hex');
const h = 'ab'.repeat(32);
const a = 'cd'.repeat(20);

describe('key codecs of store format 1', () => {
  it.each([
    ['ledgerHeader', Keys.ledgerHeader.encode({ ledgerIndex: 0x01020304 }), '0101020304'],
    ['ledgerHashIndex', Keys.ledgerHashIndex.encode({ ledgerHash: hash }), `02${h}`],
    ['transaction', Keys.transaction.encode({ hash }), `03${h}`],
    ['ledgerTransaction', Keys.ledgerTransaction.encode({ ledgerIndex: 7, txIndex: 0x10 }), '040000000700000010'],
    ['accountTransaction', Keys.accountTransaction.encode({ accountId, ledgerIndex: 7, txIndex: 2 }), `05${a}0000000700000002`],
    ['accountSentCount', Keys.accountSentCount.encode({ accountId, ledgerIndex: 0xffffffff }), `06${a}ffffffff`],
    ['stateObjectVersion', Keys.stateObjectVersion.encode({ objectKey: hash, ledgerIndex: 1 }), `07${h}00000001`],
    ['accountTrustLine', Keys.accountTrustLine.encode({ accountId, objectKey: hash }), `08${a}${h}`],
    ['accountSentBlock', Keys.accountSentBlock.encode({ accountId, block: 3 }), `0b${a}00000003`],
    ['accountCreation', Keys.accountCreation.encode({ accountId, ledgerIndex: 9 }), `0c${a}00000009`],
    ['stateStage', Keys.stateStage.encode({ objectKey: hash }), `0e${h}`],
    ['a storeMeta name', namedKey(Bucket.storeMeta, 'counters'), `0a${Buffer.from('counters').toString('hex')}`],
  ])('%s keys are the bucket byte and their parts, big-endian', (_bucket, encoded, expected) => {
    expect(hex(encoded)).toBe(expected);
  });

  it('decode to the parts they were made of', () => {
    expect(Keys.accountTransaction.decode(Keys.accountTransaction.encode({ accountId, ledgerIndex: 123456, txIndex: 42 }))).toEqual({ accountId, ledgerIndex: 123456, txIndex: 42 });
    expect(Keys.stateObjectVersion.decode(Keys.stateObjectVersion.encode({ objectKey: hash, ledgerIndex: 0xfffffffe }))).toEqual({ objectKey: hash, ledgerIndex: 0xfffffffe });
  });

  it('sort numerically within a prefix, and a prefix gives the leading parts only', () => {
    const keys = [70000, 5, 256].map((ledgerIndex) => Keys.accountSentCount.encode({ accountId, ledgerIndex }));
    expect(keys.sort(Buffer.compare).map((key) => Keys.accountSentCount.decode(key).ledgerIndex)).toEqual([5, 256, 70000]);
    expect(hex(Keys.accountTransaction.prefix({ accountId }))).toBe(`05${a}`);
    expect(() => Keys.accountTransaction.prefix({ accountId, txIndex: 1 })).toThrow(Internal);
  });

  it('refuse a part of another width and a key of another bucket or length', () => {
    expect(() => Keys.accountTransaction.encode({ accountId: Buffer.alloc(33), ledgerIndex: 1, txIndex: 1 })).toThrow(/20 bytes was given 33/);
    expect(() => Keys.ledgerHeader.decode(Keys.ledgerTransaction.encode({ ledgerIndex: 1, txIndex: 1 }))).toThrow(Internal);
    expect(() => Keys.ledgerHeader.decode(Buffer.from('0100', 'hex'))).toThrow(Internal);
  });
});
