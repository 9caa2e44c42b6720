import path from 'node:path';
import { getProfile, type ChainProfile } from '@ledger-node/chain';
import { dataDir, readSecretFile, readTokenFile, secretFileAccess, serviceAddress, type ParsedFlags } from '@ledger-node/config';
import type { LogLevel } from '@ledger-node/telemetry';

/** The environment variable holding the passphrase when -password_file is not given. */
export const PASSWORD_ENV = 'LEDGER_NODE_PASSWORD';

export interface KeystoreConfig {
  /** `<data_dir>/keystore`: one encrypted key file per account. */
  directory: string;
  /** gRPC address the keystore listens on. */
  address: string;
  /** Every call must carry it; required on TCP. */
  authToken: string | undefined;
  /** Unlocks the key files; undefined when none was configured (accounts can still be listed). */
  passphrase: string | undefined;
  profile: ChainProfile;
  logLevel: LogLevel;
  /** -unlock_seconds: how long a derived key-file key stays in memory. */
  unlockSeconds: number;
}

export function keystoreConfig(flags: ParsedFlags, env: NodeJS.ProcessEnv = process.env): KeystoreConfig {
  const address = serviceAddress(flags, 'keystore');
  const access = secretFileAccess(flags);
  const tokenFile = flags.string('keystore_token_file');
  const authToken = tokenFile === undefined ? undefined : readTokenFile(tokenFile, 'keystore_token_file', access);
  const passwordFile = flags.string('password_file');
  const passphrase =
    passwordFile !== undefined ? readSecretFile(passwordFile, 'password_file', access) : env[PASSWORD_ENV] === '' ? undefined : env[PASSWORD_ENV];
  return {
    directory: path.join(dataDir(flags), 'keystore'),
    address,
    authToken,
    passphrase,
    profile: getProfile(flags.string('chain')!, { definitionsFile: flags.string('definitions') }),
    logLevel: flags.string('log_level') as LogLevel,
    unlockSeconds: flags.integer('unlock_seconds') ?? 0,
  };
}
