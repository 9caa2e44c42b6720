import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { tempDir } from '@ledger-node/test-utils';
import { encryptKeyFile, writeKeyFile } from './keyFile';
import { Keystore } from './keystore';

const xrpl = getProfile('xrpl');
const testScrypt = { n: 2 ** 10, r: 8, p: 1, dklen: 32 };
const passphrase = 'keystore unit test passphrase';

describe('Keystore', () => {
  let directory: { dir: string; remove: () => void };
  let keystoreDir: string;
  /** `null`: a keystore started without a passphrase. */
  const open = (secret: string | null = passphrase) => new Keystore({ directory: keystoreDir, profile: xrpl, passphrase: secret ?? undefined, scrypt: testScrypt });

  beforeEach(() => {
    directory = tempDir('keystore-');
    keystoreDir = path.join(directory.dir, 'keystore');
  });
  afterEach(() => directory.remove());

  it('lists nothing before the first account, without creating the directory', () => {
    expect(open(null).scan()).toEqual({ accounts: [], problems: [] });
  });

  it('generates accounts that list oldest first and resolve by address or nickname', async () => {
    const keystore = open();
    const alice = await keystore.generate({ nickname: 'alice', keyType: 'secp256k1' });
    const second = await keystore.generate({ keyType: 'ed25519' });
    expect(keystore.scan().accounts).toEqual([
      { chain: 'xrpl', address: alice.address, nickname: 'alice', keyType: 'secp256k1', created: alice.created },
      { chain: 'xrpl', address: second.address, nickname: null, keyType: 'ed25519', created: second.created },
    ]);
    expect(keystore.resolve('alice').document.address).toBe(alice.address);
    expect(keystore.resolve(second.address).document.key_type).toBe('ed25519');
    const key = await keystore.withKey('alice', (unlocked) => unlocked);
    expect(xrpl.keys.deriveAddress(key.publicKey)).toBe(alice.address);
  });

  it('refuses a duplicate nickname, also when asked twice at once', async () => {
    const keystore = open();
    const results = await Promise.allSettled([keystore.generate({ nickname: 'twin', keyType: 'secp256k1' }), keystore.generate({ nickname: 'twin', keyType: 'secp256k1' })]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: 'conflict', message: expect.stringMatching(/^nickname "twin" is already used by account r/) });
    expect(keystore.scan().accounts).toHaveLength(1);
  });

  it.each([
    ['has a space', 'my account', 'nickname must be 1-64 letters, digits, _ . or -'],
    ['is an address', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'nickname must not be an address'],
  ])('refuses a nickname that %s', async (_case, nickname, message) => {
    await expect(open().generate({ nickname, keyType: 'secp256k1' })).rejects.toMatchObject({ kind: 'invalid_params', message });
  });

  it('answers "no local account" for an unknown address or nickname', async () => {
    await expect(open().withKey('nobody', () => 0)).rejects.toMatchObject({ kind: 'no_local_account', message: 'no local account "nobody"' });
  });

  it('creates and signs nothing without a passphrase', async () => {
    await open().generate({ nickname: 'alice', keyType: 'secp256k1' });
    const locked = open(null);
    expect(locked.scan().accounts).toHaveLength(1);
    await expect(locked.withKey('alice', () => 0)).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/has no passphrase/) });
    await expect(locked.generate({ keyType: 'secp256k1' })).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('refuses a new account under a passphrase that does not unlock the existing ones', async () => {
    const alice = await open().generate({ nickname: 'alice', keyType: 'secp256k1' });
    await expect(open('another passphrase').generate({ nickname: 'bob', keyType: 'secp256k1' })).rejects.toMatchObject({
      kind: 'unavailable',
      message: `key file keystore/${alice.address}.json cannot be unlocked: wrong passphrase, or the file was modified`,
    });
    expect(open().scan().accounts.map((account) => account.nickname)).toEqual(['alice']);
  });

  it('refuses a new keystore under a passphrase shorter than 16 characters, naming the rule, never the passphrase', async () => {
    const refusal = open('fifteen chars!!').generate({ nickname: 'alice', keyType: 'secp256k1' });
    await expect(refusal).rejects.toMatchObject({ kind: 'invalid_params', message: expect.stringMatching(/^the passphrase of a new keystore must be at least 16 characters/) });
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining('fifteen chars!!') });
    expect(open(null).scan().accounts).toEqual([]);
  });

  it('keeps an existing keystore whose passphrase is shorter: its accounts sign, and it takes new ones', async () => {
    const short = 'short';
    const seed = xrpl.keys.generateSeed({ algorithm: 'secp256k1' });
    const address = xrpl.keys.deriveAddress(xrpl.keys.deriveKeypair(seed).publicKey);
    const metadata = { chain: xrpl.id, address, nickname: 'legacy', keyType: 'secp256k1' as const, created: new Date().toISOString() };
    writeKeyFile(keystoreDir, await encryptKeyFile(metadata, seed, short, testScrypt));
    const keystore = open(short);
    expect(await keystore.withKey('legacy', (key) => key.address)).toBe(address);
    expect((await keystore.generate({ nickname: 'second', keyType: 'ed25519' })).nickname).toBe('second');
  });

  it('keeps serving the other accounts when one key file is corrupt, and names that file', async () => {
    const keystore = open();
    const alice = await keystore.generate({ nickname: 'alice', keyType: 'secp256k1' });
    const bob = await keystore.generate({ nickname: 'bob', keyType: 'secp256k1' });
    writeFileSync(bob.file, readFileSync(bob.file, 'utf8').slice(0, 40));
    const { accounts, problems } = keystore.scan();
    expect(accounts.map((account) => account.address)).toEqual([alice.address]);
    expect(problems.map((problem) => [problem.file, problem.code])).toEqual([[bob.file, 'KEY_FILE_INVALID']]);
    await expect(keystore.withKey('bob', () => 0)).rejects.toMatchObject({ kind: 'no_local_account', message: `no local account "bob" (1 key file(s) could not be read: keystore/${bob.address}.json)` });
    // By address the file is the account's own: its problem is the answer.
    await expect(keystore.withKey(bob.address, () => 0)).rejects.toMatchObject({ kind: 'unavailable', code: 'KEY_FILE_INVALID', file: bob.file });
  });
});
