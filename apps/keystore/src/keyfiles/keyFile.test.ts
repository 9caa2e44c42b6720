import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { tempDir } from '@ledger-node/test-utils';
import { KeyFileError } from './errors';
import {
  DEFAULT_SCRYPT,
  decryptKeyFile,
  encryptKeyFile,
  ensureKeystoreDirectory,
  keyFilePath,
  readKeyFile,
  removeAbandonedTempFiles,
  UnlockedKeys,
  writeKeyFile,
  type AccountMetadata,
} from './keyFile';

const xrpl = getProfile('xrpl');
const passphrase = 'correct horse battery staple';
/** Cheap parameters for tests; the format and checks are the same at any cost. */
const testScrypt = { n: 2 ** 10, r: 8, p: 1, dklen: 32 };
const seed = xrpl.keys.generateSeed({ entropy: new Uint8Array(16).fill(42) });
const address = xrpl.keys.deriveAddress(xrpl.keys.deriveKeypair(seed).publicKey);
const metadata: AccountMetadata = { chain: 'xrpl', address, nickname: 'alice', keyType: 'secp256k1', created: '2025-01-02T03:04:05.678Z' };

/** Asserts `run` fails with a KeyFileError of `code` naming `file`, and the file is byte-for-byte unchanged. */
async function expectRefused(file: string, code: string, run: () => Promise<unknown>) {
  const before = readFileSync(file);
  const error = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(KeyFileError);
  expect((error as KeyFileError).code).toBe(code);
  // Callers see the file under the data directory, never the host's path; the keystore's log has that.
  expect((error as KeyFileError).message).toContain(`key file keystore/${path.basename(file)} `);
  expect((error as KeyFileError).message).not.toContain(path.dirname(file));
  expect((error as KeyFileError).file).toBe(file);
  expect(readFileSync(file)).toEqual(before);
}

