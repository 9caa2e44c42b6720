import { serviceAddress, storeTarget, type ParsedFlags, type StoreTarget } from '@ledger-node/config';
import type { LogLevel } from '@ledger-node/telemetry';

export interface LedgerStoreConfig {
  /** RocksDB in `<data_dir>/<database_name>`, or PostgreSQL (-store, -store_read). */
  store: StoreTarget;
  /** gRPC address the service listens on. */
  address: string;
  logLevel: LogLevel;
}

export function ledgerStoreConfig(flags: ParsedFlags): LedgerStoreConfig {
  return {
    store: storeTarget(flags),
    address: serviceAddress(flags, 'ledger-store'),
    logLevel: flags.string('log_level') as LogLevel,
  };
}
