import { serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { getProfile, type ChainProfile } from '@ledger-node/chain';
import type { LogLevel } from '@ledger-node/telemetry';

export interface SyncConfig {
  profile: ChainProfile;
  /** Upstream WebSocket URLs, tried in this order. */
  endpoints: string[];
  threadCount: number;
  /** Oldest ledger to backfill; undefined means the upstream's earliest available. */
  startLedger: number | undefined;
  /** gRPC address this service listens on. */
  address: string;
  ledgerStoreAddress: string;
  logLevel: LogLevel;
}

/** The only place the sync service reads flags. */
export function syncConfig(flags: ParsedFlags): SyncConfig {
  const profile = getProfile(flags.string('chain') ?? 'xrpl');
  const endpoints = (flags.string('endpoint') ?? profile.defaultEndpoint)
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url.length > 0);
  return {
    profile,
    endpoints,
    threadCount: flags.integer('thread_count') ?? 8,
    startLedger: flags.integer('start_ledger'),
    address: serviceAddress(flags, 'sync'),
    ledgerStoreAddress: serviceAddress(flags, 'ledger-store'),
    logLevel: flags.string('log_level') as LogLevel,
  };
}
