import path from 'node:path';
import { dataDir, serviceAddress, type ParsedFlags } from '@ledger-node/config';
import type { LogLevel } from '@ledger-node/telemetry';

export interface LedgerStoreConfig {
  /** `<data_dir>/<database_name>`. */
  databasePath: string;
  /** gRPC address the service listens on. */
  address: string;
  logLevel: LogLevel;
}

export function ledgerStoreConfig(flags: ParsedFlags): LedgerStoreConfig {
  return {
    databasePath: path.join(dataDir(flags), flags.string('database_name')!),
    address: serviceAddress(flags, 'ledger-store'),
    logLevel: flags.string('log_level') as LogLevel,
  };
}
