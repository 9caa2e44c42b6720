/**
 * The processes a bench run starts: each is started here, tracked, and stopped by its pid at the
 * end, even when the run fails or times out. The node's supervisor starts its services in process
 * groups of their own, so their pids are read from its status lines and stopped one by one too.
 */
import { readFileSync } from 'node:fs';
import { alive, childPids, cliEntry, startProcess, supervisorStatus, type RunningProcess } from '@ledger-node/test-utils';

const started = new Set<RunningProcess>();

/**
 * The services of each supervisor the run started, by pid, read from its status lines (a restarted
 * service has several pids), so that a supervisor's stop also stops what it left running, and only that.
 */
export class SupervisedServices {
  private readonly pids = new Map<RunningProcess, Set<number>>();

  constructor(private readonly kill: (pid: number) => void) {}

  /** The pids of the supervisor's services, by name, from its status lines so far. */
  of(supervisor: RunningProcess): Map<string, number> {
    const pids = childPids(supervisor, ['starting', 'restarted']);
    const known = this.pids.get(supervisor) ?? new Set<number>();
    for (const pid of pids.values()) known.add(pid);
    this.pids.set(supervisor, known);
    return pids;
  }

  /** Kills each service of `supervisor` seen so far: its own, never another supervisor's. */
  killLeftOver(supervisor: RunningProcess): void {
    for (const pid of this.pids.get(supervisor) ?? []) this.kill(pid);
    this.pids.delete(supervisor);
  }

  killAll(): void {
    for (const supervisor of [...this.pids.keys()]) this.killLeftOver(supervisor);
  }
}

const services = new SupervisedServices((pid) => {
  if (alive(pid)) process.kill(pid, 'SIGKILL');
});

/** The Node.js the measured processes run on: the image's (run.mjs `--runtime image`), or this one. */
export const measuredNode = process.env.LEDGER_NODE_BENCH_NODE || process.execPath;
/** The image runtime's production dependencies (run.mjs), when the processes run on that runtime. */
export const measuredApp = process.env.LEDGER_NODE_BENCH_APP || undefined;

/** Starts `node <args>` on the measured Node.js. */
export function start(args: string[], env: NodeJS.ProcessEnv = {}): RunningProcess {
  const running = startProcess(args, { env, execPath: measuredNode });
  started.add(running);
  return running;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningProcess {
  return start([cliEntry(), ...args], env);
}

/** Stops one process (SIGTERM, then SIGKILL after `graceMs`) and the services it supervised. */
export async function stop(running: RunningProcess, graceMs = 15_000): Promise<void> {
  await running.stop('SIGTERM', graceMs);
  started.delete(running);
  services.killLeftOver(running);
}

/** Stops everything this run started; for `finally` and for the hard timeout. */
export async function stopEverything(): Promise<void> {
  await Promise.allSettled([...started].map((running) => running.stop('SIGKILL', 2_000)));
  started.clear();
  services.killAll();
}

/** The pids of a node's services, by name, from its supervisor's status lines so far. */
export const servicesOf = (node: RunningProcess): Map<string, number> => services.of(node);

/**
 * Why a node's figures cannot be trusted, if they cannot: a service that crashed and was restarted
 * while it was measured (its supervisor's `crashed` status lines).
 */
export function crashesOf(node: RunningProcess): string | undefined {
  const crashes = supervisorStatus(node).filter((status) => status.state === 'crashed');
  if (crashes.length === 0) return undefined;
  return `${crashes.length} service crash${crashes.length === 1 ? '' : 'es'} while it was measured: ${crashes.map((status) => status.msg.replace(/\s+/g, ' ')).join('; ')}`;
}

/** Peak resident set (VmHWM) of a running process in MiB; undefined once it is gone. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
