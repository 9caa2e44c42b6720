/**
 * The keystore under fault, as figures: real keystore processes asked over real gRPC, and a whole
 * node (supervisor, facade, keystore) asked over JSON-RPC. The keystore is killed with SIGKILL while
 * signatures are in flight and while it creates accounts; its key directory is made read-only; a
 * key file is cut short at a random byte. Random choices come from a printed seed. Printed:
 * `figures keystore-faults: …`; hung callers, crashes, half-written files, failed other accounts
 * and shown secrets must be 0.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as keypairs from 'ripple-keypairs';
import { getProfile, type KeyAlgorithm } from '@ledger-node/chain';
import { KeyType, KeystoreServiceService } from '@ledger-node/contracts';
import { isLedgerNodeError, type LedgerNodeError } from '@ledger-node/errors';
import { createGrpcClient } from '@ledger-node/grpc';
import {
  childPids,
  cliEntry,
  decryptKeyFile,
  freePort,
  printFigures,
  rpcClient,
  runSeed,
  seededRandom,
  soaking,
  startProcess,
  stopAll,
  supervisorStatus,
  tempDir,
  waitUntil,
  type RunningProcess,
} from '@ledger-node/test-utils';
import { DEFAULT_SCRYPT, encryptKeyFile, writeKeyFile, type ScryptParams } from '../src/keyfiles/keyFile';

const passphrase = 'keystore faults test passphrase';
/** Kills of the node's keystore mid-signature; the supervisor's restart backoff doubles with each (0.5 s, 1 s, 2 s…). */
const SIGNING_KILLS = soaking() ? 6 : 3;
/** Truncations of one key file, each at a random byte. */
const CUTS = soaking() ? 40 : 8;
/** Kills of a standalone keystore while it creates an account. */
const CREATE_KILLS = soaking() ? 20 : 4;
/**
 * Key files the tests plant use the cheapest cost a file may ask for (N = 2^10; each file keeps its
 * own): those faults are about files and directories, not scrypt. The mid-signature kills plant at
 * the keystore's own 2^17, and accounts the keystore creates always use it.
 */
const PLANTED_SCRYPT = { n: 2 ** 10, r: 8, p: 1, dklen: 32 };
/** A caller still waiting this long is hung (the facade's keystore deadline is 10 s). */
const HANG_MS = 30_000;

type KeystoreClient = ReturnType<typeof createGrpcClient<typeof KeystoreServiceService>>;

const cleanups: (() => void)[] = [];
/** Every line any process printed and every error a caller saw, scanned for secrets. */
const transcript: string[] = [];
const figures = {
  seed: 0,
  kills: 0,
  callers: 0,
  callers_in_flight: 0,
  callers_signed: 0,
  callers_with_clear_error: 0,
  callers_unclear: 0,
  callers_hung: 0,
  failed_resigns: 0,
  readonly_creates_refused: 0,
  cuts: 0,
  cuts_refused_clearly: 0,
  other_accounts_failed: 0,
  keystore_crashes: 0,
  create_kills: 0,
  creates_complete: 0,
  creates_absent: 0,
  half_written_files: 0,
  temp_files_at_kill: 0,
  leftover_temp_files: 0,
  secrets_shown: 0,
};
let random: () => number = Math.random;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low));

beforeAll(() => {
  figures.seed = runSeed('keystore-faults');
  random = seededRandom(figures.seed);
});

afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

afterAll(() => printFigures('keystore-faults', figures));

/** A fresh data directory with a password file, removed after the test. */
function scratch(): { dir: string; keystoreDir: string; passwordFile: string } {
  const { dir, remove } = tempDir('keystore-faults-');
  cleanups.push(remove);
  const passwordFile = path.join(dir, 'password.txt');
  writeFileSync(passwordFile, `${passphrase}\n`, { mode: 0o600 });
  return { dir, keystoreDir: path.join(dir, 'keystore'), passwordFile };
}

interface PlantedAccount {
  address: string;
  nickname: string;
  seed: string;
}

