import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { dataDir, FlagError, freeListenPort, originText, portRangeOf, storeTarget, TRUST_FLAGS, type ParsedFlags } from '@ledger-node/config';
import { createLogger, resolveLogFormat, runtimeEndOfLife, type LogFormat, type Logger, type LogLevel } from '@ledger-node/telemetry';
import type { ServiceName } from '../services';
import { Supervisor } from './supervisor';

/** Which services `ledger-node` starts for the given flags, in start order. */
export function servicePlan(flags: ParsedFlags): ServiceName[] {
  const serving = flags.boolean('rpc') || flags.boolean('api') || flags.boolean('ws');
  const plan: ServiceName[] = [];
  if (flags.boolean('dev')) plan.push('devnet');
  plan.push('ledger-store');
  if (serving && !flags.boolean('read_only')) plan.push('keystore', 'submission');
  if (flags.boolean('sync')) plan.push('sync');
  if (serving) plan.push('facade');
  return plan;
}

/**
 * The services of an earlier node still answering on this data directory's sockets (one whose
 * supervisor was killed, or a second start by mistake): starting beside them would not work.
 */
async function liveServices(dir: string): Promise<string[]> {
  const runDir = path.join(dir, 'run');
  const sockets = existsSync(runDir) ? readdirSync(runDir).filter((name) => name.endsWith('.sock')) : [];
  const answering = await Promise.all(
    sockets.map(
      (name) =>
        new Promise<string | undefined>((resolve) => {
          const socket = connect(path.join(runDir, name));
          const done = (live: boolean) => {
            socket.destroy();
            resolve(live ? name.replace(/\.sock$/, '') : undefined);
          };
          socket.setTimeout(1_000, () => done(false));
          socket.once('connect', () => done(true));
          socket.once('error', () => done(false));
        }),
    ),
  );
  return answering.filter((name): name is string => name !== undefined);
}

/** Where a flag's value came from, when not the command line: " (from LEDGER_NODE_X)". */
function fromText(flags: ParsedFlags, flag: string): string {
  const origin = flags.origin(flag);
  return origin.kind === 'flag' || origin.kind === 'default' ? '' : ` (from ${originText(origin, flag)})`;
}

/** `ledger-node` with no command: every needed service as a child process, until SIGINT/SIGTERM. */
export async function runSupervisor(flags: ParsedFlags): Promise<number> {
  const dir = dataDir(flags);
  const running = await liveServices(dir);
  if (running.length > 0) {
    throw new FlagError(`${dir} is in use: ${running.join(', ')} of an earlier node still answer under ${path.join(dir, 'run')}; stop that node first`);
  }
  mkdirSync(path.join(dir, 'run'), { recursive: true, mode: 0o700 });
  // The children write to this process's stdout: each is told the format chosen for it here.
  const logFormat = resolveLogFormat(flags.string('log_format') as LogFormat);
  let childFlags = flags.with({ data_dir: dir, log_format: logFormat });
  const logger = createLogger('ledger-node', supervisorLogLevel(flags.string('log_level') as LogLevel), { format: logFormat });
  if (flags.boolean('dev')) {
    // The chain library only for -dev: a supervisor of a node on a network never loads its codecs.
    const { DEVNET_NETWORK_ID, devnetNetworkKeys } = await import('@ledger-node/chain');
    for (const flag of ['endpoint', 'endpoint_file']) {
      if (flags.given(flag)) throw new FlagError(`-dev and -${flag}${fromText(flags, flag)} exclude each other: -dev syncs from the embedded devnet`);
    }
    // The node states the network it follows: the devnet's.
    const networkId = flags.integer('network_id') ?? DEVNET_NETWORK_ID;
    if (networkId !== DEVNET_NETWORK_ID) {
      throw new FlagError(`-dev syncs from the embedded devnet, whose network id is ${DEVNET_NETWORK_ID}, not -network_id ${networkId}${fromText(flags, 'network_id')}`);
    }
    const devnetChain = flags.string('devnet_chain') ?? path.join(dir, 'devnet', 'chain.json');
    setDevnetStoreAside(flags, dir, devnetChain, logger);
    const portGiven = flags.given('port') && flags.integer('port') !== 0;
    const port = portGiven ? flags.integer('port')! : await freeListenPort(portRangeOf(flags));
    childFlags = childFlags.with({ port, endpoint: `ws://127.0.0.1:${port}`, network_id: networkId, devnet_chain: devnetChain });
    if (!TRUST_FLAGS.some((flag) => flags.given(flag))) {
      // The embedded devnet plays a network: its ledgers are proven by its publisher's list, as a real network's are.
      const devnetKeys = flags.string('devnet_keys') ?? path.join(dir, 'devnet', 'network-keys.json');
      const { publisher } = devnetNetworkKeys({ file: devnetKeys, validatorCount: flags.integer('devnet_validators')! });
      childFlags = childFlags.with({ devnet_keys: devnetKeys, validator_list_sites: `http://127.0.0.1:${port}/vl.json`, validator_list_keys: publisher.master.publicKey });
    }
  }

  // Once the flags are known good: a refused flag stays the one line the node prints.
  const endOfLife = runtimeEndOfLife();
  if (endOfLife !== undefined) logger.warn({ node: process.version }, endOfLife);
  const supervisor = new Supervisor(servicePlan(flags), childFlags.toArgs(), logger);
  return supervisor.run();
}

/** Marks a RocksDB store as holding an embedded devnet's chain (written by -dev). */
const DEVNET_STORE_MARK = 'store-holds-a-devnet-chain';

/**
 * The embedded devnet continues the chain it saved when it last stopped (`devnetChain`,
 * -devnet_chain), and the store of that chain is kept. Without a saved chain (the first start, or
 * a devnet that was killed) it starts a new one: a store that holds the chain of an earlier -dev
 * run is then set aside (renamed, the one set aside before removed) and the node starts a fresh
 * store, saying so, rather than mixing two chains. A store that holds any other chain is left as
 * it is (the ledger-store refuses another network's, and sync stops, naming both hashes, where the
 * chains differ, as it does should a saved chain not be the store's).
 */
function setDevnetStoreAside(flags: ParsedFlags, dir: string, devnetChain: string, logger: Logger): void {
  const target = storeTarget(flags);
  if (target.kind !== 'rocksdb') return;
  const mark = path.join(dir, 'devnet', DEVNET_STORE_MARK);
  const exists = existsSync(target.path);
  // A store of another chain (no mark) is not the devnet's to set aside, nor to mark.
  if (exists && !existsSync(mark)) return;
  if (exists && existsSync(devnetChain)) {
    logger.info({ devnetChain }, `the embedded devnet continues the chain it saved in ${devnetChain}, and this node its store`);
    return;
  }
  if (exists) {
    const aside = `${target.path}.previous-devnet-chain`;
    rmSync(aside, { recursive: true, force: true });
    renameSync(target.path, aside);
    logger.info(
      { previousStore: aside },
      `the embedded devnet starts a new chain (it saved none when it last stopped): the store of the previous one is set aside at ${aside}, and this node starts a fresh store`,
    );
  }
  mkdirSync(path.dirname(mark), { recursive: true, mode: 0o700 });
  writeFileSync(mark, `${target.path} holds the chain of an embedded devnet (ledger-node -dev)\n`);
}

/** The supervisor's status lines (one per service change) are shown at any -log_level but a more verbose one. */
function supervisorLogLevel(level: LogLevel): LogLevel {
  return level === 'trace' || level === 'debug' ? level : 'info';
}
