/**
 * What the tests of the node's rippled-compatible API share: a whole `ledger-node -dev -ws` node on
 * free ports, a raw WebSocket client that keeps rippled's messages exactly as they came (error
 * shapes, stream messages), and rippled's HTTP JSON-RPC form (`POST /`, `{method, params: [{…}]}`).
 */
import { connect as connectTcp } from 'node:net';
import WebSocket from 'ws';
import { childPids, cliEntry, freePort, startProcess, tempDir, waitUntil, type RunningProcess } from '@ledger-node/test-utils';

export type Json = Record<string, any>;

/** The devnet genesis accounts (the devnet prints them; devnet only). */
export const GENESIS = {
  xrpl: { address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', secret: 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb' },
  jingtum: { address: 'jHb9CJAWyB4jr91VRWn96DkukG4bwdtyTh', secret: 'snoPBjXtMeMyMHUVTgbuqAfg1SUTb' },
} as const;

export interface RippledNode {
  readonly process: RunningProcess;
  /** The embedded devnet's own WebSocket API (the rippled stand-in the node syncs from). */
  readonly devnetUrl: string;
  /** The node's rippled-compatible WebSocket API. */
  readonly wsUrl: string;
  /** The node's rippled-compatible HTTP JSON-RPC endpoint (`POST /` on the same port). */
  readonly httpUrl: string;
  readonly dataDir: string;
  /** The facade's current pid, as the supervisor last reported it. */
  facadePid(): number;
  /** Stops the node (its whole process group) and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `ledger-node -dev -ws -wsaddr 127.0.0.1 -wsport <free>` with `flags` and waits until its
 * facade reports ready and the WebSocket port accepts connections.
 */
export async function startRippledNode(flags: string[] = []): Promise<RippledNode> {
  const { dir, remove } = tempDir('rippled-api-');
  const wsPort = await freePort();
  const node = startProcess([cliEntry(), '-dev', '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort), '-data_dir', dir, '-thread_count', '2', ...flags]);
  const stop = async () => {
    await node.stop('SIGTERM', 10_000);
    remove();
  };
  try {
    const devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/, 60_000))[1]!;
    await node.waitFor(/facade\s+ready/, 60_000);
    await waitUntil(() => portAccepts(wsPort), 30_000, `the node's WebSocket port ${wsPort}`);
    return {
      process: node,
      devnetUrl,
      wsUrl: `ws://127.0.0.1:${wsPort}`,
      httpUrl: `http://127.0.0.1:${wsPort}/`,
      dataDir: dir,
      facadePid: () => childPids(node).get('facade')!,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Whether a TCP connection to the port on loopback succeeds now. */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A WebSocket client of rippled's protocol that keeps every message as received. `request` sends
 * `{id, command, …}` with a fresh numeric id and resolves with the whole response message
 * (`status`, `type`, `result` or the error fields), so that two servers' answers compare as sent.
 */
export class RippledSocket {
  private nextId = 1;
  private readonly received: Json[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as Json);
      for (const wake of this.waiters) wake();
    });
    socket.on('close', () => {
      for (const wake of this.waiters) wake();
    });
    socket.on('error', () => {
      for (const wake of this.waiters) wake();
    });
  }

  static open(url: string, timeoutMs = 10_000): Promise<RippledSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
      socket.once('open', () => resolve(new RippledSocket(socket)));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends `{id, ...fields}` and resolves with the response of that id. */
  async request(fields: Json, timeoutMs = 30_000): Promise<Json> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, ...fields }));
    return this.waitFor((message) => message.type === 'response' && message.id === id, timeoutMs);
  }

  /** Every message received so far that matches (stream messages included). */
  messages(match: (message: Json) => boolean = () => true): Json[] {
    return this.received.filter(match);
  }

  /** Resolves with the first message received (at or after position `from`) that matches. */
  waitFor(match: (message: Json) => boolean, timeoutMs = 10_000, from = 0): Promise<Json> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.slice(from).find(match);
        if (found) return finish(() => resolve(found));
        if (this.socket.readyState === WebSocket.CLOSED) return finish(() => reject(new Error(`connection to ${this.socket.url} closed`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for a message from ${this.socket.url}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/**
 * rippled's HTTP JSON-RPC: `{"method", "params": [{…}]}`. The answer's status and text, and its
 * parsed body when it is JSON (rippled refuses some calls with plain text, e.g. `400 invalid_API_version`).
 */
export async function postRippled(url: string, method: string, params: Json = {}): Promise<{ httpStatus: number; text: string; body?: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method, params: [params] }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  try {
    return { httpStatus: response.status, text, body: JSON.parse(text) as Json };
  } catch {
    return { httpStatus: response.status, text };
  }
}

/** The ranges of a `complete_ledgers` text ("1-5,7-9"; "empty" is none). */
export function parseRanges(text: string): { first: number; last: number }[] {
  if (text === 'empty' || text === '') return [];
  return text.split(',').map((part) => {
    const [first, last = first] = part.split('-').map(Number);
    return { first: first!, last: last! };
  });
}