/** Writes key files as the keystore would (same format and write), with seeds from the run's seed. */
async function plantAccounts(
  keystoreDir: string,
  accounts: [nickname: string, algorithm: KeyAlgorithm][],
  scrypt: ScryptParams = PLANTED_SCRYPT,
): Promise<PlantedAccount[]> {
  const { keys } = getProfile('xrpl');
  const planted: PlantedAccount[] = [];
  for (const [nickname, algorithm] of accounts) {
    const seed = keys.generateSeed({ algorithm, entropy: Uint8Array.from({ length: 16 }, () => between(0, 256)) });
    const address = keys.deriveAddress(keys.deriveKeypair(seed).publicKey);
    // Distinct creation times keep the listing order (oldest first) the planting order.
    const created = new Date(Date.now() + planted.length).toISOString();
    writeKeyFile(keystoreDir, await encryptKeyFile({ chain: 'xrpl', address, nickname, keyType: algorithm, created }, seed, passphrase, scrypt));
    planted.push({ address, nickname, seed });
  }
  return planted;
}

const randomAlgorithm = (): KeyAlgorithm => (random() < 0.5 ? 'secp256k1' : 'ed25519');

/** `ledger-node serve keystore` on the data directory's default socket. */
async function serveKeystore(dir: string, passwordFile: string): Promise<RunningProcess> {
  const keystore = startProcess([cliEntry(), 'serve', 'keystore', '-data_dir', dir, '-password_file', passwordFile], { env: { LEDGER_NODE_PASSWORD: '' } });
  await keystore.waitFor(/"msg":"serving"/);
  return keystore;
}

function connect(dir: string): KeystoreClient {
  const client = createGrpcClient(KeystoreServiceService, `unix:${path.join(dir, 'run', 'keystore.sock')}`, { serviceLabel: 'keystore', deadlineMs: HANG_MS });
  cleanups.push(() => client.close());
  return client;
}

/** The typed error a call failed with; a call that succeeds fails the test. */
async function failure(call: Promise<unknown>): Promise<LedgerNodeError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isLedgerNodeError(error)) throw new Error(`expected a typed error, got ${String(error)}`);
  transcript.push(error.message);
  return error;
}

const alive = (keystore: RunningProcess) => keystore.child.exitCode === null && keystore.child.signalCode === null;

/** Key file names and their bytes. */
function snapshot(keystoreDir: string): Map<string, Buffer> {
  return new Map(readdirSync(keystoreDir).map((name) => [name, readFileSync(path.join(keystoreDir, name))]));
}

/** Files that differ from `before` (changed, added or removed), by name. */
function changedFiles(keystoreDir: string, before: Map<string, Buffer>): string[] {
  const now = snapshot(keystoreDir);
  const names = new Set([...before.keys(), ...now.keys()]);
  return [...names].filter((name) => !before.get(name) || !now.get(name) || !before.get(name)!.equals(now.get(name)!));
}

/** The account's seed and public key, decrypted by the procedure of docs/operating.md "Key file format" (node:crypto alone). */
function keyOf(keystoreDir: string, address: string): { seed: string; publicKey: string } {
  const seed = decryptKeyFile(path.join(keystoreDir, `${address}.json`), passphrase);
  return { seed, publicKey: keypairs.deriveKeypair(seed).publicKey };
}

/** docs/api.md "Verifying a jt_sign signature": verify(hex(prefix || message), signature, publicKey). */
function verifies(message: Buffer, signatureHex: string, publicKey: string): boolean {
  const signed = Buffer.concat([Buffer.from('\x19XRP Ledger Signed Message:\n', 'utf8'), message]);
  return keypairs.verify(signed.toString('hex'), signatureHex.toUpperCase(), publicKey);
}

/** Counts the secrets (passphrase, seeds, private keys) that appear anywhere in the transcript. */
function secretsShown(seeds: string[]): number {
  const secrets = [passphrase];
  for (const seed of seeds) {
    const { privateKey } = keypairs.deriveKeypair(seed);
    secrets.push(seed, privateKey.slice(2).toUpperCase(), privateKey.slice(2).toLowerCase());
  }
  const everything = transcript.join('\n');
  return secrets.filter((secret) => everything.includes(secret)).length;
}

const randomMessage = () => Buffer.from(Array.from({ length: between(1, 64) }, () => between(0, 256)));

