import { serviceAddress, storeTarget, upstreamEndpoints, type ParsedFlags, type UpstreamEndpoints } from '@ledger-node/config';
import { getProfile, readValidatorList, type ChainProfile, type ValidatorList } from '@ledger-node/chain';
import { connectionConfig, describeDatabase, type WriterLockTarget } from '@ledger-node/postgres';
import type { LogLevel } from '@ledger-node/telemetry';

export interface SyncConfig {
  profile: ChainProfile;
  /** Upstream WebSocket URLs, tried in this order. */
  /** -endpoint or -endpoint_file: shown URLs, and those with credentials to connect to. */
  endpoints: UpstreamEndpoints;
  /** Keys whose validations prove an anchor (-validators); undefined: endpoints must agree. */
  validators: ValidatorList | undefined;
  threadCount: number;
  /** Oldest ledger to backfill; undefined means the upstream's earliest available. */
  startLedger: number | undefined;
  /** The newest ledgers the ledger-store keeps (-ledger_history); 0 keeps every ledger. */
  ledgerHistory: number;
  /** -network_id: endpoints on another network are not used. */
  networkId: number | undefined;
  /** gRPC address this service listens on. */
  address: string;
  ledgerStoreAddress: string;
  logLevel: LogLevel;
  /** Objects per ledger_data page of the state download. */
  stateDownloadPageSize: number;
  /**
   * With -store postgres://… (the node's flags are global): follow and backfill only while holding
   * the database's 'sync' writer lock. Sync still writes through its ledger-store; the lock makes it
   * the one sync of that database. Undefined with -store_read or without -store.
   */
  writerLock?: WriterLockTarget;
}

/** rippled serves at most 2048 objects per binary ledger_data page (Tuning::binaryPageLength). */
const STATE_PAGE_SIZE = 2048;

/**
 * LEDGER_NODE_STATE_PAGE_SIZE sets a smaller ledger_data page, so that tests can stop a download
 * between pages of a small chain.
 */
function stateDownloadPageSize(): number {
  const configured = process.env.LEDGER_NODE_STATE_PAGE_SIZE;
  if (configured === undefined || configured === '') return STATE_PAGE_SIZE;
  const size = Number(configured);
  if (!Number.isInteger(size) || size < 1 || size > STATE_PAGE_SIZE) {
    throw new Error(`LEDGER_NODE_STATE_PAGE_SIZE must be an integer from 1 to ${STATE_PAGE_SIZE}, got ${JSON.stringify(configured)}`);
  }
  return size;
}

/** The only place the sync service reads flags. */
export function syncConfig(flags: ParsedFlags): SyncConfig {
  // -chain has a default (libs/config), so it is always set.
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  const endpoints = upstreamEndpoints(flags, profile.defaultEndpoint);
  const validatorsFile = flags.string('validators');
  const store = storeTarget(flags);
  return {
    profile,
    endpoints,
    validators: validatorsFile === undefined ? undefined : readValidatorList(validatorsFile),
    threadCount: flags.integer('thread_count') ?? 8,
    startLedger: flags.integer('start_ledger'),
    ledgerHistory: flags.integer('ledger_history') ?? 0,
    networkId: flags.integer('network_id'),
    address: serviceAddress(flags, 'sync'),
    ledgerStoreAddress: serviceAddress(flags, 'ledger-store'),
    logLevel: flags.string('log_level') as LogLevel,
    stateDownloadPageSize: stateDownloadPageSize(),
    ...(store.kind === 'postgres' && store.role === 'writer'
      ? { writerLock: { connection: connectionConfig(store.url, store.password), location: describeDatabase(store.url) } }
      : {}),
  };
}
