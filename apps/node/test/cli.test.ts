import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliEntry } from '@ledger-node/test-utils';

const run = (...args: string[]) => {
  const result = spawnSync(process.execPath, [cliEntry(), ...args], { encoding: 'utf8', timeout: 20_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe('ledger-node --help', () => {
  const { code, stdout } = run('--help');

  it('exits 0', () => expect(code).toBe(0));

  it.each([
    ['-data_dir DIR', 'current directory'],
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
    const line = stdout.split('\n').find((l) => l.trimStart().startsWith(usage + ' '));
    expect(line, `no line for ${usage}`).toBeDefined();
    expect(line).toContain(`(default: ${defaultValue})`);
  });

  it('names the commands', () => {
    for (const command of ['account list', 'account generate', 'serve <service>', 'devnet', 'export FILE|-', 'import FILE']) expect(stdout).toContain(command);
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
