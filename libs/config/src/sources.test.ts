import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { helpEntries, tempDir } from '@ledger-node/test-utils';
import { allFlags, envVariable, FlagError, flagGroups, parseFlags, renderFlagHelp } from './index';

const dir = tempDir('config-sources-');
afterAll(() => dir.remove());

/** A -config file of this test with the given text. */
function configFile(name: string, text: string): string {
  const file = path.join(dir.dir, name);
  writeFileSync(file, text);
  return file;
}

const parse = (argv: string[], env: Record<string, string> = {}) => parseFlags(argv, allFlags, { env });

describe('LEDGER_NODE_<FLAG> in the environment', () => {
  it('names each flag in upper case after LEDGER_NODE_', () => {
    expect(envVariable('rpcport')).toBe('LEDGER_NODE_RPCPORT');
    expect(envVariable('rpc_allowed_hosts')).toBe('LEDGER_NODE_RPC_ALLOWED_HOSTS');
  });

  it('sets a flag the command line does not, of each type, and says so', () => {
    const { flags } = parse([], { LEDGER_NODE_RPCPORT: '9100', LEDGER_NODE_SYNC: 'false', LEDGER_NODE_CHAIN: 'jingtum' });
    expect([flags.integer('rpcport'), flags.boolean('sync'), flags.string('chain')]).toEqual([9100, false, 'jingtum']);
    expect(flags.given('rpcport')).toBe(true);
    expect(flags.origin('rpcport')).toEqual({ kind: 'env', variable: 'LEDGER_NODE_RPCPORT' });
    expect(flags.origin('apiport')).toEqual({ kind: 'default' });
  });

  it('is overridden by the command line', () => {
    const { flags } = parse(['-rpcport', '9200'], { LEDGER_NODE_RPCPORT: '9100' });
    expect(flags.integer('rpcport')).toBe(9200);
    expect(flags.origin('rpcport')).toEqual({ kind: 'flag' });
  });

  it('is not read when no environment is passed (tests and tools parse command lines alone)', () => {
    expect(parseFlags([], allFlags).flags.given('rpcport')).toBe(false);
  });

  it('ignores LEDGER_NODE_ variables that name no flag (the passphrase, test settings)', () => {
    expect(() => parse([], { LEDGER_NODE_PASSWORD: 'not a flag', LEDGER_NODE_TEST_TIER: 'unit' })).not.toThrow();
  });

  it.each([
    [{ LEDGER_NODE_RPCPORT: 'lots' }, 'invalid value "lots" for flag -rpcport (from LEDGER_NODE_RPCPORT): expected an integer from 0 to 65535'],
    [{ LEDGER_NODE_SYNC: 'perhaps' }, 'invalid value "perhaps" for flag -sync (from LEDGER_NODE_SYNC): expected true or false'],
    [{ LEDGER_NODE_CHAIN: 'bitcoin' }, 'invalid value "bitcoin" for flag -chain (from LEDGER_NODE_CHAIN): expected one of xrpl, jingtum'],
    [{ LEDGER_NODE_APIADDR: '' }, 'invalid value "" for flag -apiaddr (from LEDGER_NODE_APIADDR): must not be empty'],
  ])('checks %j as the flag, naming the variable', (env, message) => {
    expect(() => parse([], env)).toThrow(FlagError);
    expect(() => parse([], env)).toThrow(message);
  });

  it('checks a value even where the command line overrides it', () => {
    expect(() => parse(['-rpcport', '9200'], { LEDGER_NODE_RPCPORT: 'lots' })).toThrow(/from LEDGER_NODE_RPCPORT/);
  });

  it('refuses credentials in an endpoint URL, as on the command line: those stay in -endpoint_file', () => {
    const env = { LEDGER_NODE_ENDPOINT: 'wss://user:s3cret@node.example:443' };
    expect(() => parse([], env)).toThrow(/holds credentials/);
    expect(() => parse([], env)).not.toThrow(/s3cret/);
  });
});

