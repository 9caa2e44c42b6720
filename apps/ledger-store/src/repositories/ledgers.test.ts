import { describe, expect, it } from 'vitest';
import { memoryKeyValue } from '../storage/memory';
import { LedgerRepository } from './ledgers';

const stored = (ledgerIndex: number) => ({
  ledgerIndex,
  header: Buffer.alloc(118, ledgerIndex),
  ledgerHash: Buffer.alloc(32, 0x80 + ledgerIndex),
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
  });

  it('reads a header back by index and by hash', async () => {
    const kv = memoryKeyValue();
    const ledgers = new LedgerRepository(kv);
    await kv.batch(ledgers.putOperations(stored(7)));
    expect(await ledgers.get(7)).toEqual(stored(7));
    expect(await ledgers.indexOfHash(stored(7).ledgerHash)).toBe(7);
    expect(await ledgers.get(8)).toBeUndefined();
  });
});
