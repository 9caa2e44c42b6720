import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEntry, helpEntries, tempDir, workspaceRoot } from '@ledger-node/test-utils';

/** The environment of the test runner without its LEDGER_NODE_* flags, plus `env`. */
function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('LEDGER_NODE_')));
  return { ...inherited, ...env };
}

const files = tempDir('cli-');
afterAll(() => files.remove());

/** Runs the CLI in a directory of this test's: a command that gets as far as its data directory makes it there (.data). */
const runWithEnv = (env: NodeJS.ProcessEnv, ...args: string[]) => {
  const result = spawnSync(process.execPath, [cliEntry(), ...args], { encoding: 'utf8', timeout: 20_000, env: cliEnv(env), cwd: files.dir });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};
const run = (...args: string[]) => runWithEnv({}, ...args);

describe('ledger-node --help', () => {
  const { code, stdout } = run('--help');

  it('exits 0', () => expect(code).toBe(0));

  it.each([
    ['-data_dir DIR', '.data in the working directory'],
    ['-database_name NAME', 'node.db'],
    ['-endpoint URL[,URL]', "the chain's public test network node"],
    ['-thread_count N', '8'],
    ['-sync[=true|false]', 'true'],
    ['-api[=true|false]', 'false'],
    ['-apiaddr HOST', 'localhost'],
    ['-apiport PORT', '7544'],
    ['-rpc[=true|false]', 'false'],
    ['-rpcaddr HOST', 'localhost'],
    ['-rpcport PORT', '7545'],
    ['-nickname NAME', 'none'],
    ['-chain xrpl|jingtum', 'xrpl'],
    ['-dev[=true|false]', 'false'],
    ['-start_ledger INDEX', "the upstream's earliest available ledger"],
    ['-log_level LEVEL', 'info'],
  ])('shows %s with its default (%s)', (usage, defaultValue) => {
    const entry = helpEntries(stdout).get(usage);
    expect(entry, `no entry for ${usage}`).toBeDefined();
    expect(entry).toMatch(new RegExp(`\\(default: ${defaultValue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
  });

  it('names the commands', () => {
    for (const command of ['account list', 'account generate', 'serve <service>', 'devnet', 'export FILE|-', 'import FILE']) expect(stdout).toContain(command);
  });

  it('fits 80 columns when its output is not a terminal', () => {
    const long = stdout.split('\n').filter((line) => [...line].length > 80);
    expect(long).toEqual([]);
  });
});

describe('a command\'s own --help', () => {
  const pageOf = (...args: string[]) => {
    const { code, stdout } = run(...args);
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
    return stdout;
  };

  it.each([
    [['account', '--help'], ['-nickname NAME', '-key_type secp256k1|ed25519', '-password_file FILE'], ['-rpcport PORT', '-devnet_validators N']],
    [['devnet', '--help'], ['-close_ms MS', '-devnet_validators N'], ['-rpcport PORT', '-nickname NAME']],
    [['verify-state', '--help'], ['-ledger N', '-store URL'], ['-rpcport PORT']],
    [['probe', '--help'], ['-ledger_store_addr ADDR', '-grpc_tls_ca FILE'], ['-rpcport PORT']],
    [['serve', 'facade', '--help'], ['-rpcport PORT', '-send_rate N', '-trusted_proxies ADDRESSES'], ['-nickname NAME', '-store URL']],
    [['serve', 'sync', '--help'], ['-endpoint URL[,URL]', '-thread_count N'], ['-rpcport PORT']],
    [['help', 'serve', 'ledger-store'], ['-store URL', '-ledger_history N'], ['-rpcport PORT']],
  ])('%j shows its usage and its flags, not the others', (args, shown, notShown) => {
    const page = pageOf(...args);
    const command = args.filter((arg) => arg !== '--help' && arg !== 'help').join(' ');
    expect(page).toMatch(new RegExp(`^Usage:\\n {2}ledger-node ${command}`));
    const entries = helpEntries(page);
    for (const usage of shown) expect(entries.get(usage), usage).toMatch(/\(default: .*\)$/);
    for (const usage of notShown) expect(entries.has(usage), usage).toBe(false);
  });
});

describe('ledger-node --version and ledger-node version', () => {
  const { version } = JSON.parse(readFileSync(path.join(workspaceRoot(), 'package.json'), 'utf8')) as { version: string };
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: workspaceRoot(), encoding: 'utf8' });
  const commit = head.status === 0 ? head.stdout.trim() : 'unknown';
  const expected = `ledger-node ${version}\ncommit: ${commit}\nnode: ${process.version} (${process.platform}-${process.arch})\n`;

  it.each([[['--version']], [['-version']], [['version']]])('%j prints the version, the git commit and Node.js, exit 0', (args) => {
    expect(run(...args)).toEqual({ code: 0, stdout: expected, stderr: '' });
  });

  it.each([[['--version']], [['version']]])('%j needs no valid environment or -config file', (args) => {
    expect(runWithEnv({ LEDGER_NODE_RPCPORT: 'lots' }, ...args, '-config', '/nonexistent.toml')).toEqual({ code: 0, stdout: expected, stderr: '' });
  });
});

describe('flags from LEDGER_NODE_<FLAG> and -config FILE', () => {
  const config = path.join(files.dir, 'node.toml');
  writeFileSync(config, 'thread_count = 3\nrpcport = 9001\n');

  it('--help says the precedence and shows each set flag with its value and where it came from', () => {
    const { code, stdout } = runWithEnv({ LEDGER_NODE_RPCPORT: '9002', LEDGER_NODE_CONFIG: config }, '--help', '-apiport', '9003');
    expect(code).toBe(0);
    expect(stdout.replace(/\s+/g, ' ')).toContain('the command line wins over the environment, the environment over the file, the file over the default');
    const entries = helpEntries(stdout);
    const line = (usage: string) => entries.get(usage);
    expect(line('-rpcport PORT')).toMatch(/\(default: 7545\) \[9002 from LEDGER_NODE_RPCPORT\]$/);
    expect(line('-thread_count N')).toContain(`(default: 8) [3 from ${config}]`);
    expect(line('-apiport PORT')).toMatch(/\(default: 7544\) \[9003 from -apiport\]$/);
    expect(line('-config FILE')).toContain(`[${config} from LEDGER_NODE_CONFIG]`);
    expect(line('-max_batch N')).toMatch(/\(default: 100\)$/);
  });

  it.each([
    [{ LEDGER_NODE_THREAD_COUNT: 'lots' }, [], 'ledger-node: invalid value "lots" for flag -thread_count (from LEDGER_NODE_THREAD_COUNT): expected an integer from 1 to 256\n'],
    [{}, ['-config', 'CONFIG'], 'ledger-node: unknown flag "rpc_port" in -config CONFIG (did you mean rpcport?) (see --help)\n'],
    [{ LEDGER_NODE_ENDPOINT: 'ws://127.0.0.1:1' }, ['-dev'], 'ledger-node: -dev and -endpoint (from LEDGER_NODE_ENDPOINT) exclude each other: -dev syncs from the embedded devnet\n'],
    [{ LEDGER_NODE_NETWORK_ID: '1' }, ['-dev'], 'ledger-node: -dev syncs from the embedded devnet, whose network id is 0, not -network_id 1 (from LEDGER_NODE_NETWORK_ID)\n'],
  ])('%j %j: a bad value from elsewhere than the command line is refused as a flag is, naming where it came from (exit 2)', (env, args, message) => {
    const bad = path.join(files.dir, 'bad.toml');
    writeFileSync(bad, 'rpc_port = 9001\n');
    const result = runWithEnv(env, ...(args[0] === '-dev' ? [] : ['serve', 'ledger-store']), ...args.map((arg) => arg.replace('CONFIG', bad)));
    expect(result).toEqual({ code: 2, stdout: '', stderr: message.replace('CONFIG', bad) });
  });
});

describe('ledger-node with bad input', () => {
  it.each([
    [['-no_such_flag'], 'unknown flag: -no_such_flag'],
    [['-thread_count', 'lots'], 'invalid value "lots" for flag -thread_count'],
    [['-rpcport=99999'], 'invalid value "99999" for flag -rpcport'],
    [['-sync=perhaps'], 'invalid value "perhaps" for flag -sync'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['serve', 'nothing'], 'serve needs a service name'],
    [['-dev', '-endpoint', 'ws://127.0.0.1:1'], '-dev and -endpoint exclude each other'],
    [['-dev', '-network_id', '2'], '-dev syncs from the embedded devnet, whose network id is 0, not -network_id 2'],
    [['-network_id', '-1'], 'invalid value "-1" for flag -network_id'],
  ])('%j: one-line error naming it, exit code 2', (args, message) => {
    const { code, stderr, stdout } = run(...args);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });
});

describe('ledger-node probe under a pod\'s OTEL_* environment', () => {
  // OTEL_LOG_LEVEL=debug makes a starting OpenTelemetry SDK say so on the console.
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_LOG_LEVEL: 'debug' };
  const runWith = (env: NodeJS.ProcessEnv, ...args: string[]) => spawnSync(process.execPath, [cliEntry(), ...args], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });

  it('starts no tracing SDK (a Kubernetes exec probe runs it every few seconds), where other commands do', () => {
    const probe = runWith(traced, 'probe', 'ledger-store', '-ledger_store_addr', 'unix:/nonexistent/ledger-store.sock');
    expect(probe.status).toBe(1);
    expect(probe.stdout).toContain('ledger-store UNREACHABLE');
    expect(`${probe.stdout}${probe.stderr}`).not.toContain('@opentelemetry/api');
    const help = runWith(traced, '--help');
    expect(`${help.stdout}${help.stderr}`).toContain('@opentelemetry/api: Registered a global');
  });
});
