import { describe, expect, it } from 'vitest';
import { memoryKeyValue } from '../storage/memory';
import { closeTimeOf } from '../backend/records';
import { LedgerRepository } from './ledgers';

const stored = (ledgerIndex: number) => ({
  ledgerIndex,
  header: Buffer.alloc(118, ledgerIndex),
  ledgerHash: Buffer.alloc(32, 0x80 + ledgerIndex),
  transactionCount: ledgerIndex * 3,
});

describe('LedgerRepository', () => {
  it('finds the lowest and highest stored index in numeric (big-endian) order', async () => {
    const kv = memoryKeyValue();
    const ledgers = new LedgerRepository(kv);
    expect(await ledgers.edge('highest')).toBeUndefined();
    // 256 and 1 would sort the wrong way round as little-endian or as decimal strings.
    await kv.batch([...ledgers.putOperations(stored(256)), ...ledgers.putOperations(stored(1)), ...ledgers.putOperations(stored(2))]);
    expect(await ledgers.edge('highest')).toBe(256);
    expect(await ledgers.edge('lowest')).toBe(1);
    expect((await ledgers.range(2, 300)).map((header) => header.ledgerIndex)).toEqual([2, 256]);
    expect((await ledgers.range(1, 300, 2)).map((header) => header.ledgerIndex)).toEqual([1, 2]);
  });

  it('reads a header back by index and by hash, with its transaction count', async () => {
    const kv = memoryKeyValue();
    const ledgers = new LedgerRepository(kv);
    await kv.batch(ledgers.putOperations(stored(7)));
    expect(await ledgers.get(7)).toEqual(stored(7));
    expect(await ledgers.indexOfHash(stored(7).ledgerHash)).toBe(7);
    expect(await ledgers.get(8)).toBeUndefined();
  });

  it('reads close_time at its place in the binary header', () => {
    const header = Buffer.alloc(118);
    header.writeUInt32BE(474575230, 112);
    expect(closeTimeOf(header)).toBe(474575230);
  });
});
