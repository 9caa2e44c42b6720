/**
 * `account list` and `account generate`. The CLI never reads or creates key material itself: it
 * asks a keystore process over gRPC — the node's running keystore when one answers at
 * -keystore_addr, else a transient `ledger-node serve keystore` child on a private socket that is
 * stopped afterwards. A passphrase typed at the prompt reaches that child through its environment,
 * never its command line.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dataDir, FlagError, readTokenFile, secretFileAccess, serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { KeyType, KeystoreServiceService, type LocalAccount } from '@ledger-node/contracts';
import { InvalidParams, Unavailable } from '@ledger-node/errors';
import { checkHealth, createGrpcClient, parseGrpcAddress } from '@ledger-node/grpc';
import { cliEntry } from '../cli-entry';

const keystoreServiceName = 'ledgernode.keystore.v1.KeystoreService';
const PASSWORD_ENV = 'LEDGER_NODE_PASSWORD';
/** Generating runs scrypt twice (checking the passphrase against an existing file, then encrypting). */
const callDeadlineMs = 60_000;
const childReadyTimeoutMs = 30_000;

type KeystoreClient = ReturnType<typeof createGrpcClient<typeof KeystoreServiceService>>;

export async function runAccountCommand(args: string[], flags: ParsedFlags): Promise<number> {
  const [action, ...extra] = args;
  if (action !== 'list' && action !== 'generate') {
    throw new FlagError('account needs a command: list or generate');
  }
  if (extra.length > 0) throw new FlagError(`unexpected argument "${extra[0]}" (see --help)`);
  if (action === 'list') {
    const accounts = await withKeystore(flags, { needsPassphrase: false }, async (client) => (await client.listAccounts({})).accounts);
    process.stdout.write(flags.boolean('json') ? `${JSON.stringify(accounts.map(accountJson), null, 2)}\n` : accountTable(accounts));
    return 0;
  }
  const keyType = flags.string('key_type') === 'ed25519' ? KeyType.ED25519 : KeyType.SECP256K1;
  const nickname = flags.string('nickname');
  const account = await withKeystore(flags, { needsPassphrase: true }, async (client) => {
    const response = await client.generateAccount({ nickname, keyType }, { deadlineMs: callDeadlineMs });
    if (!response.account) throw new Unavailable('the keystore answered without an account');
    return response.account;
  });
  if (flags.boolean('json')) {
    process.stdout.write(`${JSON.stringify(accountJson(account), null, 2)}\n`);
  } else {
    const json = accountJson(account);
    const lines = [`Generated account ${json.address}`, `  nickname: ${json.nickname ?? '(none)'}`, `  key type: ${json.key_type}`, `  created:  ${json.created}`];
    const keyFile = flags.given('keystore_addr') ? undefined : path.join(dataDir(flags), 'keystore', `${json.address}.json`);
    if (keyFile !== undefined) lines.push(`  key file: ${keyFile}`);
    process.stdout.write(`${lines.join('\n')}\n\n${backupReminder(keyFile ?? `keystore/${json.address}.json in the data directory of the keystore at ${serviceAddress(flags, 'keystore')}`)}`);
  }
  return 0;
}

/**
 * What geth tells after `account new`: the key file and the passphrase are the account, and
 * neither can be recovered from the other or from the node.
 */
function backupReminder(keyFile: string): string {
  return [
    'Back up the key file and keep the passphrase:',
    `  - back up ${keyFile} (a copy somewhere other than this disk): without it the account's funds cannot be moved;`,
    '  - remember the passphrase: without it the key file cannot be decrypted, and nothing can recover it;',
    '  - never share the key file together with the passphrase: with both, anyone can move the funds.',
    '',
  ].join('\n');
}

function accountJson(account: LocalAccount) {
  return {
    address: account.address,
    nickname: account.nickname === '' ? null : account.nickname,
    key_type: account.keyType === KeyType.ED25519 ? 'ed25519' : 'secp256k1',
    created: new Date(Number(account.createdAtUnixMs)).toISOString(),
  };
}

