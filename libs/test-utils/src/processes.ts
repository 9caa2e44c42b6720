import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workspaceRoot } from './fixtures';

export interface RunningProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything the process printed so far (stdout and stderr interleaved). */
  output(): string;
  /**
   * Resolves when the output matches, rejects when the process exits first or time runs out, or
   * (with `quietMs`) once it has printed nothing for that long: a long wait on a process that says
   * how far it is (a history build) fails as soon as it stalls, not at the end of the long wait.
   */
  waitFor(pattern: RegExp, timeoutMs?: number, options?: { quietMs?: number }): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Sends a signal to the process group and waits for the exit, escalating to SIGKILL. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | string>;
}

const running = new Set<RunningProcess>();

/**
 * The `ledger-node` CLI the tests run: `npm test` bundles the sources once before the end-to-end
 * tier (tools/test/run.mjs) and names the bundle's entry in LEDGER_NODE_TEST_CLI, so that the
 * hundreds of processes the tests start load plain JavaScript; a file run on its own runs the
 * TypeScript sources through tsx, with no build.
 */
export function cliEntry(): string {
  return process.env.LEDGER_NODE_TEST_CLI || path.join(workspaceRoot(), 'apps/node/bin/ledger-node-sources.js');
}

/**
 * Starts `node <args>` in its own process group (`execPath`: another Node.js than this one's);
 * every started process is tracked for `stopAll`.
 */
export function startProcess(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; execPath?: string } = {}): RunningProcess {
  const child = spawn(options.execPath ?? process.execPath, args, {
    cwd: options.cwd ?? workspaceRoot(),
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let buffer = '';
  let lastOutputAtMs = Date.now();
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    lastOutputAtMs = Date.now();
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      for (const wake of waiters) wake();
      resolve(code ?? signal ?? -1);
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const handle: RunningProcess = {
    child,
    pid: child.pid ?? -1,
    output: () => buffer,
    exited,
    waitFor(pattern, timeoutMs = 30_000, { quietMs } = {}) {
      return new Promise((resolve, reject) => {
        const fail = (why: string) => finish(() => reject(new Error(`${why} ${pattern}; output:\n${buffer.slice(-4000)}`)));
        const check = () => {
          const match = buffer.match(pattern);
          if (match) return finish(() => resolve(match));
          if (hasExited || child.exitCode !== null || child.signalCode !== null) return fail('process exited before');
        };
        const timer = setTimeout(() => fail('timed out waiting for'), timeoutMs);
        const waitedFromMs = Date.now();
        const quietTimer =
          quietMs === undefined
            ? undefined
            : setInterval(() => {
                if (Date.now() - Math.max(lastOutputAtMs, waitedFromMs) >= quietMs) fail(`printed nothing for ${quietMs} ms while waiting for`);
              }, Math.min(1_000, quietMs));
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          clearInterval(quietTimer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (!hasExited) {
        signalGroup(handle.pid, signal);
        const timer = setTimeout(() => signalGroup(handle.pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      // Whatever the process left behind in its group goes too.
      signalGroup(handle.pid, 'SIGKILL');
      running.delete(handle);
      return exited;
    },
  };
  running.add(handle);
  return handle;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Stops every process started by `startProcess` that is still running (for afterEach/afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop('SIGKILL', 1000)));
}

/** A fresh temporary folder and a function that removes it. */
export function tempDir(prefix = 'ledger-node-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One status line of a supervisor (its JSON form, as it prints without a terminal). */
export interface SupervisorStatus {
  child: string;
  state: string;
  childPid?: number;
  address?: string;
  msg: string;
}

/** The supervisor's status lines so far, in order: `{ child, state, childPid, … }` (service `ledger-node`). */
export function supervisorStatus(node: RunningProcess): SupervisorStatus[] {
  const lines: SupervisorStatus[] = [];
  // The last piece is a line still being written, if any.
  for (const line of node.output().split('\n').slice(0, -1)) {
    if (!line.startsWith('{')) continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      // Not a log line (a line over the pipe's atomic write size, broken by another process's line): not a status.
      continue;
    }
    if (record.service === 'ledger-node' && typeof record.child === 'string' && typeof record.state === 'string') lines.push(record as unknown as SupervisorStatus);
  }
  return lines;
}

/** Pids of a supervisor's children as its status lines in `states` report them, the newest of each. */
export function childPids(node: RunningProcess, states: readonly string[] = ['ready', 'restarted']): Map<string, number> {
  const pids = new Map<string, number>();
  for (const status of supervisorStatus(node)) {
    if (states.includes(status.state) && status.childPid !== undefined) pids.set(status.child, status.childPid);
  }
  return pids;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of the processes whose command line names `dir` (a supervisor and its children are given -data_dir). */
export function processesNaming(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    })
    .map(Number);
}
