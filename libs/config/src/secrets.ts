import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { InvalidParams } from '@ledger-node/errors';

/**
 * A secret shorter than this is too easy to guess: every bearer token the node checks is at least
 * this long, and so is the passphrase of a new keystore (libs/config only reads it; the keystore checks it).
 */
export const MIN_SECRET_LENGTH = 16;

/**
 * Who besides its owner may read a secret file: nobody by default; its group too, never with
 * write, with -secret_group_read (what Kubernetes makes of a Secret volume's defaultMode 0400 when
 * the pod sets fsGroup: 0440, the file's group the pod's). Others may never read one.
 */
export interface SecretFileAccess {
  groupRead: boolean;
}

export const OWNER_ONLY: SecretFileAccess = { groupRead: false };

/** The access the flags allow secret files (-secret_group_read). */
export function secretFileAccess(flags: { boolean(name: string): boolean }): SecretFileAccess {
  return { groupRead: flags.boolean('secret_group_read') };
}

/** The flags that name a file read as a secret, and what the file holds. */
export const SECRET_FILE_FLAGS = {
  rpc_token_file: 'token',
  keystore_token_file: 'token',
  password_file: 'passphrase',
  store_password_file: 'password',
  endpoint_file: 'endpoints',
  grpc_tls_key: 'private key',
} as const;

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * Why a secret file's permission bits are refused, or undefined: only its owner may read it, or
 * with `access.groupRead` its group too; nobody but its owner may write it. The message names the
 * flag, the file and its mode, and the chmod that fixes it.
 */
export function secretModeProblem(file: string, flag: string, mode: number, access: SecretFileAccess): string | undefined {
  const allowed = access.groupRead ? 0o040 : 0;
  if ((mode & 0o077 & ~allowed) === 0) return undefined;
  const rule = access.groupRead
    ? 'readable by its owner and group only, writable by its owner only (0600, 0400, 0640 or 0440)'
    : 'readable by its owner only (0600 or 0400; 0640 or 0440 with -secret_group_read)';
  return `-${flag} ${file} has mode ${octal(mode)}: a secret file must be ${rule}; run chmod ${access.groupRead ? '640' : '600'} ${file}`;
}

/** Refuses a secret file that is not a regular file or whose permission bits do not pass (secretModeProblem). */
export function checkSecretMode(file: string, flag: string, access: SecretFileAccess = OWNER_ONLY): void {
  let stats;
  try {
    stats = statSync(file);
  } catch (error) {
    throw new InvalidParams(`cannot read -${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, flag);
  }
  if (!stats.isFile()) throw new InvalidParams(`cannot read -${flag} ${file}: not a regular file`, flag);
  const problem = secretModeProblem(file, flag, stats.mode, access);
  if (problem) throw new InvalidParams(problem, flag);
}

/** The text of a secret file, once its permission bits pass. */
export function readSecretText(file: string, flag: string, access: SecretFileAccess = OWNER_ONLY): string {
  checkSecretMode(file, flag, access);
  return readFlagFile(file, flag);
}

/**
 * A secret (passphrase, password) read from the file a flag names: the first line, trimmed. The
 * value never appears in errors; the flag and the file do.
 */
export function readSecretFile(file: string, flag: string, access: SecretFileAccess = OWNER_ONLY): string {
  return firstLine(readSecretText(file, flag, access), file, flag);
}

/** A bearer token from the file a flag names: a secret file whose first line holds at least MIN_SECRET_LENGTH characters. */
export function readTokenFile(file: string, flag: string, access: SecretFileAccess = OWNER_ONLY): string {
  return checkedToken(readSecretFile(file, flag, access), file, flag);
}

/** The secret of a secret file, its permission bits unchecked: the flag's own check at parse time. */
export function readSecretLine(file: string, flag: string): string {
  return firstLine(readFlagFile(file, flag), file, flag);
}

function firstLine(text: string, file: string, flag: string): string {
  const secret = text.split(/\r?\n/, 1)[0]!.trim();
  if (secret === '') throw new InvalidParams(`-${flag} ${file} is empty`, flag);
  return secret;
}

function checkedToken(token: string, file: string, flag: string): string {
  if (token.length < MIN_SECRET_LENGTH) {
    throw new InvalidParams(`-${flag} ${file} holds a token shorter than ${MIN_SECRET_LENGTH} characters: a token must be at least ${MIN_SECRET_LENGTH} (e.g. openssl rand -hex 32)`, flag);
  }
  return token;
}

/** The text of the regular file a flag names; an error naming the flag, the file and why otherwise. */
export function readFlagFile(file: string, flag: string): string {
  try {
    if (!statSync(file).isFile()) throw new Error('not a regular file');
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidParams(`cannot read -${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, flag);
  }
}

/**
 * Every secret file the flags name, read as its reader reads it (permission bits, tokens' length):
 * the CLI checks them all before it starts anything, so that a service never fails on one later.
 */
export function checkSecretFiles(flags: { string(name: string): string | undefined; boolean(name: string): boolean }): void {
  const access = secretFileAccess(flags);
  for (const [flag, holds] of Object.entries(SECRET_FILE_FLAGS)) {
    const file = flags.string(flag);
    if (file === undefined) continue;
    if (holds === 'token') readTokenFile(file, flag, access);
    else checkSecretMode(file, flag, access);
  }
}

/** -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca read: all three or none; the private key is a secret file. */
export function readTlsFiles(flags: { string(name: string): string | undefined; boolean(name: string): boolean }): { cert: Buffer; key: Buffer; ca: Buffer } | undefined {
  const names = ['grpc_tls_cert', 'grpc_tls_key', 'grpc_tls_ca'] as const;
  const given = names.filter((name) => flags.string(name) !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < names.length) {
    const missing = names.filter((name) => !given.includes(name)).map((name) => `-${name}`);
    throw new InvalidParams(`mutual TLS needs -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca together: ${missing.join(' and ')} missing`, missing[0]!.slice(1));
  }
  const access = secretFileAccess(flags);
  const [cert, key, ca] = names.map((name) => {
    const file = flags.string(name)!;
    if (name === 'grpc_tls_key') checkSecretMode(file, name, access);
    try {
      const pem = readFileSync(file);
      if (!pem.includes('-----BEGIN ')) throw new Error('not PEM');
      return pem;
    } catch (error) {
      throw new InvalidParams(`cannot read -${name} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, name);
    }
  });
  return { cert: cert!, key: key!, ca: ca! };
}

/** Whether a given secret equals the expected one, in constant time: digests of equal length are compared, so neither the secret nor its length leaks. */
export function secretsEqual(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
