/**
 * The processes a bench run starts: each is started here, tracked, and stopped by its pid at the
 * end, even when the run fails or times out. The node's supervisor starts its services in process
 * groups of their own, so their pids are read from its status lines and stopped one by one too.
 */
import { readFileSync } from 'node:fs';
import { childPids, cliEntry, startProcess, type RunningProcess } from '@ledger-node/test-utils';

const started = new Set<RunningProcess>();
/** Service name → pids seen in supervisor status lines (a restarted service has several). */
const servicePids = new Map<number, string>();

export function start(args: string[], env: NodeJS.ProcessEnv = {}): RunningProcess {
  const running = startProcess(args, { env });
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
  killLeftOverServices();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** A service still running after its supervisor stopped is killed by its pid. */
function killLeftOverServices(): void {
  for (const pid of servicePids.keys()) {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    servicePids.delete(pid);
  }
}

/** Stops everything this run started; for `finally` and for the hard timeout. */
export async function stopEverything(): Promise<void> {
  await Promise.allSettled([...started].map((running) => running.stop('SIGKILL', 2_000)));
  started.clear();
  killLeftOverServices();
}

/** The pids of the supervisor's services, by name, from its status lines so far. */
export function servicesOf(node: RunningProcess): Map<string, number> {
  const pids = childPids(node, ['starting', 'restarted']);
  for (const [service, pid] of pids) servicePids.set(pid, service);
  return pids;
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