describe('a mistyped flag', () => {
  it('on the command line, is refused with the flag it most likely meant', () => {
    expect(() => parse(['-rpcprot', '9200'])).toThrow('unknown flag: -rpcprot (did you mean -rpcport?) (see --help)');
    expect(() => parse(['-no_such_flag'])).toThrow(/^unknown flag: -no_such_flag \(see --help\)$/);
  });

  it('in a -config file, likewise', () => {
    const file = configFile('typo.toml', 'log_levle = "warn"\n');
    expect(() => parse(['-config', file])).toThrow(`unknown flag "log_levle" in -config ${file} (did you mean log_level?) (see --help)`);
  });

  it('in the environment, is refused with the variable it most likely meant; a variable far from every flag is not a flag', () => {
    expect(() => parse([], { LEDGER_NODE_RPCPROT: '1' })).toThrow('unknown variable LEDGER_NODE_RPCPROT (did you mean LEDGER_NODE_RPCPORT? each LEDGER_NODE_<FLAG> sets a flag; see --help)');
    expect(() => parse([], { LEDGER_NODE_TEST_TIER: 'e2e', LEDGER_NODE_DEVNET_HISTORY: '3000x1', LEDGER_NODE_SOAK: '1', LEDGER_NODE_PASSWORD: 'x' })).not.toThrow();
  });
});

describe('-config FILE', () => {
  it('reads flag values from TOML, keyed by flag name, of each type', () => {
    const file = configFile('node.toml', '# a node\nrpcport = 9300\nsync = false\nchain = "jingtum"\nrpc_allowed_hosts = "a.example,b.example"\n');
    const { flags } = parse(['-config', file]);
    expect([flags.integer('rpcport'), flags.boolean('sync'), flags.string('chain'), flags.string('rpc_allowed_hosts')]).toEqual([9300, false, 'jingtum', 'a.example,b.example']);
    expect(flags.origin('rpcport')).toEqual({ kind: 'file', file });
  });

  it('reads flag values from JSON', () => {
    const file = configFile('node.json', JSON.stringify({ apiport: 9301, api: true, log_level: 'warn' }));
    const { flags } = parse(['-config', file]);
    expect([flags.integer('apiport'), flags.boolean('api'), flags.string('log_level')]).toEqual([9301, true, 'warn']);
  });

  it('is named by LEDGER_NODE_CONFIG too', () => {
    const file = configFile('from-env.toml', 'rpcport = 9302\n');
    expect(parse([], { LEDGER_NODE_CONFIG: file }).flags.integer('rpcport')).toBe(9302);
  });

  it('ranks below the environment and the command line: flag > environment > file > default', () => {
    const file = configFile('ranked.toml', 'rpcport = 9400\napiport = 9401\nthread_count = 3\n');
    const { flags } = parse(['-config', file, '-rpcport', '9500'], { LEDGER_NODE_RPCPORT: '9600', LEDGER_NODE_APIPORT: '9601' });
    expect([flags.integer('rpcport'), flags.integer('apiport'), flags.integer('thread_count'), flags.integer('max_batch')]).toEqual([9500, 9601, 3, 100]);
    expect(['rpcport', 'apiport', 'thread_count', 'max_batch'].map((name) => flags.origin(name).kind)).toEqual(['flag', 'env', 'file', 'default']);
  });

  it.each([
    ['bad-type.toml', 'rpcport = "lots"\n', /^invalid value "lots" for flag -rpcport \(from .*bad-type\.toml\): expected an integer from 0 to 65535$/],
    ['range.json', '{"rpcport": 70000}', /invalid value "70000" for flag -rpcport \(from .*range\.json\): expected an integer/],
    ['fraction.json', '{"rpcport": 1.5}', /invalid value 1\.5 for flag -rpcport \(from .*fraction\.json\): expected an integer/],
    ['boolean.toml', 'sync = 1\n', /invalid value 1 for flag -sync \(from .*boolean\.toml\): expected true or false/],
    ['string.toml', 'chain = 5\n', /invalid value 5 for flag -chain \(from .*string\.toml\): expected a string/],
    ['table.toml', '[node]\nrpcport = 1\n', /^unknown flag "node" in -config .*table\.toml \(see --help\)$/],
    ['unknown.toml', 'rpc_port = 1\n', /^unknown flag "rpc_port" in -config .*unknown\.toml \(did you mean rpcport\?\) \(see --help\)$/],
    ['nested.toml', 'config = "other.toml"\n', /names another config file/],
    ['broken.toml', 'rpcport = \n', /^-config .*broken\.toml is not valid TOML: invalid value \(line 1, column \d+\)$/],
    ['broken.json', '{"rpcport": ', /^-config .*broken\.json is not valid JSON: /],
    ['list.json', '[1, 2]', /must hold one table of flag names and values/],
    ['node.yaml', 'rpcport: 1\n', /expected a \.toml or \.json file/],
  ])('%s: refused with one line naming the file', (name, text, message) => {
    const file = configFile(name, text);
    expect(() => parse(['-config', file])).toThrow(FlagError);
    expect(() => parse(['-config', file])).toThrow(message);
  });

  it('a missing file is refused with its name and why', () => {
    const missing = path.join(dir.dir, 'missing.toml');
    expect(() => parse(['-config', missing])).toThrow(`cannot read -config ${missing}: ENOENT`);
  });

  it('is not read for --version or the version command, but is for version --help and help version', () => {
    const missing = path.join(dir.dir, 'missing.toml');
    expect(parse(['--version', '-config', missing]).version).toBe(true);
    expect(parse(['version', '-config', missing], { LEDGER_NODE_RPCPORT: 'lots' }).positionals).toEqual(['version']);
    expect(() => parse(['version', '--help', '-config', missing])).toThrow(`cannot read -config ${missing}`);
    expect(() => parse(['help', 'version', '-config', missing])).toThrow(`cannot read -config ${missing}`);
  });
});

