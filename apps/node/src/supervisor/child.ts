import { fork, type ChildProcess } from 'node:child_process';
import { cliEntry } from '../cli-entry';
import { nodeOptionGiven } from '../node-options';
import type { ServiceName } from '../services';

/** Secrets of one service only: the keystore's passphrase reaches no other service's environment. */
const KEYSTORE_ONLY_ENV = ['LEDGER_NODE_PASSWORD'];
/**
 * The services that connect to PostgreSQL (-store, -store_read): the ledger-store, and sync and
 * submission for their writer locks. Only they get the PG* environment (PGPASSWORD, PGPASSFILE, PGUSER…), which
 * the pg client reads and which may hold the database's password.
 */
const POSTGRES_CLIENTS: readonly ServiceName[] = ['ledger-store', 'sync', 'submission'];
const isPostgresEnv = (key: string) => /^PG[A-Z_]+$/.test(key);

/**
 * V8's young generation of a service: semi-spaces of 16 MiB, Node.js 20's size. From Node.js 24 on,
 * V8 sizes them by the machine's memory (up to 64 MiB each on a machine with a few GiB free), and a
 * service's resident memory grows by that much before a scavenge, leak or not: on 24, a flood of
 * 4 000 sends grew the submission service by 153 MiB with the default, 58 MiB with 16 MiB ones (44
 * on Node.js 20). The Node.js options of the node (NODE_OPTIONS, its own flags) may set another size.
 */
const YOUNG_GENERATION_FLAG = '--max-semi-space-size';

/** The Node.js flags a service is started with: the node's own, and the young generation's size unless they set it. */
export function serviceExecArgv(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS ?? ''): string[] {
  return nodeOptionGiven(YOUNG_GENERATION_FLAG, execArgv, nodeOptions) ? [...execArgv] : [...execArgv, `${YOUNG_GENERATION_FLAG}=16`];
}

/** The environment a service is started with: the node's, without the secrets of other services. */
export function serviceEnv(name: ServiceName, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = { ...env };
  if (name !== 'keystore') for (const key of KEYSTORE_ONLY_ENV) delete kept[key];
  if (!POSTGRES_CLIENTS.includes(name)) for (const key of Object.keys(kept).filter(isPostgresEnv)) delete kept[key];
  return kept;
}

export interface ChildEvents {
  onReady(child: ServiceChild, address: string | undefined): void;
  onExit(child: ServiceChild, code: number | null, signal: NodeJS.Signals | null): void;
}

/** One service running as `ledger-node serve <name>` in a child process. */
export class ServiceChild {
  process: ChildProcess | undefined;
  ready = false;
  startedAt = 0;
  restarts = 0;
  /** Consecutive exits before the service ever became ready. */
  failedStarts = 0;

  constructor(
    readonly name: ServiceName,
    private readonly args: string[],
    private readonly events: ChildEvents,
  ) {}

  /** The current child's pid, or the last one's after it exited. */
  pid: number | undefined;

  start(): void {
    this.ready = false;
    this.startedAt = Date.now();
    // Own process group: a terminal's Ctrl-C reaches the supervisor only, which stops children in order.
    const child = fork(cliEntry(), ['serve', this.name, ...this.args], {
      env: serviceEnv(this.name),
      execArgv: serviceExecArgv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    this.process = child;
    this.pid = child.pid;
    child.on('message', (message: unknown) => {
      if (isReadyMessage(message)) {
        this.ready = true;
        this.failedStarts = 0;
        this.events.onReady(this, message.address);
      }
    });
    child.once('exit', (code, signal) => {
      if (this.process === child) this.process = undefined;
      if (!this.ready) this.failedStarts++;
      this.ready = false;
      this.events.onExit(this, code, signal);
    });
  }

  /** Sends a signal to the child; true when there was a child to signal. */
  signal(signal: NodeJS.Signals): boolean {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return false;
    try {
      child.kill(signal);
      return true;
    } catch {
      return false;
    }
  }

  /** Resolves once the current child process (if any) has exited. */
  exited(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => child.once('exit', () => resolve()));
  }
}

function isReadyMessage(message: unknown): message is { type: 'ready'; address?: string } {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready';
}
