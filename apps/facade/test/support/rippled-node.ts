/**
 * What the tests of the node's rippled-compatible API share: a whole `ledger-node -dev -ws` node on
 * free ports, and rippled's HTTP JSON-RPC form (`POST /`, `{method, params: [{…}]}`); raw WebSocket
 * messages come through test-utils' WsClient.
 */
import { connect as connectTcp } from 'node:net';
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
    // Until it has stored a ledger the node answers lgrNotFound, and a ledger subscription carries no ledger.
    const httpUrl = `http://127.0.0.1:${wsPort}/`;
    await waitUntil(async () => (await postRippled(httpUrl, 'ledger_closed')).body?.result?.status === 'success', 60_000, 'a ledger stored by the node');
    return {
      process: node,
      devnetUrl,
      wsUrl: `ws://127.0.0.1:${wsPort}`,
      httpUrl,
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
