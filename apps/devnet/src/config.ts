/**
 * The devnet's settings: the only place that reads flags. The flags themselves are declared once in
 * libs/config (`-port`, `-host`, `-close_ms`, `-idle_close_ms`, `-chain`, `-replay`, `-replay_rate`,
 * `-load`, `-load_accounts`, `-devnet_validators`, `-devnet_keys`, `-devnet_chain`, `-log_level`), which has already
 * checked each value's type and range.
 */
import type { ChainId } from '@ledger-node/chain';
import { portRangeOf, type ParsedFlags, type PortRange } from '@ledger-node/config';
import { InvalidParams } from '@ledger-node/errors';
import type { LogLevel } from '@ledger-node/telemetry';

export interface DevnetFlags {
  /** WebSocket port; 0 binds any free port (inside `port_range` when set). */
  port: number;
  /** -port_range: where port 0 is chosen. */
  port_range?: PortRange;
  host: string;
  /** Close interval while transactions are pending. */
  close_ms: number;
  /** Close interval while none is pending. */
  idle_close_ms: number;
  chain: ChainId;
  /** -definitions: the chain's binary format from this file instead of the profile's table. */
  definitions?: string;
  /** Folder of recorded ledger JSON files; when set the devnet serves them instead of a live chain. */
  replay?: string;
  /** Ledgers per second announced on the `ledger` stream in replay mode. */
  replay_rate: number;
  /** Transactions per second submitted by the load generator; 0 turns it off. */
  load: number;
  /** Most transactions one open ledger takes before it queues them (0: no limit). */
  open_ledger_limit: number;
  load_accounts: number;
  /** How many validators the network has. */
  devnet_validators: number;
  /** The file keeping the network's keys; undefined: keys from public entropy. */
  devnet_keys?: string;
  /** The file the chain is saved to at a stop and continued from at a start; undefined: a new chain every start. */
  devnet_chain?: string;
  log_level: LogLevel;
  /** A history to build before serving (LEDGER_NODE_DEVNET_HISTORY); undefined: start from genesis. */
  history?: HistoryPlan;
}

export interface HistoryPlan {
  ledgers: number;
  /** Transactions in each ledger (uniform), or their mean (mainnet-shaped). */
  transactionsPerLedger: number;
  /** Present for a mainnet-shaped history: the seed every draw comes from. */
  mainnet?: { seed: number };
}

/** The seed of a mainnet-shaped history when the variable names none. */
export const DEFAULT_HISTORY_SEED = 1;

const HISTORY_SYNTAX = /^(\d{1,6})x(\d{1,5})(?::(mainnet)(?::(\d{1,9}))?)?$/;

/**
 * LEDGER_NODE_DEVNET_HISTORY makes a live devnet build a history before it listens, so that
 * `npm run bench` can time a backfill without waiting for ledgers to close in real time:
 * - LEDGERSxTXS (e.g. 400x50): that many ledgers of exactly that many signed random payments
 *   between -load_accounts funded accounts (the uniform history);
 * - LEDGERSxTXS:mainnet[:SEED] (e.g. 400x50:mainnet): that many ledgers holding LEDGERS×TXS
 *   transactions in all, shaped after the real ledger: ledgers of varied sizes, several gateways
 *   and currencies, trust lines opened, changed and removed, payments rippling through one or two
 *   gateways, accounts created, AccountSet changes, Memos, and some payments failing with a tec;
 *   every draw from SEED (default 1), so two builds with one seed hold the same transactions.
 */
export function historyPlan(value: string | undefined): HistoryPlan | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const match = HISTORY_SYNTAX.exec(value.trim());
  const ledgers = Number(match?.[1]);
  const transactionsPerLedger = Number(match?.[2]);
  if (!match || ledgers < 1 || transactionsPerLedger < 1) {
    throw new InvalidParams(
      `LEDGER_NODE_DEVNET_HISTORY must be LEDGERSxTRANSACTIONS, optionally followed by :mainnet or :mainnet:SEED (e.g. 400x50 or 400x50:mainnet), got ${JSON.stringify(value)}`,
      'LEDGER_NODE_DEVNET_HISTORY',
    );
  }
  if (match[3] === undefined) return { ledgers, transactionsPerLedger };
  return { ledgers, transactionsPerLedger, mainnet: { seed: match[4] === undefined ? DEFAULT_HISTORY_SEED : Number(match[4]) } };
}

export function devnetConfig(flags: ParsedFlags): DevnetFlags {
  const config: DevnetFlags = {
    port: flags.integer('port')!,
    port_range: portRangeOf(flags),
    host: flags.string('host')!,
    close_ms: flags.integer('close_ms')!,
    idle_close_ms: flags.integer('idle_close_ms')!,
    open_ledger_limit: flags.integer('open_ledger_limit')!,
    chain: flags.string('chain') as ChainId,
    definitions: flags.string('definitions'),
    replay: flags.string('replay'),
    replay_rate: flags.integer('replay_rate')!,
    load: flags.integer('load')!,
    load_accounts: flags.integer('load_accounts')!,
    devnet_validators: flags.integer('devnet_validators')!,
    devnet_keys: flags.string('devnet_keys'),
    devnet_chain: flags.string('devnet_chain'),
    log_level: flags.string('log_level') as LogLevel,
    history: historyPlan(process.env.LEDGER_NODE_DEVNET_HISTORY),
  };
  if (config.replay !== undefined && config.load > 0) {
    throw new InvalidParams('flag -load cannot be combined with -replay: recorded ledgers take no transactions', 'load');
  }
  if (config.replay !== undefined && config.history !== undefined) {
    throw new InvalidParams('LEDGER_NODE_DEVNET_HISTORY cannot be combined with -replay: recorded ledgers take no transactions', 'replay');
  }
  return config;
}
