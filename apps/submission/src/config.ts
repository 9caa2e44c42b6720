import path from 'node:path';
import { getProfile, type ChainProfile } from '@ledger-node/chain';
import { dataDir, readSecretFile, serviceAddress, upstreamEndpoints, type ParsedFlags, type UpstreamEndpoints } from '@ledger-node/config';
import type { LogLevel } from '@ledger-node/telemetry';

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
}

export function submissionConfig(flags: ParsedFlags): SubmissionConfig {
  const profile = getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') });
  const tokenFile = flags.string('keystore_token_file');
  const endpoints = upstreamEndpoints(flags, profile.defaultEndpoint);
  return {
    profile,
    endpoints,
    address: serviceAddress(flags, 'submission'),
    keystoreAddress: serviceAddress(flags, 'keystore'),
    ledgerStoreAddress: serviceAddress(flags, 'ledger-store'),
    keystoreToken: tokenFile === undefined ? undefined : readSecretFile(tokenFile, 'keystore_token_file'),
    bookFile: path.join(dataDir(flags), 'submission', 'submissions.jsonl'),
    logLevel: flags.string('log_level') as LogLevel,
  };
}