describe('values from the environment and the file reach child processes', () => {
  it('toArgs gives every set value, wherever it came from, but -config itself', () => {
    const file = configFile('children.toml', 'thread_count = 4\napi = true\n');
    const { flags } = parse(['-config', file, '-rpc'], { LEDGER_NODE_RPCPORT: '9700' });
    const args = flags.with({ data_dir: '/d' }).toArgs().sort();
    expect(args).toEqual(['-api=true', '-data_dir=/d', '-rpc=true', '-rpcport=9700', '-thread_count=4']);
    // A child given those arguments alone, in an empty environment, sees the same values.
    const child = parseFlags(args, allFlags, { env: {} }).flags;
    for (const name of ['api', 'rpc', 'rpcport', 'thread_count']) expect(child.toRecord()[name], name).toEqual(flags.toRecord()[name]);
  });
});

describe('--help', () => {
  it('shows each set flag with its value and where it came from, the others as defaults only', () => {
    const file = configFile('help.toml', 'thread_count = 4\n');
    const { flags } = parse(['-config', file, '-rpc'], { LEDGER_NODE_RPCPORT: '9700' });
    const entries = helpEntries(renderFlagHelp(flagGroups, flags));
    expect(entries.get('-rpcport PORT')).toBe('Port of the JSON-RPC API (default: 7545) [9700 from LEDGER_NODE_RPCPORT]');
    expect(entries.get('-thread_count N')).toMatch(new RegExp(`\\(default: 8\\) \\[4 from ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\]$`));
    expect(entries.get('-rpc[=true|false]')).toMatch(/\(default: false\) \[true from -rpc\]$/);
    expect(entries.get('-apiport PORT')).toBe('Port of the JSON REST API (default: 7544)');
  });
});
