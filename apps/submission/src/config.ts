import path from 'node:path';
import { defaultEndpointOf, getProfile, type ChainProfile } from '@ledger-node/chain';
import { dataDir, readTokenFile, secretFileAccess, serviceAddress, storeTarget, upstreamEndpoints, type ParsedFlags, type UpstreamEndpoints } from '@ledger-node/config';
import { describeDatabase, parseDatabaseUrl, type WriterLockTarget } from '@ledger-node/postgres';
import type { LogLevel } from '@ledger-node/telemetry';

/** The database whose 'submission' writer lock elects the one sending submission service. */
export type SenderLockTarget = WriterLockTarget;

export interface SubmissionConfig {
  profile: ChainProfile;
  /** Upstream WebSocket URLs, tried in order. */
  /** -endpoint or -endpoint_file: shown URLs, and those with credentials to connect to. */
  endpoints: UpstreamEndpoints;
  address: string;
  keystoreAddress: string;
  ledgerStoreAddress: string;
  /** Token the keystore requires when it listens on TCP. */
  keystoreToken?: string;
  /** The persisted pending set. */
  bookFile: string;
  logLevel: LogLevel;
  /** With -store postgres://…: send only while holding the database's submission writer lock. */
  senderLock?: SenderLockTarget;
}

export function submissionConfig(flags: ParsedFlags): SubmissionConfig {
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  const tokenFile = flags.string('keystore_token_file');
  const endpoints = upstreamEndpoints(flags, defaultEndpointOf(profile, flags.integer('network_id')));
  const store = storeTarget(flags);
  return {
    profile,
    endpoints,
    address: serviceAddress(flags, 'submission'),
    keystoreAddress: serviceAddress(flags, 'keystore'),
    ledgerStoreAddress: serviceAddress(flags, 'ledger-store'),
    keystoreToken: tokenFile === undefined ? undefined : readTokenFile(tokenFile, 'keystore_token_file', secretFileAccess(flags)),
    bookFile: path.join(dataDir(flags), 'submission', 'submissions.jsonl'),
    logLevel: flags.string('log_level') as LogLevel,
    ...(store.kind === 'postgres' && store.role === 'writer'
      ? { senderLock: { connection: parseDatabaseUrl(store.url, store.password).hosts, location: describeDatabase(store.url) } }
      : {}),
  };
}