describe('key file', () => {
  let directory: { dir: string; remove: () => void };
  let file: string;

  beforeEach(async () => {
    directory = tempDir('keyfile-');
    file = writeKeyFile(path.join(directory.dir, 'keystore'), await encryptKeyFile(metadata, seed, passphrase, testScrypt));
  });
  afterEach(() => directory.remove());

  it('round-trips: the clear fields read back as written and the passphrase recovers the seed', async () => {
    expect(file).toBe(keyFilePath(path.join(directory.dir, 'keystore'), address));
    const document = readKeyFile(file);
    expect(document).toMatchObject({ version: 1, chain: 'xrpl', address, nickname: 'alice', key_type: 'secp256k1', created: metadata.created });
    expect(document.crypto).toMatchObject({ cipher: 'aes-256-gcm', kdf: 'scrypt', kdfparams: { ...testScrypt } });
    expect(await decryptKeyFile(file, document, passphrase)).toBe(seed);
  });

  it('keeps a derived key for -unlock_seconds only: meanwhile no derivation (a wrong passphrase is not even tried), then zeroed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const document = readKeyFile(file);
      const unlocked = new UnlockedKeys(30_000);
      expect(await decryptKeyFile(file, document, passphrase, unlocked)).toBe(seed);
      expect(unlocked.size).toBe(1);
      // The key kept is the one derived from the right passphrase: no derivation happens while it is kept.
      expect(await decryptKeyFile(file, document, 'wrong passphrase', unlocked)).toBe(seed);
      vi.advanceTimersByTime(30_001);
      expect(unlocked.size).toBe(0);
      await expectRefused(file, 'KEY_FILE_LOCKED', () => decryptKeyFile(file, document, 'wrong passphrase', unlocked));
      const none = new UnlockedKeys(0);
      expect(await decryptKeyFile(file, document, passphrase, none)).toBe(seed);
      expect(none.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds the seed only encrypted: neither the seed nor the passphrase appears in the file', () => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(seed);
    expect(text).not.toContain(Buffer.from(seed).toString('hex'));
    expect(text).not.toContain(passphrase);
  });

  it('uses scrypt N=2^17, r=8, p=1, dklen=32 by default', async () => {
    expect(DEFAULT_SCRYPT).toEqual({ n: 131072, r: 8, p: 1, dklen: 32 });
    const document = await encryptKeyFile(metadata, seed, passphrase);
    expect(document.crypto.kdfparams).toMatchObject({ n: 131072, r: 8, p: 1, dklen: 32 });
    expect(document.crypto.kdfparams.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(await decryptKeyFile('memory', document, passphrase)).toBe(seed);
  });

  it('is written with mode 0600 in a directory of mode 0700, leaving no temp file', () => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual([`${address}.json`]);
  });

  it('tightens an existing directory without making a read-only one writable again', () => {
    const keystoreDir = path.dirname(file);
    chmodSync(keystoreDir, 0o755);
    ensureKeystoreDirectory(keystoreDir);
    expect(statSync(keystoreDir).mode & 0o777).toBe(0o700);
    chmodSync(keystoreDir, 0o555);
    ensureKeystoreDirectory(keystoreDir);
    expect(statSync(keystoreDir).mode & 0o777).toBe(0o500);
    chmodSync(keystoreDir, 0o700);
  });

  it('removes the temp files of writes whose process is gone, and no other file', () => {
    const keystoreDir = path.dirname(file);
    // Above Linux's largest pid_max (2^22): no process has it.
    const gone = `.${address}.${2 ** 22 + 1}.0123abcd.tmp`;
    const live = `.${address}.${process.ppid}.0123abcd.tmp`;
    for (const name of [gone, live]) writeFileSync(path.join(keystoreDir, name), '{"vers');
    expect(removeAbandonedTempFiles(keystoreDir)).toEqual([gone]);
    expect(readdirSync(keystoreDir).sort()).toEqual([live, `${address}.json`]);
  });

  it('is never overwritten: a second write of the same address fails and keeps the first file', async () => {
    const second = await encryptKeyFile({ ...metadata, nickname: 'mallory' }, seed, 'other passphrase', testScrypt);
    const before = readFileSync(file);
    expect(() => writeKeyFile(path.dirname(file), second)).toThrow(/already exists; it is never overwritten/);
    expect(readFileSync(file)).toEqual(before);
    expect(readdirSync(path.dirname(file))).toEqual([`${address}.json`]);
  });

  it('refuses a wrong passphrase with an error naming the file', async () => {
    await expectRefused(file, 'KEY_FILE_LOCKED', () => decryptKeyFile(file, readKeyFile(file), 'wrong passphrase'));
  });

  it('refuses a changed ciphertext byte', async () => {
    const document = readKeyFile(file);
    const flipped = (document.crypto.ciphertext[0] === '0' ? '1' : '0') + document.crypto.ciphertext.slice(1);
    writeFileSync(file, JSON.stringify({ ...document, crypto: { ...document.crypto, ciphertext: flipped } }));
    await expectRefused(file, 'KEY_FILE_LOCKED', () => decryptKeyFile(file, readKeyFile(file), passphrase));
  });

  it.each([
    ['nickname', { nickname: 'bob' }],
    ['nickname removed', { nickname: null }],
    ['key_type', { key_type: 'ed25519' }],
    ['created', { created: '2020-01-01T00:00:00.000Z' }],
  ])('refuses an edited clear field (%s): it is authenticated with the seed', async (_field, change) => {
    writeFileSync(file, JSON.stringify({ ...readKeyFile(file), ...change }));
    await expectRefused(file, 'KEY_FILE_LOCKED', () => decryptKeyFile(file, readKeyFile(file), passphrase));
  });

  it('refuses an edited address: the file name no longer matches, and the tag fails under the right name', async () => {
    const other = xrpl.keys.deriveAddress(xrpl.keys.deriveKeypair(xrpl.keys.generateSeed({ entropy: new Uint8Array(16).fill(1) })).publicKey);
    const document = readKeyFile(file);
    writeFileSync(file, JSON.stringify({ ...document, address: other }));
    await expectRefused(file, 'KEY_FILE_INVALID', async () => readKeyFile(file));
    const renamed = keyFilePath(path.dirname(file), other);
    writeFileSync(renamed, JSON.stringify({ ...document, address: other }));
    await expectRefused(renamed, 'KEY_FILE_LOCKED', () => decryptKeyFile(renamed, readKeyFile(renamed), passphrase));
  });

  it('refuses lowered scrypt parameters (the derived key changes)', async () => {
    const document = readKeyFile(file);
    writeFileSync(file, JSON.stringify({ ...document, crypto: { ...document.crypto, kdfparams: { ...document.crypto.kdfparams, r: 1 } } }));
    await expectRefused(file, 'KEY_FILE_LOCKED', () => decryptKeyFile(file, readKeyFile(file), passphrase));
  });

  it.each([
    ['truncated JSON', (text: string) => text.slice(0, text.length / 2), /is not valid JSON/],
    ['not an object', () => '[1, 2]', /not a JSON object/],
    ['unknown version', (text: string) => text.replace('"version": 1', '"version": 9'), /unsupported version 9/],
    ['no crypto section', (text: string) => JSON.stringify({ ...JSON.parse(text), crypto: undefined }), /crypto missing/],
    ['a short IV', (text: string) => text.replace(/"iv": "[0-9a-f]+"/, '"iv": "00"'), /crypto.iv must be 12 bytes/],
    ['a scrypt N that is not a power of two', (text: string) => text.replace('"n": 1024', '"n": 1000'), /kdfparams.n must be a power of two/],
  ])('refuses a corrupt file (%s) with an error naming the file', async (_case, corrupt, message) => {
    writeFileSync(file, corrupt(readFileSync(file, 'utf8')));
    await expectRefused(file, 'KEY_FILE_INVALID', async () => readKeyFile(file));
    expect(() => readKeyFile(file)).toThrow(message);
  });
});