describe('keystore under fault', () => {
  it(`killed ${SIGNING_KILLS} times mid-signature: every in-flight jt_sign caller gets a clear error, the supervisor restarts it and the same accounts sign again`, async () => {
    const { dir, keystoreDir, passwordFile } = scratch();
    // At the keystore's own scrypt cost, so that each signature spends a while in its derivation.
    const accounts = await plantAccounts(keystoreDir, [['alice', 'secp256k1'], ['bob', 'ed25519']], DEFAULT_SCRYPT);
    const publicKeys = new Map(accounts.map((account) => [account.address, keypairs.deriveKeypair(account.seed).publicKey]));
    const port = await freePort();
    const node = startProcess([cliEntry(), '-rpc', '-sync=false', '-data_dir', dir, '-rpcaddr', '127.0.0.1', '-rpcport', String(port), '-password_file', passwordFile]);
    for (const service of ['ledger-store', 'keystore', 'submission', 'facade']) await node.waitFor(new RegExp(`${service}\\s+ready`), 60_000);
    const pidOf = (service: string) => childPids(node).get(service)!;
    const readyCount = () => supervisorStatus(node).filter((status) => status.child === 'keystore' && status.state === 'ready').length;
    const facadePid = pidOf('facade');
    const files = snapshot(keystoreDir);
    const call = rpcClient(port);

    /** jt_sign as an HTTP caller sees it: signed (and verified), a clear error, an unclear one, or no answer. */
    const sign = async (account: PlantedAccount, message = randomMessage(), name = random() < 0.5 ? account.address : account.nickname): Promise<'signed' | 'clear' | 'unclear' | 'hung'> => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'jt_sign', params: [name, `0x${message.toString('hex')}`], id: 1 }),
        signal: AbortSignal.timeout(HANG_MS),
      }).then(
        async (answer) => (await answer.json()) as { result?: string; error?: { code: number; message: string } },
        (error: unknown) => {
          if (error instanceof DOMException && error.name === 'TimeoutError') return undefined;
          throw error;
        },
      );
      if (response === undefined) return 'hung';
      transcript.push(JSON.stringify(response));
      if (response.result !== undefined) return verifies(message, response.result.slice(2), publicKeys.get(account.address)!) ? 'signed' : 'unclear';
      // A deadline means the keystore held the call without answering: that is a hang, not a clear error.
      if (response.error?.code === -32008 && response.error.message === 'keystore unavailable: no answer before the deadline') return 'hung';
      return response.error?.code === -32008 && /^keystore unavailable: /.test(response.error.message) ? 'clear' : 'unclear';
    };

    for (let kill = 0; kill < SIGNING_KILLS; kill++) {
      const keystorePid = pidOf('keystore');
      // Derivations run one at a time, so after `answeredBeforeKill` answers the next call is mid-scrypt.
      const inFlight = between(3, 6);
      const answeredBeforeKill = between(1, inFlight);
      let answered = 0;
      const outcomes = Array.from({ length: inFlight }, () =>
        sign(accounts[between(0, accounts.length)]!).finally(() => {
          answered++;
        }),
      );
      await waitUntil(() => answered >= answeredBeforeKill, HANG_MS, `${answeredBeforeKill} signatures before the kill`, 10);
      process.kill(keystorePid, 'SIGKILL');
      figures.kills++;
      const settled = await Promise.all(outcomes);
      figures.callers += inFlight;
      figures.callers_in_flight += inFlight - answeredBeforeKill;
      figures.callers_signed += settled.filter((outcome) => outcome === 'signed').length;
      figures.callers_with_clear_error += settled.filter((outcome) => outcome === 'clear').length;
      figures.callers_unclear += settled.filter((outcome) => outcome === 'unclear').length;
      figures.callers_hung += settled.filter((outcome) => outcome === 'hung').length;

      await node.waitFor(new RegExp(`keystore\\s+crashed\\s+pid ${keystorePid}\\s+signal SIGKILL`));
      await waitUntil(() => readyCount() === kill + 2, HANG_MS, 'the keystore restarted by the supervisor');
      // The facade's channel reconnects with a backoff of its own: wait for alice's first signature, then the others must sign.
      await waitUntil(
        async () => {
          const outcome = await sign(accounts[0]!, Buffer.from('after the restart'), 'alice');
          if (outcome === 'unclear' || outcome === 'hung') figures[`callers_${outcome}`]++;
          return outcome === 'signed';
        },
        HANG_MS,
        'a signature after the restart',
      );
      for (const account of accounts.slice(1)) if ((await sign(account)) !== 'signed') figures.failed_resigns++;
      figures.half_written_files += changedFiles(keystoreDir, files).length;
    }

    // The caller (the facade) never crashed and still answers.
    expect(pidOf('facade')).toBe(facadePid);
    expect(node.output()).not.toMatch(/facade\s+crashed/);
    expect((await call('jt_blockNumber')).result).toBe(0);
    transcript.push(node.output());
    figures.secrets_shown += secretsShown(accounts.map((account) => account.seed));
    expect({
      signedOrClear: figures.callers_signed + figures.callers_with_clear_error,
      unclear: figures.callers_unclear,
      hung: figures.callers_hung,
      failedResigns: figures.failed_resigns,
      halfWritten: figures.half_written_files,
      secrets: figures.secrets_shown,
    }).toEqual({ signedOrClear: figures.callers, unclear: 0, hung: 0, failedResigns: 0, halfWritten: 0, secrets: 0 });
    // The kills landed while signatures were in flight (else this test would prove nothing).
    expect(figures.callers_with_clear_error).toBeGreaterThan(0);
  }, 300_000);

  it('with its key directory read-only, refuses a new account naming the problem and keeps signing with the existing ones', async () => {
    const { dir, keystoreDir, passwordFile } = scratch();
    const [alice, bob] = (await plantAccounts(keystoreDir, [['alice', 'secp256k1'], ['bob', 'ed25519']])) as [PlantedAccount, PlantedAccount];
    const keystore = await serveKeystore(dir, passwordFile);
    const client = connect(dir);
    const listedBefore = (await client.listAccounts({})).accounts;
    const files = snapshot(keystoreDir);

    // What an operator does: chmod 0555. Root ignores mode bits (CAP_DAC_OVERRIDE), so as root the
    // directory is also made immutable (chattr +i: no entry can be added, by root either), the
    // nearest to a read-only mount this machine allows without a mount namespace.
    const asRoot = process.getuid?.() === 0;
    const makeWritable = () => {
      if (asRoot) execFileSync('chattr', ['-i', keystoreDir]);
      chmodSync(keystoreDir, 0o700);
    };
    cleanups.push(makeWritable);
    chmodSync(keystoreDir, 0o555);
    if (asRoot) execFileSync('chattr', ['+i', keystoreDir]);
    const readOnly = /^key file keystore\/r\w+\.json cannot be written: its directory is read-only \((EACCES|EPERM|EROFS)\)$/;

    const refused = await failure(client.generateAccount({ nickname: 'carol', keyType: KeyType.SECP256K1 }));
    expect(refused.kind).toBe('unavailable');
    expect(refused.message).toMatch(readOnly);
    figures.readonly_creates_refused++;
    // The CLI asks the running keystore and shows the same reason.
    const cli = startProcess([cliEntry(), 'account', 'generate', '-nickname', 'carol', '-data_dir', dir, '-password_file', passwordFile]);
    expect(await cli.exited).toBe(1);
    transcript.push(cli.output());
    expect(cli.output().trim()).toMatch(new RegExp(readOnly.source.replace('^', '^ledger-node: ')));
    figures.readonly_creates_refused++;

    for (const account of [alice, bob]) {
      const message = randomMessage();
      const signed = await client.signMessage({ account: account.nickname, message }).catch(() => undefined);
      if (!signed || !verifies(message, signed.signature.toString('hex'), signed.publicKey.toString('hex').toUpperCase()) || signed.address !== account.address) {
        figures.other_accounts_failed++;
      }
    }
    if (!alive(keystore)) figures.keystore_crashes++;
    expect((await client.listAccounts({})).accounts).toEqual(listedBefore);
    figures.half_written_files += changedFiles(keystoreDir, files).length;
    expect({ others: figures.other_accounts_failed, crashes: figures.keystore_crashes, halfWritten: figures.half_written_files }).toEqual({
      others: 0,
      crashes: 0,
      halfWritten: 0,
    });

    // Writable again: the same keystore creates the account without a restart.
    makeWritable();
    const carol = (await client.generateAccount({ nickname: 'carol', keyType: KeyType.SECP256K1 })).account!;
    expect(carol.nickname).toBe('carol');
    transcript.push(keystore.output());
    figures.secrets_shown += secretsShown([alice.seed, bob.seed, keyOf(keystoreDir, carol.address).seed]);
    expect(figures.secrets_shown).toBe(0);
  }, 180_000);

  it(`with a key file cut short at a random byte (${CUTS} cuts), names the file, keeps serving the other accounts and writes nothing`, async () => {
    const { dir, keystoreDir, passwordFile } = scratch();
    const accounts = await plantAccounts(keystoreDir, [['victim', randomAlgorithm()], ['other1', randomAlgorithm()], ['other2', randomAlgorithm()]]);
    const keystore = await serveKeystore(dir, passwordFile);
    const client = connect(dir);
    const [victim, ...others] = accounts as [PlantedAccount, ...PlantedAccount[]];
    const victimFile = path.join(keystoreDir, `${victim.address}.json`);
    const whole = readFileSync(victimFile);
    const files = snapshot(keystoreDir);

    for (let cut = 0; cut < CUTS; cut++) {
      // The file ends in "}\n": keeping at most length - 2 bytes always loses the closing brace.
      const kept = between(0, whole.length - 1);
      writeFileSync(victimFile, whole.subarray(0, kept));
      const cutFiles = snapshot(keystoreDir);
      figures.cuts++;
      const byNickname = random() < 0.3;
      const error = byNickname
        ? await failure(client.signMessage({ account: victim.nickname, message: randomMessage() }))
        : random() < 0.5
          ? await failure(client.signMessage({ account: victim.address, message: randomMessage() }))
          : await failure(client.signTransaction({ account: victim.address, txJson: JSON.stringify({ TransactionType: 'Payment', Destination: others[0]!.address, Amount: '1', Fee: '12', Sequence: 1 }) }));
      // By address the broken file is the account's own; a nickname is inside the file, so only the file can be named.
      const clear = byNickname
        ? error.kind === 'no_local_account' && error.message === `no local account "victim" (1 key file(s) could not be read: keystore/${path.basename(victimFile)})`
        : error.kind === 'unavailable' && error.message.startsWith(`key file keystore/${path.basename(victimFile)} is not valid JSON (`);
      if (clear) figures.cuts_refused_clearly++;
      else transcript.push(`unclear: ${error.kind} ${error.message}`);

      const listed = await client.listAccounts({});
      if (listed.accounts.length !== others.length) figures.other_accounts_failed++;
      const other = others[between(0, others.length)]!;
      const message = randomMessage();
      const signed = await client.signMessage({ account: random() < 0.5 ? other.address : other.nickname, message }).catch(() => undefined);
      if (!signed || signed.address !== other.address || !verifies(message, signed.signature.toString('hex'), signed.publicKey.toString('hex').toUpperCase())) {
        figures.other_accounts_failed++;
      }
      if (!alive(keystore)) figures.keystore_crashes++;
      // The keystore neither repairs, removes nor writes anything: the cut file stays as it was cut.
      figures.half_written_files += changedFiles(keystoreDir, cutFiles).length;
    }

    writeFileSync(victimFile, whole);
    expect(changedFiles(keystoreDir, files)).toEqual([]);
    const restored = await client.signMessage({ account: 'victim', message: Buffer.from('whole again') });
    expect(restored.address).toBe(victim.address);
    transcript.push(keystore.output());
    figures.secrets_shown += secretsShown(accounts.map((account) => account.seed));
    expect({
      clear: figures.cuts_refused_clearly,
      others: figures.other_accounts_failed,
      crashes: figures.keystore_crashes,
      halfWritten: figures.half_written_files,
      secrets: figures.secrets_shown,
    }).toEqual({ clear: CUTS, others: 0, crashes: 0, halfWritten: 0, secrets: 0 });
  }, 300_000);

  it(`killed ${CREATE_KILLS} times while creating an account, leaves no key file or a complete one, and no temp file once restarted`, async () => {
    const { dir, keystoreDir, passwordFile } = scratch();
    await plantAccounts(keystoreDir, [['first', 'secp256k1']]);
    let keystore = await serveKeystore(dir, passwordFile);
    let client = connect(dir);
    const created: string[] = [];

    for (let kill = 0; kill < CREATE_KILLS; kill++) {
      const before = snapshot(keystoreDir);
      // A third of the kills land at a random moment of the request (mostly inside scrypt), a third
      // the moment the temp file appears (inside the write, fsync, link or unlink), a third right after the answer.
      const moment = (['random', 'at write', 'after answer'] as const)[between(0, 3)]!;
      const watcher =
        moment === 'at write'
          ? watch(keystoreDir, (_event, name) => {
              if (name?.endsWith('.tmp')) keystore.child.kill('SIGKILL');
            })
          : undefined;
      const request = client.generateAccount({ nickname: `account${kill}`, keyType: random() < 0.5 ? KeyType.SECP256K1 : KeyType.ED25519 }).then(
        (answer) => answer.account!,
        (error: unknown) => error as Error,
      );
      // A kill that has not landed by the answer lands right after it: the file must then be complete.
      void request.then(() => keystore.child.kill('SIGKILL'));
      if (moment === 'random') {
        await new Promise((resolve) => setTimeout(resolve, between(0, 2_000)));
        keystore.child.kill('SIGKILL');
      }
      await keystore.exited;
      transcript.push(keystore.output());
      watcher?.close();
      figures.create_kills++;
      const answer = await request;

      const added = changedFiles(keystoreDir, before);
      const keyFiles = added.filter((name) => /^r\w+\.json$/.test(name));
      const tempFiles = added.filter((name) => /^\.r\w+\.\d+\.[0-9a-f]{8}\.tmp$/.test(name));
      figures.temp_files_at_kill += tempFiles.length;
      figures.half_written_files += added.length - keyFiles.length - tempFiles.length;
      if (keyFiles.length === 0) {
        figures.creates_absent++;
        // An answer is given only once the file is on disk.
        if (!(answer instanceof Error)) figures.half_written_files++;
      }
      for (const name of keyFiles) {
        const address = name.replace(/\.json$/, '');
        try {
          const { publicKey } = keyOf(keystoreDir, address);
          if (keypairs.deriveAddress(publicKey) !== address) throw new Error(`${name} holds another account's key`);
          figures.creates_complete++;
          created.push(address);
        } catch {
          figures.half_written_files++;
        }
      }
      if (answer instanceof Error) transcript.push(answer.message);
      keystore = await serveKeystore(dir, passwordFile);
      client.close();
      client = connect(dir);
      // The restarted keystore removes what the killed write left, and says so.
      figures.leftover_temp_files += readdirSync(keystoreDir).filter((name) => name.endsWith('.tmp')).length;
      for (const name of tempFiles) {
        if (!keystore.output().includes(`"file":"${path.join(keystoreDir, name)}","msg":"removed the temp file of a key file write that did not finish"`)) figures.leftover_temp_files++;
      }
    }

    // The restarted keystore lists every complete account and signs with one made under a kill.
    const listed = await client.listAccounts({});
    expect(listed.accounts.map((account) => account.address).sort()).toEqual(
      readdirSync(keystoreDir)
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .map((name) => name.replace(/\.json$/, ''))
        .sort(),
    );
    if (created.length > 0) expect((await client.signMessage({ account: created.at(-1)!, message: Buffer.from('made under a kill') })).address).toBe(created.at(-1));
    expect(statSync(keystoreDir).mode & 0o777).toBe(0o700);
    transcript.push(keystore.output());
    figures.secrets_shown += secretsShown(created.map((address) => keyOf(keystoreDir, address).seed));
    expect({ halfWritten: figures.half_written_files, temp: figures.leftover_temp_files, secrets: figures.secrets_shown }).toEqual({
      halfWritten: 0,
      temp: 0,
      secrets: 0,
    });
  }, 300_000);
});
