/**
 * The devnet's settings: the only place that reads flags. The flags themselves are declared once in
 * libs/config (`-port`, `-host`, `-close_ms`, `-chain`, `-replay`, `-replay_rate`, `-load`,
 * `-load_accounts`, `-log_level`), which has already checked each value's type and range.
 */
import type { ChainId } from '@ledger-node/chain';
import type { ParsedFlags } from '@ledger-node/config';
import { InvalidParams } from '@ledger-node/errors';
import type { LogLevel } from '@ledger-node/telemetry';

export interface DevnetFlags {
  /** WebSocket port; 0 binds any free port. */
  port: number;
  host: string;
  /** Close interval while transactions are pending. */
  close_ms: number;
  chain: ChainId;
  /** Folder of recorded ledger JSON files; when set the devnet serves them instead of a live chain. */
  replay?: string;
  /** Ledgers per second announced on the `ledger` stream in replay mode. */
  replay_rate: number;
  /** Transactions per second submitted by the load generator; 0 turns it off. */
  load: number;
  load_accounts: number;
  log_level: LogLevel;
}

export function devnetConfig(flags: ParsedFlags): DevnetFlags {
  const config: DevnetFlags = {
    port: flags.integer('port')!,
    host: flags.string('host')!,
    close_ms: flags.integer('close_ms')!,
    chain: flags.string('chain') as ChainId,
    replay: flags.string('replay'),
    replay_rate: flags.integer('replay_rate')!,
    load: flags.integer('load')!,
    load_accounts: flags.integer('load_accounts')!,
    log_level: flags.string('log_level') as LogLevel,
  };
  if (config.replay !== undefined && config.load > 0) {
    throw new InvalidParams('flag -load cannot be combined with -replay: recorded ledgers take no transactions', 'load');
  }
  return config;
}
