/** The LedgerStore: its operations composed from one part per job (ledger-store.ts says which). */
export { LedgerStore, type StoreOptions, type StoreStatus } from './ledger-store';
export type { IndexOf, UnprovenOutcome } from './unproven';
export { STORE_FORMAT_VERSION } from './format';
export type { ChainOfStore } from './identity';
export { MAX_TRANSACTIONS_PER_CALL, transactionRecord } from './ledger-reads';
export { PRUNE_BATCH, type HistoryOptions } from './retention';
export { FOLLOW_INTERVAL_MS, type FollowOptions, type StoreRole } from './roles';
