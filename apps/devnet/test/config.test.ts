import { afterAll, describe, expect, it } from 'vitest';
import { allFlags, parseFlags } from '@ledger-node/config';
import { cliEntry, freePort, startProcess, stopAll } from '@ledger-node/test-utils';
import { devnetConfig } from '../src/config';

const configOf = (...argv: string[]) => devnetConfig(parseFlags(argv, allFlags).flags);

describe('devnetConfig', () => {
  it('takes the declared defaults', () => {
    expect(configOf()).toEqual({
      port: 6006,
      host: '127.0.0.1',
      close_ms: 1000,
      idle_close_ms: 5000,
      chain: 'xrpl',
      replay: undefined,
      replay_rate: 1,
      load: 0,
      load_accounts: 10,
      devnet_validators: 5,
      devnet_keys: undefined,
      open_ledger_limit: 0,
      log_level: 'info',
    });
  });

  it('reads the devnet flags from the command line', () => {
    expect(configOf('-port', '0', '-close_ms=250', '-chain', 'jingtum', '-replay', '/data/ledgers', '-replay_rate', '3', '-log_level', 'warn')).toMatchObject({
      port: 0,
      close_ms: 250,
      chain: 'jingtum',
      replay: '/data/ledgers',
      replay_rate: 3,
      log_level: 'warn',
    });
  });

  it('refuses -load with -replay, naming -load', () => {
    expect(() => configOf('-replay', '/data', '-load', '10')).toThrow(/flag -load cannot be combined with -replay/);
  });
});

describe('-port 0 inside -port_range', () => {
  afterAll(() => stopAll());

  it('listens on a port of the range, the range given as LEDGER_NODE_PORT_RANGE as tests and the bench give it', async () => {
    const first = await freePort();
    const range = `${first}-${first + 9}`;
    const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-log_level', 'info'], { env: { LEDGER_NODE_PORT_RANGE: range } });
    const [, port] = await devnet.waitFor(/devnet listening on ws:\/\/127\.0\.0\.1:(\d+)/, 30_000);
    expect(Number(port)).toBeGreaterThanOrEqual(first);
    expect(Number(port)).toBeLessThanOrEqual(first + 9);
    await devnet.stop();
  });

  it('refuses a range that is none, naming the flag', async () => {
    const devnet = startProcess([cliEntry(), 'devnet', '-port', '0', '-port_range', '9000-8000']);
    expect(await devnet.exited).toBe(2);
    expect(devnet.output()).toContain('-port_range');
    expect(devnet.output()).toContain('the first port is above the last');
  });
});
