import { chmodSync, copyFileSync, readFileSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { tempDir } from '@ledger-node/test-utils';
import { readKeyFile } from './keyFile';
import { Keystore } from './keystore';

// Every read of a key file, counted.
const reads = vi.fn(readKeyFile);
const readFiles = () => reads.mock.calls.map(([file]) => path.basename(file)).sort();

const xrpl = getProfile('xrpl');
const testScrypt = { n: 2 ** 10, r: 8, p: 1, dklen: 32 };
const passphrase = 'key file catalog test passphrase';

describe('the keystore reads each key file once while it stays the same file', () => {
  let directory: { dir: string; remove: () => void };
  let keystoreDir: string;
  const tightened: [string, number][] = [];
  const open = () =>
    new Keystore({ directory: keystoreDir, profile: xrpl, passphrase, scrypt: testScrypt, readKeyFile: reads, onTightened: (file, mode) => tightened.push([path.basename(file), mode]) });

  beforeEach(() => {
    directory = tempDir('key-file-catalog-');
    keystoreDir = path.join(directory.dir, 'keystore');
    tightened.length = 0;
  });
  afterEach(() => directory.remove());

  it('a second listing, resolving or signing reads no unchanged file again', async () => {
    const writer = open();
    const alice = await writer.generate({ nickname: 'alice', keyType: 'secp256k1' });
    const bob = await writer.generate({ nickname: 'bob', keyType: 'ed25519' });
    const keystore = open();
    reads.mockClear();
    expect(keystore.scan().accounts.map((account) => account.address)).toEqual([alice.address, bob.address]);
    expect(readFiles()).toEqual([`${alice.address}.json`, `${bob.address}.json`].sort());
    reads.mockClear();
    keystore.scan();
    keystore.resolve('alice');
    keystore.resolve(bob.address);
    const signed = await keystore.withKey('bob', (key) => key.address);
    expect(signed).toBe(bob.address);
    expect(reads).not.toHaveBeenCalled();
  });

  it('sees a new key file at the next call, reading it alone', async () => {
    const keystore = open();
    const alice = await keystore.generate({ nickname: 'alice', keyType: 'secp256k1' });
    keystore.scan();
    // Another keystore of the same directory (the CLI's transient one) adds an account.
    const carol = await open().generate({ nickname: 'carol', keyType: 'secp256k1' });
    reads.mockClear();
    expect(keystore.scan().accounts.map((account) => account.nickname)).toEqual(['alice', 'carol']);
    expect(readFiles()).toEqual([`${carol.address}.json`]);
    expect(keystore.resolve('carol').document.address).toBe(carol.address);
    expect(alice.address).not.toBe(carol.address);
  });

  it('reads a key file again once it changed (replaced, cut short), and forgets one removed', async () => {
    const keystore = open();
    const alice = await keystore.generate({ nickname: 'alice', keyType: 'secp256k1' });
    const file = path.join(keystoreDir, `${alice.address}.json`);
    keystore.scan();
    // Replaced by a copy of itself (a restore from backup): another inode.
    copyFileSync(file, `${file}.copy`);
    unlinkSync(file);
    copyFileSync(`${file}.copy`, file);
    unlinkSync(`${file}.copy`);
    chmodSync(file, 0o600);
    reads.mockClear();
    expect(keystore.scan().accounts).toHaveLength(1);
    expect(readFiles()).toEqual([`${alice.address}.json`]);
    truncateSync(file, statSync(file).size - 10);
    reads.mockClear();
    expect(keystore.scan()).toMatchObject({ accounts: [], problems: [{ code: 'KEY_FILE_INVALID' }] });
    expect(readFiles()).toEqual([`${alice.address}.json`]);
    unlinkSync(file);
    expect(keystore.scan()).toEqual({ accounts: [], problems: [] });
  });

  it('keeps no secret: what it holds of a key file is what the file holds at rest', async () => {
    const keystore = open();
    const alice = await keystore.generate({ nickname: 'alice', keyType: 'secp256k1' });
    const held = JSON.stringify(keystore.resolve('alice').document);
    expect(JSON.parse(held)).toEqual(JSON.parse(readFileSync(path.join(keystoreDir, `${alice.address}.json`), 'utf8')));
    const key = await keystore.withKey('alice', (unlocked) => unlocked);
    expect(held).not.toContain(key.privateKey);
  });

  it('takes group and other permission bits off a key file (as the kubelet leaves them under fsGroup), saying so, and reads it', async () => {
    const keystore = open();
    const alice = await keystore.generate({ nickname: 'alice', keyType: 'secp256k1' });
    const file = path.join(keystoreDir, `${alice.address}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    chmodSync(file, 0o660);
    expect(keystore.scan().accounts).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(tightened).toEqual([[`${alice.address}.json`, 0o660]]);
    writeFileSync(path.join(keystoreDir, 'notes.txt'), 'not a key file', { mode: 0o644 });
    keystore.scan();
    expect(statSync(path.join(keystoreDir, 'notes.txt')).mode & 0o777).toBe(0o644);
  });
});
