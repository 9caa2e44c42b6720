import { describe, expect, it } from 'vitest';
import { LedgerTag } from '@ledger-node/contracts';
import { blockHash, blockNumberOrTag, hash32, stateBlockSelector, txIndexQuantity } from './params';

const hash = 'A'.repeat(64);

describe('block number or tag', () => {
  it.each([
    ['123', 123],
    [123, 123],
    ['0x7b', 123],
    ['0X7B', NaN],
    ['0', 0],
  ])('%j is ledger %d', (input, index) => {
    const result = blockNumberOrTag.safeParse(input);
    if (Number.isNaN(index)) expect(result.success).toBe(false);
    else expect(result.data).toEqual({ selector: { $case: 'index', index } });
  });

  it.each([
    ['earliest', LedgerTag.EARLIEST],
    ['latest', LedgerTag.LATEST],
    ['pending', LedgerTag.PENDING],
    ['current', LedgerTag.CURRENT],
    ['validated', LedgerTag.VALIDATED],
    ['closed', LedgerTag.CLOSED],
  ])('tag %s', (input, tag) => {
    expect(blockNumberOrTag.parse(input)).toEqual({ selector: { $case: 'tag', tag } });
  });

  it.each([['-1'], [-1], [1.5], ['12abc'], ['4294967296'], [''], [null], [true], [{}], ['Latest'], ['toString'], ['__proto__'], ['constructor'], ['hasOwnProperty']])('rejects %j', (input) => {
    const result = blockNumberOrTag.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toMatch(/expected a ledger number/);
  });
});

describe('state block selector', () => {
  it.each([['toString'], ['__proto__'], ['constructor'], ['valueOf'], ['latest']])('rejects %j with a clear message, never a tag it inherits', (input) => {
    const result = stateBlockSelector.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toMatch(/expected a ledger number/);
  });
});

describe('hashes', () => {
  it('accepts 64 hex digits in either case, with or without 0x', () => {
    expect(hash32.parse(hash)).toEqual(Buffer.alloc(32, 0xaa));
    expect(hash32.parse('0x' + hash.toLowerCase())).toEqual(Buffer.alloc(32, 0xaa));
    expect(blockHash.parse(hash)).toEqual({ selector: { $case: 'hash', hash: Buffer.alloc(32, 0xaa) } });
  });

  it.each([['A'.repeat(63)], ['G'.repeat(64)], [123], [null]])('rejects %j', (input) => {
    expect(hash32.safeParse(input).error!.issues[0]!.message).toBe('expected a 32-byte hash as 64 hex digits');
  });
});

describe('transaction index', () => {
  it('takes integers, decimal and hex strings', () => {
    expect(txIndexQuantity.parse(0)).toBe(0);
    expect(txIndexQuantity.parse('17')).toBe(17);
    expect(txIndexQuantity.parse('0x11')).toBe(17);
    expect(txIndexQuantity.safeParse('x').success).toBe(false);
  });
});