function accountTable(accounts: LocalAccount[]): string {
  if (accounts.length === 0) return 'No local accounts.\n';
  const rows = [['ADDRESS', 'NICKNAME', 'KEY TYPE', 'CREATED'], ...accounts.map(accountJson).map((a) => [a.address, a.nickname ?? '-', a.key_type, a.created])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n') + '\n';
}

/** The token every call to a keystore with -keystore_token_file must carry. */
function readToken(flags: ParsedFlags): string | undefined {
  const file = flags.string('keystore_token_file');
  return file === undefined ? undefined : readTokenFile(file, 'keystore_token_file', secretFileAccess(flags));
}

async function isServing(address: string): Promise<boolean> {
  const parsed = parseGrpcAddress(address);
  if (parsed.kind === 'unix' && !existsSync(parsed.path)) return false;
  try {
    return (await checkHealth(address, keystoreServiceName, 2_000)) === 'SERVING';
  } catch (error) {
    if (error instanceof Error) return false;
    throw error;
  }
}

/** Runs `use` against the running keystore, or against a transient one started for it. */
async function withKeystore<T>(flags: ParsedFlags, options: { needsPassphrase: boolean }, use: (client: KeystoreClient) => Promise<T>): Promise<T> {
  const address = serviceAddress(flags, 'keystore');
  if (await isServing(address)) {
    try {
      return await callKeystore(address, readToken(flags), use);
    } catch (error) {
      // The running keystore decrypts and writes key files with its own passphrase: one given to
      // this command never reaches it, so say whose passphrase is missing and what to do.
      if (error instanceof Error && error.message.includes('the keystore has no passphrase')) {
        throw new Unavailable(
          `the running node's keystore at ${address} was started without a passphrase (one given to this command does not reach it): restart the node with -password_file FILE or ${PASSWORD_ENV}, or stop it to generate the account offline`,
        );
      }
      throw error;
    }
  }
  if (flags.given('keystore_addr')) throw new Unavailable(`no keystore answers at ${address}`);

  const env: NodeJS.ProcessEnv = { ...process.env };
  const args = ['-data_dir', dataDir(flags), '-chain', flags.string('chain')!, '-log_level', 'warn'];
  if (flags.boolean('secret_group_read')) args.push('-secret_group_read');
  if (!options.needsPassphrase) {
    delete env[PASSWORD_ENV];
  } else if (flags.string('password_file') !== undefined) {
    args.push('-password_file', path.resolve(flags.string('password_file')!));
  } else if (!env[PASSWORD_ENV]) {
    if (!process.stdin.isTTY) {
      throw new InvalidParams(`no passphrase: give -password_file FILE or set ${PASSWORD_ENV} (or run on a terminal to be asked)`, 'password_file');
    }
    env[PASSWORD_ENV] = await promptNewPassphrase();
  }

  // A private socket in a fresh 0700 directory: nothing else can reach the transient keystore.
  const socketDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-node-keystore-'));
  const transientAddress = `unix:${path.join(socketDirectory, 'keystore.sock')}`;
  try {
    const child = await startTransientKeystore([...args, '-keystore_addr', transientAddress], env);
    try {
      return await callKeystore(transientAddress, undefined, use);
    } finally {
      await child.stop();
    }
  } finally {
    rmSync(socketDirectory, { recursive: true, force: true });
  }
}

async function callKeystore<T>(address: string, authToken: string | undefined, use: (client: KeystoreClient) => Promise<T>): Promise<T> {
  const client = createGrpcClient(KeystoreServiceService, address, { serviceLabel: 'keystore', authToken, idempotent: ['listAccounts'] });
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

/**
 * Starts `ledger-node serve keystore` and resolves once it reports ready over IPC. Its warnings
 * about key files (e.g. one it cannot read) are relayed to stderr, once each.
 */
function startTransientKeystore(args: string[], env: NodeJS.ProcessEnv): Promise<{ stop(): Promise<void> }> {
  const child = fork(cliEntry(), ['serve', 'keystore', ...args], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env });
  const errors: string[] = [];
  const relayed = new Set<string>();
  const relay = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter((text) => text.trim() !== '')) {
      const record = logRecord(line);
      if (record === undefined) errors.push(line);
      else if (record.file !== undefined && !relayed.has(record.msg)) {
        relayed.add(record.msg);
        process.stderr.write(`ledger-node: warning: ${record.msg}\n`);
      }
    }
  };
  child.stdout?.on('data', relay);
  child.stderr?.on('data', relay);
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await closed;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Unavailable(`the keystore did not start within ${childReadyTimeoutMs} ms`));
    }, childReadyTimeoutMs);
    child.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready') {
        clearTimeout(timer);
        resolve({ stop });
      }
    });
    void closed.then((code) => {
      clearTimeout(timer);
      // The child printed "ledger-node: <reason>"; exit code 2 means a bad flag or value, as here.
      const reason = errors.map((line) => line.replace(/^ledger-node: /, '')).join('; ') || `exit code ${String(code)}`;
      reject(code === 2 ? new InvalidParams(reason) : new Unavailable(`the keystore could not start: ${reason}`));
    });
  });
}

/** A pino JSON log line's message and the key file it names, if any; undefined for any other line. */
function logRecord(line: string): { msg: string; file?: string } | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const record = JSON.parse(line) as { msg?: unknown; file?: unknown };
    return { msg: typeof record.msg === 'string' ? record.msg : line, file: typeof record.file === 'string' ? record.file : undefined };
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

async function promptNewPassphrase(): Promise<string> {
  const first = await readHidden('Keystore passphrase: ');
  if (first === '') throw new InvalidParams('the passphrase must not be empty', 'password_file');
  const second = await readHidden('Repeat passphrase: ');
  if (first !== second) throw new InvalidParams('the passphrases do not match', 'password_file');
  return first;
}

/** Reads one line from the terminal without echoing it. */
function readHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (settle: () => void) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      settle();
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n' || character === '\u0004') return finish(() => resolve(typed));
        if (character === '\u0003') return finish(() => reject(new InvalidParams('interrupted', 'password_file')));
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}
