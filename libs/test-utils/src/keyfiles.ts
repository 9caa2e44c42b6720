import { spawnSync } from 'node:child_process';
import { createDecipheriv, scryptSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { devnetValidatorsFileText, getProfile, type ChainId } from '@ledger-node/chain';
import { cliEntry } from './processes';

/**
 * Decrypts a keystore key file by the procedure docs/operating.md documents, with node:crypto alone:
 * scrypt(passphrase, salt, dklen, {N, r, p}) → AES-256-GCM key; the additional data is the JSON
 * array [version, chain, address, nickname, key_type, created]. Tests use it to know which secrets
 * must never appear in any output.
 */
export function decryptKeyFile(file: string, passphrase: string): string {
  const document = JSON.parse(readFileSync(file, 'utf8'));
  const { kdfparams, iv, tag, ciphertext } = document.crypto;
  const key = scryptSync(passphrase, Buffer.from(kdfparams.salt, 'hex'), kdfparams.dklen, { N: kdfparams.n, r: kdfparams.r, p: kdfparams.p, maxmem: 256 * 1024 * 1024 });
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'hex'));
  decipher.setAAD(Buffer.from(JSON.stringify([document.version, document.chain, document.address, document.nickname, document.key_type, document.created])));
  decipher.setAuthTag(Buffer.from(tag, 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'hex')), decipher.final()]).toString('utf8');
}

/** Writes a `-validators` file naming the devnet's validator into `dir`; returns its path. */
export function devnetValidatorsFile(dir: string, chain: ChainId = 'xrpl'): string {
  const file = path.join(dir, `devnet-validators-${chain}.txt`);
  writeFileSync(file, devnetValidatorsFileText(getProfile(chain)));
  return file;
}

/**
 * A local account made with the CLI (`ledger-node account generate -nickname <nickname>`) in
 * `dataDir`, and the passphrase written to `<dataDir>/password` (mode 0600) for -password_file.
 */
export function generateLocalAccount(dataDir: string, nickname: string, passphrase: string): { address: string; passwordFile: string } {
  const generated = spawnSync(process.execPath, [cliEntry(), 'account', 'generate', '-nickname', nickname, '-data_dir', dataDir, '-json'], {
    env: { ...process.env, LEDGER_NODE_PASSWORD: passphrase },
    encoding: 'utf8',
  });
  if (generated.status !== 0) throw new Error(`ledger-node account generate failed (${generated.status}): ${generated.stderr}`);
  const passwordFile = path.join(dataDir, 'password');
  writeFileSync(passwordFile, `${passphrase}\n`, { mode: 0o600 });
  return { address: JSON.parse(generated.stdout).address as string, passwordFile };
}
