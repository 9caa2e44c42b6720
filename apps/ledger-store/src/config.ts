import { serviceAddress, storeTarget, type ParsedFlags, type StoreTarget } from '@ledger-node/config';
import { getProfile, type ChainProfile } from '@ledger-node/chain';
import type { LogLevel } from '@ledger-node/telemetry';

export interface LedgerStoreConfig {
  /** RocksDB in `<data_dir>/<database_name>`, or PostgreSQL (-store, -store_read). */
  store: StoreTarget;
  /** gRPC address the service listens on. */
  address: string;
  logLevel: LogLevel;
  /** Newest ledgers kept (-ledger_history); 0 keeps every ledger. */
  ledgerHistory: number;
  /** The chain whose transactions a bounded history re-indexes as it removes them (-chain, -definitions). */
  profile: () => ChainProfile;
  /** The chain the store holds (-chain, -network_id): a store of another is refused. */
  chain: { chain: string; networkId?: number };
}

export function ledgerStoreConfig(flags: ParsedFlags): LedgerStoreConfig {
  const store = storeTarget(flags);
  const ledgerHistory = flags.integer('ledger_history') ?? 0;
  if (ledgerHistory > 0 && store.kind !== 'rocksdb') {
    throw new Error('-ledger_history keeps a RocksDB store only: a PostgreSQL store (-store, -store_read) keeps every ledger; leave -ledger_history at 0 with it');
  }
  return {
    store,
    address: serviceAddress(flags, 'ledger-store'),
    logLevel: flags.string('log_level') as LogLevel,
    ledgerHistory,
    profile: () => getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') }),
    chain: { chain: flags.string('chain')!, ...(flags.integer('network_id') === undefined ? {} : { networkId: flags.integer('network_id') }) },
  };
}
