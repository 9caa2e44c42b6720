/**
 * `ledger-node account generate | list` as a user runs them: real CLI processes, each asking a
 * real keystore process (a transient one, or the one already serving) over gRPC.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getProfile } from '@ledger-node/chain';
import { cliEntry, decryptKeyFile, startProcess, stopAll, tempDir, workspaceRoot, type RunningProcess } from '@ledger-node/test-utils';

const passphrase = 'account command test passphrase';
/** Every byte the CLI and keystores printed, scanned for secrets at the end. */
const transcript: string[] = [];
const cleanups: (() => void)[] = [];
const keystoreDirs: string[] = [];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without a terminal and without LEDGER_NODE_PASSWORD unless given, in `cwd` (this process's by default). */
function run(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<Result> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (env.LEDGER_NODE_PASSWORD === undefined) delete childEnv.LEDGER_NODE_PASSWORD;
  const child = spawn(process.execPath, [cliEntry(), ...args], { env: childEnv, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      transcript.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    }),
  );
}

function dataDir(): string {
  const { dir, remove } = tempDir('account-cli-');
  cleanups.push(remove);
  keystoreDirs.push(path.join(dir, 'keystore'));
  return dir;
}

const withPassword = { LEDGER_NODE_PASSWORD: passphrase };

afterAll(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('ledger-node account', () => {
  const dir = dataDir();
  const passwordFile = path.join(dir, 'passphrase.txt');
  writeFileSync(passwordFile, `${passphrase}\n`, { mode: 0o600 });
  let alice: { address: string; nickname: string; key_type: string; created: string };
  let bob: { address: string; nickname: string; key_type: string; created: string };

  it('generate -nickname alice (passphrase from LEDGER_NODE_PASSWORD) prints the new address', async () => {
    const result = await run(['account', 'generate', '-nickname', 'alice', '-data_dir', dir], withPassword);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const address = /^Generated account (r[1-9A-HJ-NP-Za-km-z]{24,34})$/m.exec(result.stdout)?.[1];
    expect(address).toBeDefined();
    expect(result.stdout).toContain('  nickname: alice\n  key type: secp256k1\n');
    expect(result.stdout).toContain(`  key file: ${path.join(dir, 'keystore', `${address}.json`)}\n`);
    // As geth does after `account new`: back up the key file, remember the passphrase.
    expect(result.stdout).toContain(`\nBack up the key file and keep the passphrase:\n  - back up ${path.join(dir, 'keystore', `${address}.json`)} (a copy somewhere other than this disk)`);
    expect(result.stdout).toContain('  - remember the passphrase: without it the key file cannot be decrypted');
    alice = { address: address!, nickname: 'alice', key_type: 'secp256k1', created: /created: {2}(\S+)/.exec(result.stdout)![1]! };
  });

  it('writes one key file per account, mode 0600 in a 0700 directory, with the clear fields', () => {
    const file = path.join(dir, 'keystore', `${alice.address}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, chain: 'xrpl', ...alice, crypto: { cipher: 'aes-256-gcm', kdf: 'scrypt' } });
  });

  it('generate -key_type ed25519 -json (passphrase from -password_file) prints the account as JSON', async () => {
    const result = await run(['account', 'generate', '-nickname', 'bob', '-key_type', 'ed25519', '-json', '-data_dir', dir, '-password_file', passwordFile]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    bob = JSON.parse(result.stdout);
    expect(bob).toEqual({ address: expect.stringMatching(/^r/), nickname: 'bob', key_type: 'ed25519', created: expect.any(String) });
    expect(readdirSync(path.join(dir, 'keystore')).sort()).toEqual([`${alice.address}.json`, `${bob.address}.json`].sort());
  });

  it('list prints a table of address, nickname, key type and creation time', async () => {
    const result = await run(['account', 'list', '-data_dir', dir]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const width = alice.address.length > bob.address.length ? alice.address.length : bob.address.length;
    expect(result.stdout).toBe(
      [
        `${'ADDRESS'.padEnd(width)}  NICKNAME  KEY TYPE   CREATED`,
        `${alice.address.padEnd(width)}  alice     secp256k1  ${alice.created}`,
        `${bob.address.padEnd(width)}  bob       ed25519    ${bob.created}`,
        '',
      ].join('\n'),
    );
  });

  it('list -json prints the same accounts as JSON', async () => {
    const result = await run(['account', 'list', '-json', '-data_dir', dir]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([alice, bob]);
  });

  it('refuses a duplicate nickname with a clear error and writes nothing', async () => {
    const result = await run(['account', 'generate', '-nickname', 'alice', '-data_dir', dir], withPassword);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`ledger-node: nickname "alice" is already used by account ${alice.address}\n`);
    expect(result.stdout).toBe('');
    expect(readdirSync(path.join(dir, 'keystore'))).toHaveLength(2);
  });

  it('refuses a passphrase that does not unlock the existing accounts, naming the file', async () => {
    const result = await run(['account', 'generate', '-nickname', 'carol', '-data_dir', dir], { LEDGER_NODE_PASSWORD: 'a different passphrase' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ledger-node: key file keystore\/r\w+\.json cannot be unlocked: wrong passphrase, or the file was modified\n$/);
    expect(readdirSync(path.join(dir, 'keystore'))).toHaveLength(2);
  });

  it('refuses a passphrase under 16 characters for the first account of a data directory (exit code 2), never showing it', async () => {
    const fresh = dataDir();
    const result = await run(['account', 'generate', '-data_dir', fresh], { LEDGER_NODE_PASSWORD: 'tooshort' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ledger-node: the passphrase of a new keystore must be at least 16 characters \(-password_file, LEDGER_NODE_PASSWORD or the prompt\)/);
    expect(result.stderr + result.stdout).not.toContain('tooshort');
    expect(existsSync(path.join(fresh, 'keystore')) ? readdirSync(path.join(fresh, 'keystore')) : []).toEqual([]);
  });

  it('without a passphrase and without a terminal, says how to give one (exit code 2)', async () => {
    const result = await run(['account', 'generate', '-data_dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('ledger-node: no passphrase: give -password_file FILE or set LEDGER_NODE_PASSWORD (or run on a terminal to be asked)\n');
  });

  it('names a corrupt key file in a warning and still lists the other accounts', async () => {
    const other = dataDir();
    const made = await run(['account', 'generate', '-nickname', 'dave', '-json', '-data_dir', other], withPassword);
    const dave = JSON.parse(made.stdout);
    const broken = path.join(other, 'keystore', 'rBROKENxxxxxxxxxxxxxxxxxxxxxxxxxxx.json');
    writeFileSync(broken, '{"version": 1, "addr', { mode: 0o600 });
    const result = await run(['account', 'list', '-json', '-data_dir', other]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([dave]);
    expect(result.stderr).toMatch(new RegExp(`^ledger-node: warning: key file keystore/rBROKENx+\\.json is not valid JSON \\(.+\\)\\n$`));
  });

  it('-chain jingtum gives a j address', async () => {
    const jingtumDir = dataDir();
    const result = await run(['account', 'generate', '-chain', 'jingtum', '-nickname', 'swt', '-json', '-data_dir', jingtumDir], withPassword);
    expect(result.code).toBe(0);
    const account = JSON.parse(result.stdout);
    expect(account.address).toMatch(/^j/);
    expect(getProfile('jingtum').codec.isValidAddress(account.address)).toBe(true);
    const listed = await run(['account', 'list', '-chain', 'jingtum', '-json', '-data_dir', jingtumDir]);
    expect(JSON.parse(listed.stdout)).toEqual([account]);
  });

  describe('with a keystore already serving at -keystore_addr', () => {
    let keystore: RunningProcess;

    it('asks that keystore: no passphrase is needed in the CLI', async () => {
      const served = dataDir();
      keystore = startProcess([cliEntry(), 'serve', 'keystore', '-data_dir', served], { env: withPassword });
      await keystore.waitFor(/"msg":"serving"/);
      const result = await run(['account', 'generate', '-nickname', 'erin', '-json', '-data_dir', served]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const erin = JSON.parse(result.stdout);
      await keystore.waitFor(new RegExp(`"address":"${erin.address}".*"msg":"account generated"`));
      const listed = await run(['account', 'list', '-json', '-data_dir', served]);
      expect(JSON.parse(listed.stdout)).toEqual([erin]);
      transcript.push(keystore.output());
    });

    it('says so when that keystore was started without a passphrase: the one given here does not reach it', async () => {
      const served = dataDir();
      const withoutPassphrase = startProcess([cliEntry(), 'serve', 'keystore', '-data_dir', served]);
      await withoutPassphrase.waitFor(/"msg":"serving"/);
      const result = await run(['account', 'generate', '-nickname', 'frank', '-data_dir', served], withPassword);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`the running node's keystore at unix:${served}/run/keystore.sock was started without a passphrase (one given to this command does not reach it)`);
      expect(result.stderr).toContain('restart the node with -password_file FILE or LEDGER_NODE_PASSWORD, or stop it to generate the account offline');
      expect(result.stderr).not.toContain(passphrase);
      await withoutPassphrase.stop();
    });
  });

  describe('without -data_dir', () => {
    it('generate writes to .data in the working directory, where `npm start` runs the node: the node\'s keystore lists the account', async () => {
      const checkout = dataDir();
      const generated = await run(['account', 'generate', '-nickname', 'frank', '-json'], withPassword, checkout);
      expect(generated.stderr).toBe('');
      const frank = JSON.parse(generated.stdout);
      expect(readdirSync(path.join(checkout, '.data', 'keystore'))).toEqual([`${frank.address}.json`]);
      keystoreDirs.push(path.join(checkout, '.data', 'keystore'));

      // `npm start` gives no -data_dir either: its node (here its keystore, started the same way) reads the same directory.
      const start = (JSON.parse(readFileSync(path.join(workspaceRoot(), 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
      expect(start[0]).toBe('ledger-node');
      expect(start.some((arg) => /^--?data_dir(=|$)/.test(arg))).toBe(false);
      const keystore = startProcess([cliEntry(), 'serve', 'keystore'], { env: withPassword, cwd: checkout });
      await keystore.waitFor(/"msg":"serving"/);
      const listed = await run(['account', 'list', '-json'], {}, checkout);
      expect(JSON.parse(listed.stdout)).toEqual([frank]);
      transcript.push(keystore.output());
    });
  });

  it('never prints a seed, private key or passphrase', () => {
    const secrets = [passphrase, 'a different passphrase'];
    for (const directory of keystoreDirs) {
      let names: string[] = [];
      try {
        names = readdirSync(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      for (const name of names.filter((entry) => /^[rj]\w+\.json$/.test(entry) && !entry.startsWith('rBROKEN'))) {
        const file = path.join(directory, name);
        const chain = JSON.parse(readFileSync(file, 'utf8')).chain as string;
        const seed = decryptKeyFile(file, passphrase);
        const privateKey = getProfile(chain).keys.deriveKeypair(seed).privateKey.slice(2);
        secrets.push(seed, privateKey, privateKey.toLowerCase());
      }
    }
    // alice, bob, dave, swt, erin and frank.
    expect(secrets.length).toBe(2 + 3 * 6);
    const everything = transcript.join('\n');
    expect(everything).toContain(alice.address);
    for (const secret of secrets) expect(everything.includes(secret), `a secret of ${secret.length} characters was printed`).toBe(false);
  });
});
