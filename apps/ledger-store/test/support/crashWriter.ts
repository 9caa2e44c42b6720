/**
 * A child process for crash tests: stores the synthetic ledgers first..first+count-1 into the
 * RocksDB database at `path`, in an order shuffled by `seed`, one ledger at a time, as fast
 * as it can, until it is killed or done. Usage: node --import tsx crashWriter.ts PATH FIRST COUNT SEED
 */
import { openRocksDb } from '../../src/storage/rocksdb';
import { KvLedgerBackend } from '../../src/backend/kv-backend';
import { LedgerStore } from '../../src/store';
import { crashLedgerSize, syntheticLedgerWrite } from './ledgerWrites';

async function main(): Promise<void> {
  const [path, firstText, countText, seedText] = process.argv.slice(2);
  const first = Number(firstText);
  const count = Number(countText);
  let seed = Number(seedText) || 1;
  const order = Array.from({ length: count }, (_, offset) => first + offset);
  for (let position = order.length - 1; position > 0; position--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const other = seed % (position + 1);
    [order[position], order[other]] = [order[other], order[position]];
  }
  const store = await LedgerStore.open(new KvLedgerBackend(await openRocksDb(path)));
  process.stdout.write('writing\n');
  for (const ledgerIndex of order) {
    await store.putLedger(syntheticLedgerWrite(ledgerIndex, { transactionCount: crashLedgerSize(ledgerIndex) }));
  }
  await store.close();
  process.stdout.write('done\n');
}

await main();
