import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { InvalidParams } from '@ledger-node/errors';

/**
 * A secret (token, passphrase) read from the file a flag names: the first line, trimmed. The value
 * never appears in errors; the flag and the file do.
 */
export function readSecretFile(file: string, flag: string): string {
  const text = readFlagFile(file, flag);
  const secret = text.split(/\r?\n/, 1)[0]!.trim();
  if (secret === '') throw new InvalidParams(`-${flag} ${file} is empty`, flag);
  return secret;
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

/** -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca read: all three or none. */
export function readTlsFiles(flags: { string(name: string): string | undefined }): { cert: Buffer; key: Buffer; ca: Buffer } | undefined {
  const names = ['grpc_tls_cert', 'grpc_tls_key', 'grpc_tls_ca'] as const;
  const given = names.filter((name) => flags.string(name) !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < names.length) {
    const missing = names.filter((name) => !given.includes(name)).map((name) => `-${name}`);
    throw new InvalidParams(`mutual TLS needs -grpc_tls_cert, -grpc_tls_key and -grpc_tls_ca together: ${missing.join(' and ')} missing`, missing[0]!.slice(1));
  }
  const [cert, key, ca] = names.map((name) => {
    const file = flags.string(name)!;
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
