import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@ledger-node/test-utils';
import { allFlags } from './options/index';
import { parseFlags } from './parse';
import { checkSecretFiles, MIN_SECRET_LENGTH, readSecretFile, readTlsFiles, readTokenFile, SECRET_FILE_FLAGS } from './secrets';

const { dir, remove } = tempDir('secret-files-');
afterAll(remove);

const TOKEN = 'a-token-of-24-characters';
const SHORT_TOKEN = 'abcde';
const PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n';

let files = 0;
/** A new file holding `text`, with exactly `mode` (whatever the umask). */
function secretFile(text: string, mode: number): string {
  const file = path.join(dir, `secret-${files++}`);
  writeFileSync(file, text, { mode });
  chmodSync(file, mode);
  return file;
}

const flagsOf = (...argv: string[]) => parseFlags(argv, allFlags).flags;
/** What checkSecretFiles says about the flags, '' when it accepts them. */
function refusal(...argv: string[]): string {
  try {
    checkSecretFiles(flagsOf(...argv));
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/** A valid content for each secret file flag. */
const contentOf: Record<keyof typeof SECRET_FILE_FLAGS, string> = {
  rpc_token_file: `${TOKEN}\n`,
  keystore_token_file: `${TOKEN}\n`,
  password_file: 'a keystore passphrase\n',
  store_password_file: 'a database password\n',
  endpoint_file: 'wss://user:pass@node.example\n',
  grpc_tls_key: PEM,
};
const secretFlags = Object.keys(SECRET_FILE_FLAGS) as (keyof typeof SECRET_FILE_FLAGS)[];

describe('tokens', () => {
  it.each(['rpc_token_file', 'keystore_token_file'])('-%s refuses a token shorter than 16 characters, naming the flag, the file and the rule, never the token', (flag) => {
    const file = secretFile(`${SHORT_TOKEN}\n`, 0o600);
    const message = refusal(`-${flag}`, file);
    expect(message).toBe(`-${flag} ${file} holds a token shorter than 16 characters: a token must be at least 16 (e.g. openssl rand -hex 32)`);
    expect(message).not.toContain(SHORT_TOKEN);
    expect(() => readTokenFile(file, flag)).toThrow(message);
  });

  it('takes a token of 16 characters or more: its first line, trimmed', () => {
    expect(MIN_SECRET_LENGTH).toBe(16);
    expect(readTokenFile(secretFile(`  ${'x'.repeat(16)}  \nsecond line\n`, 0o600), 'rpc_token_file')).toBe('x'.repeat(16));
    expect(refusal('-rpc_token_file', secretFile(`${TOKEN}\n`, 0o400), '-keystore_token_file', secretFile(`${TOKEN}\n`, 0o600))).toBe('');
  });
});

describe('secret files', () => {
  it('lists every flag that names a secret file', () => {
    expect(secretFlags.sort()).toEqual(['endpoint_file', 'grpc_tls_key', 'keystore_token_file', 'password_file', 'rpc_token_file', 'store_password_file']);
    for (const flag of secretFlags) expect(allFlags.some((spec) => spec.name === flag), flag).toBe(true);
  });

  it.each(secretFlags)('-%s: mode 0600 and 0400 are accepted', (flag) => {
    for (const mode of [0o600, 0o400]) expect(refusal(`-${flag}`, secretFile(contentOf[flag], mode)), mode.toString(8)).toBe('');
  });

  it.each(secretFlags)('-%s: a file its group or others may read is refused, naming the file, its mode and the chmod that fixes it', (flag) => {
    for (const mode of [0o644, 0o640, 0o604, 0o440, 0o660, 0o666]) {
      const file = secretFile(contentOf[flag], mode);
      const message = refusal(`-${flag}`, file);
      expect(message).toBe(
        `-${flag} ${file} has mode 0${mode.toString(8)}: a secret file must be readable by its owner only (0600 or 0400; 0640 or 0440 with -secret_group_read); run chmod 600 ${file}`,
      );
      expect(message).not.toContain(contentOf[flag].trim());
    }
  });

  it.each(secretFlags)('-%s with -secret_group_read: its group may read it (0640, 0440), never write it, and others never read it', (flag) => {
    for (const mode of [0o640, 0o440, 0o600]) expect(refusal(`-${flag}`, secretFile(contentOf[flag], mode), '-secret_group_read'), mode.toString(8)).toBe('');
    for (const mode of [0o660, 0o644, 0o444, 0o604]) {
      const file = secretFile(contentOf[flag], mode);
      expect(refusal('-secret_group_read', `-${flag}`, file), mode.toString(8)).toBe(
        `-${flag} ${file} has mode 0${mode.toString(8)}: a secret file must be readable by its owner and group only, writable by its owner only (0600, 0400, 0640 or 0440); run chmod 640 ${file}`,
      );
    }
  });

  it('reads a secret file only once its mode passes', () => {
    const open = secretFile('hunter2-password\n', 0o644);
    expect(() => readSecretFile(open, 'store_password_file')).toThrow(/has mode 0644/);
    chmodSync(open, 0o600);
    expect(readSecretFile(open, 'store_password_file')).toBe('hunter2-password');
  });

  it('refuses what is not a regular file, and a file that is not there, by name', () => {
    expect(refusal('-password_file', dir)).toBe(`cannot read -password_file ${dir}: not a regular file`);
    expect(refusal('-password_file', path.join(dir, 'absent'))).toBe(`cannot read -password_file ${path.join(dir, 'absent')}: ENOENT`);
  });

  it('checks the TLS private key, not the certificates', () => {
    const cert = secretFile('-----BEGIN CERTIFICATE-----\n', 0o644);
    const ca = secretFile('-----BEGIN CERTIFICATE-----\n', 0o644);
    const key = secretFile(PEM, 0o644);
    const tls = (...extra: string[]) => readTlsFiles(flagsOf('-grpc_tls_cert', cert, '-grpc_tls_key', key, '-grpc_tls_ca', ca, ...extra));
    expect(() => tls()).toThrow(`-grpc_tls_key ${key} has mode 0644`);
    chmodSync(key, 0o440);
    expect(() => tls()).toThrow(`-grpc_tls_key ${key} has mode 0440`);
    expect(tls('-secret_group_read')?.key.toString()).toBe(PEM);
  });
});
