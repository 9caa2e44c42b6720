import { describe, expect, it } from 'vitest';
import { helpEntries } from '@ledger-node/test-utils';
import { allFlags, FlagError, parseFlags, renderFlagHelp, flagGroups } from './index';

const parse = (...argv: string[]) => parseFlags(argv, allFlags);

/** The seed's flags with their seed defaults (SPEC §1.1). */
const seedDefaults: [string, 'string' | 'integer' | 'boolean', unknown][] = [
  ['data_dir', 'string', undefined],
  ['database_name', 'string', 'node.db'],
  ['endpoint', 'string', undefined],
  ['thread_count', 'integer', 8],
  ['sync', 'boolean', true],
  ['api', 'boolean', false],
  ['apiaddr', 'string', 'localhost'],
  ['apiport', 'integer', 7544],
  ['rpc', 'boolean', false],
  ['rpcaddr', 'string', 'localhost'],
  ['rpcport', 'integer', 7545],
];

const read = (flags: ReturnType<typeof parse>['flags'], name: string, type: string) =>
  type === 'boolean' ? flags.boolean(name) : type === 'integer' ? flags.integer(name) : flags.string(name);

describe('seed flags', () => {
  it.each(seedDefaults)('-%s defaults to its seed value', (name, type, expected) => {
    const { flags } = parse();
    expect(read(flags, name, type)).toBe(expected);
    expect(flags.given(name)).toBe(false);
  });

  it.each(seedDefaults.filter(([, type]) => type !== 'boolean'))('-%s takes a value as "-flag value", "-flag=value" and "--flag value"', (name, type) => {
    const value = type === 'integer' ? '9' : name === 'endpoint' ? 'ws://127.0.0.1:6006' : 'x1';
    for (const argv of [[`-${name}`, value], [`-${name}=${value}`], [`--${name}`, value], [`--${name}=${value}`]]) {
      const { flags } = parse(...argv);
      expect(read(flags, name, type)).toBe(type === 'integer' ? 9 : value);
      expect(flags.given(name)).toBe(true);
    }
  });

  it.each(['sync', 'api', 'rpc'])('boolean -%s accepts -flag, -flag=false, -flag=true and -flag false', (name) => {
    expect(parse(`-${name}`).flags.boolean(name)).toBe(true);
    expect(parse(`-${name}=false`).flags.boolean(name)).toBe(false);
    expect(parse(`--${name}=true`).flags.boolean(name)).toBe(true);
    expect(parse(`-${name}`, 'false').flags.boolean(name)).toBe(false);
  });

  it.each([
    [['-thread_count', '0'], /-thread_count: expected an integer from 1 to 256/],
    [['-thread_count', 'eight'], /invalid value "eight" for flag -thread_count/],
    [['-rpcport', '70000'], /-rpcport: expected an integer from 0 to 65535/],
    [['-apiport=-1'], /-apiport/],
    [['-sync=maybe'], /invalid value "maybe" for flag -sync: expected true or false/],
    [['-endpoint', 'http://example.com'], /-endpoint: must be ws:\/\/HOST:PORT/],
    [['-database_name', '../escape'], /-database_name: must be a plain directory name/],
    [['-chain', 'bitcoin'], /-chain: expected one of xrpl, jingtum/],
    [['-rpcaddr'], /flag -rpcaddr needs a value/],
    [['-no_such_flag'], /unknown flag: -no_such_flag/],
  ])('rejects %j with a message naming the flag', (argv, message) => {
    expect(() => parse(...argv)).toThrow(FlagError);
    expect(() => parse(...argv)).toThrow(message);
  });

  it('accepts several comma-separated endpoints', () => {
    expect(parse('-endpoint', 'ws://a:1,wss://b').flags.string('endpoint')).toBe('ws://a:1,wss://b');
  });
});

describe('parseFlags', () => {
  it('keeps command words in order around flags', () => {
    const { positionals, flags } = parse('account', '-nickname', 'alice', 'generate');
    expect(positionals).toEqual(['account', 'generate']);
    expect(flags.string('nickname')).toBe('alice');
  });

  it('recognises --help and -h', () => {
    expect(parse('--help').help).toBe(true);
    expect(parse('-h').help).toBe(true);
  });

  it('recognises --version and -version', () => {
    expect(parse('--version').version).toBe(true);
    expect(parse('-version').version).toBe(true);
    expect(parse('version').version).toBe(false);
    expect(() => parse('-version=1')).toThrow(/unknown flag: -version/);
  });

  it('gives back the given flags as child arguments, with overrides', () => {
    const { flags } = parse('-rpc', '-rpcport', '9000');
    expect(flags.with({ data_dir: '/d' }).toArgs().sort()).toEqual(['-data_dir=/d', '-rpc=true', '-rpcport=9000']);
    const reparsed = parse(...flags.toArgs()).flags;
    expect(reparsed.integer('rpcport')).toBe(9000);
    expect(reparsed.boolean('rpc')).toBe(true);
  });

  it('refuses to read a flag under the wrong type (a programming error, not user input)', () => {
    expect(() => parse().flags.integer('rpcaddr')).toThrow(/is string, read as integer/);
  });
});

describe('renderFlagHelp', () => {
  it('lists every flag with its default', () => {
    const help = renderFlagHelp(flagGroups);
    for (const spec of allFlags) expect(help).toContain(`-${spec.name}`);
    const entries = helpEntries(help);
    expect(entries.get('-rpcport PORT')).toBe('Port of the JSON-RPC API (default: 7545)');
    expect(entries.get('-thread_count N')).toMatch(/\(default: 8\)$/);
  });

  it('wraps to the width asked, every flag an entry of its own', () => {
    for (const width of [60, 80, 120]) {
      const help = renderFlagHelp(flagGroups, undefined, width);
      const long = help.split('\n').filter((line) => [...line].length > width && !/^\s*\S+$/.test(line));
      expect(long, `lines over ${width} columns`).toEqual([]);
      expect(helpEntries(help).size).toBe(allFlags.length);
    }
  });
});

describe('-trusted_proxies', () => {
  it('takes addresses and CIDR ranges of either family', () => {
    expect(parse('-trusted_proxies', '10.0.0.0/8, 192.0.2.10,fd00::/8,::1').flags.string('trusted_proxies')).toBe('10.0.0.0/8, 192.0.2.10,fd00::/8,::1');
  });

  it.each(['10.0.0.0/33', 'fd00::/129', 'ingress', '10.0.0.0/8/1', '10.0.0.0/x', '300.1.1.1'])('refuses %s, naming it', (entry) => {
    expect(() => parse('-trusted_proxies', `10.0.0.1,${entry}`)).toThrow(new RegExp(`"${entry.replace(/[./]/g, '\\$&')}" is not an IP address or a CIDR range`));
  });
});
