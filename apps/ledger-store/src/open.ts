import type { StoreTarget } from '@ledger-node/config';
import type { LedgerBackend } from './backend/backend';
import { KvLedgerBackend } from './backend/kv-backend';
import { PgLedgerBackend } from './backend/pg-backend';
import { openRocksDb } from './storage/rocksdb';

/** The backend the flags select (config.ts): RocksDB under -data_dir, or PostgreSQL. */
export async function openBackend(target: StoreTarget): Promise<LedgerBackend> {
  if (target.kind === 'rocksdb') return new KvLedgerBackend(await openRocksDb(target.path), `the database at ${target.path}`);
  return PgLedgerBackend.open({ connectionString: target.url, ...(target.password === undefined ? {} : { password: target.password }) });
}
