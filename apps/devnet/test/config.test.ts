import { describe, expect, it } from 'vitest';
import { allFlags, parseFlags } from '@ledger-node/config';
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
