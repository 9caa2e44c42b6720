/**
 * The devnet: a local single-node chain (or a replay of recorded ledgers) behind rippled's
 * WebSocket API, playing a network of validators and a list publisher. Wiring only: flags →
 * network → chain or replay → WebSocket server and publisher site → optional load.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { devnetNetworkKeys, encodeNodePublicKey, getProfile, type ChainProfile } from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';
import { createLogger, type Logger } from '@ledger-node/telemetry';
import { freeListenPort, type ParsedFlags } from '@ledger-node/config';
import { devnetConfig, type DevnetFlags } from './config';
import { LoadGenerator } from './load/load-generator';
import type { DevnetChain } from './engine';
import { DevnetNetwork } from './network/network';
import { readRecordedLedgers } from './replay/recorded-ledgers';
import { ReplayLedgerSource } from './replay/replay-source';
import { formatRanges, type LedgerSource } from './ws/ledger-source';
import { LiveLedgerSource } from './ws/live-source';
import { startWsServer } from './ws/server';


export interface RunningDevnet {
  /** `ws://HOST:PORT` of the WebSocket API. */
  url: string;
  stop(): Promise<void>;
}

interface PreparedSource {
  source: LedgerSource;
  stop(): void;
  live?: LiveLedgerSource;
}

function replaySource(flags: DevnetFlags, profile: ChainProfile, folder: string, logger: Logger): PreparedSource {
  const recorded = readRecordedLedgers(folder, profile);
  for (const failure of recorded.failures) {
    logger.error({ file: failure.file, reason: failure.reason }, `recorded ledger file ${failure.file} skipped: ${failure.reason}`);
  }
  for (const warning of recorded.warnings) {
    logger.warn({ file: warning.file, reason: warning.reason }, `recorded ledger file ${warning.file}: ${warning.reason}`);
  }
  if (recorded.ledgers.length === 0) {
    throw new InvalidParams(`-replay ${folder}: no recorded ledger could be read`, 'replay');
  }
  const replay = new ReplayLedgerSource(profile, recorded.ledgers, { ledgersPerSecond: flags.replay_rate, logger });
  logger.info(
    { ledgers: recorded.ledgers.length, completeLedgers: formatRanges(replay.completeRanges()), folder },
    'replaying recorded ledgers',
  );
  return { source: replay, stop: () => replay.stop() };
}

/**
 * The chain saved at `file` by an earlier run (-devnet_chain), taken: the file is removed as it is
 * read, so that a run that stops without saving leaves none, and the next run starts a new chain
 * rather than continue an older point of this one. Undefined when there is none, or it cannot be
 * continued (said in the log).
 */
