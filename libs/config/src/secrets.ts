import { readFileSync, statSync } from 'node:fs';
import { InvalidParams } from '@ledger-node/errors';

/**
 * A secret (token, passphrase) read from the file a flag names: the first line, trimmed. The value
 * never appears in errors; the flag and the file do.
 */
export function readSecretFile(file: string, flag: string): string {
  let text: string;
  try {
    if (!statSync(file).isFile()) throw new Error('not a regular file');
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidParams(`cannot read -${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, flag);
  }
  const secret = text.split(/\r?\n/, 1)[0]!.trim();
  if (secret === '') throw new InvalidParams(`-${flag} ${file} is empty`, flag);
  return secret;
}