async function savedChain(file: string, profile: ChainProfile, logger: Logger) {
  if (!existsSync(file)) return undefined;
  const { restoreSnapshot } = await import('./engine');
  try {
    const restored = restoreSnapshot(JSON.parse(readFileSync(file, 'utf8')), profile);
    const last = restored.ledgers.at(-1)!;
    logger.info({ file, ledgers: restored.ledgers.length, lastHash: last.hash }, `continuing the chain saved in ${file}: ledgers 1-${last.header.ledgerIndex}, the last ${last.hash}`);
    return restored;
  } catch (error) {
    logger.warn({ file, reason: (error as Error).message }, `the chain saved in ${file} cannot be continued (${(error as Error).message}): a new chain starts`);
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

/** Saves the chain to `file` (written beside it, then renamed: a file of that name is whole), mode 0600. */
function saveChain(file: string, chain: DevnetChain, logger: Logger): void {
  try {
    const partial = `${file}.partial`;
    writeFileSync(partial, JSON.stringify(chain.snapshot()), { mode: 0o600 });
    renameSync(partial, file);
    logger.info({ file, ledgers: chain.validatedLedgerIndex() }, `chain saved in ${file} (ledgers 1-${chain.validatedLedgerIndex()}): the next start continues it`);
  } catch (error) {
    logger.warn({ file, reason: (error as Error).message }, `the chain could not be saved in ${file} (${(error as Error).message}): the next start begins a new one`);
  }
}

async function liveSource(flags: DevnetFlags, profile: ChainProfile, network: DevnetNetwork, logger: Logger): Promise<PreparedSource> {
  // Loaded only for a live chain: a replay serves recorded ledgers without the engine.
  const { createDevnetChain } = await import('./engine');
  const restore = flags.devnet_chain === undefined ? undefined : await savedChain(flags.devnet_chain, profile, logger);
  const chain = createDevnetChain(profile, { openLedgerLimit: flags.open_ledger_limit, negativeUnlVoter: network, ...(restore ? { restore } : {}) });
  // Who validated each ledger is fixed when it closes: the negative-UNL vote scores it.
  chain.onLedgerClosed((ledger) => network.ledgerClosed({ ledgerIndex: ledger.header.ledgerIndex, hash: ledger.hash }));
  const live = new LiveLedgerSource(chain, { closeMs: flags.close_ms, idleCloseMs: flags.idle_close_ms, logger });
  logger.info(
    { chain: profile.id, address: profile.genesis.address, secret: profile.genesis.secret },
    `genesis account ${profile.genesis.address} secret ${profile.genesis.secret} (devnet only: never use this key elsewhere)`,
  );
  const file = flags.devnet_chain;
  return {
    source: live,
    stop: () => {
      live.stop();
      // Saved on a stop asked for (a signal, the supervisor's); one because the supervisor is gone
      // (its channel closed: killed) is a crash's, and saves nothing, as a devnet killed outright.
      if (file !== undefined && process.connected !== false) saveChain(file, chain, logger);
    },
    live,
  };
}

/** Starts the devnet; resolves once the WebSocket server listens. */
export async function start(parsed: ParsedFlags): Promise<RunningDevnet> {
  const flags = devnetConfig(parsed);
  const logger = createLogger('devnet', flags.log_level);
  const profile = getProfile(flags.chain, { definitionsFile: flags.definitions });
  const network = new DevnetNetwork(profile, devnetNetworkKeys({ file: flags.devnet_keys, validatorCount: flags.devnet_validators }));
  const prepared = flags.replay !== undefined ? replaySource(flags, profile, flags.replay, logger) : await liveSource(flags, profile, network, logger);

  if (prepared.live && flags.history) {
    const builder = new LoadGenerator(prepared.live, { transactionsPerSecond: 0, accountCount: flags.load_accounts, logger });
    try {
      await builder.prebuild(flags.history);
    } catch (error) {
      prepared.stop();
      throw error;
    }
  }

  let server;
  try {
    // -port 0 inside -port_range: a port of the range; without one, the system's choice.
    const port = flags.port === 0 && flags.port_range !== undefined ? await freeListenPort(flags.port_range, flags.host) : flags.port;
    server = await startWsServer({ source: prepared.source, network, host: flags.host, port, logger });
  } catch (error) {
    prepared.stop();
    throw error;
  }
  network.site = server.siteUrl;
  logger.info(
    { publisher: network.publisherKey, site: server.siteUrl, validators: network.validators.length },
    `validator list publisher ${network.publisherKey} at ${server.siteUrl} (${network.validators.length} validators)`,
  );
  // What a node given -validators or a rippled [validators] section would list: the master keys.
  const masterKeys = network.validators.map((validator) => encodeNodePublicKey(validator.master.publicKey, profile));
  logger.info({ validators: masterKeys }, `validators (master keys; each validates with the signing key its manifest names): ${masterKeys.join(' ')}`);
  prepared.live?.startClosing();
  logger.info({ url: server.url, mode: prepared.source.mode, closeMs: flags.close_ms, idleCloseMs: flags.idle_close_ms }, `devnet listening on ${server.url}`);

  let load: LoadGenerator | undefined;
  if (prepared.live && flags.load > 0) {
    load = new LoadGenerator(prepared.live, { transactionsPerSecond: flags.load, accountCount: flags.load_accounts, logger });
    load.start().catch((error: unknown) => logger.error({ err: error }, 'load generator stopped'));
  }

  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    stop() {
      stopping ??= (async () => {
        load?.stop();
        prepared.stop();
        await server.close();
        logger.info('devnet stopped');
      })();
      return stopping;
    },
  };
}
