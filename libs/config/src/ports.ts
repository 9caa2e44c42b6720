/**
 * Where a listener told "any free port" (`-port 0`, -dev's devnet) takes its port: anywhere the
 * system gives, or inside `-port_range LO-HI` on a host whose jobs each own a range of ports.
 */
import { createServer } from 'node:net';
import { FlagError } from './flag';
import type { ParsedFlags } from './parse';

export interface PortRange {
  readonly first: number;
  readonly last: number;
}

/** `LO-HI` as a range, or why it is not one. */
export function parsePortRange(text: string): PortRange | string {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(text.trim());
  if (!match) return `"${text}" is not a port range: write LO-HI, e.g. 20000-20999`;
  const [first, last] = [Number(match[1]), Number(match[2])];
  if (first < 1024 || last > 65_535) return `${text}: ports must lie within 1024-65535`;
  if (first > last) return `${text}: the first port is above the last`;
  return { first, last };
}

/** The port bound on `host` a moment ago (0: the system's choice), or undefined when it could not be. */
function bindOnce(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });
}

/** Whether `port` can be bound on `host` right now. */
export async function bindable(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await bindOnce(port, host)) !== undefined;
}

/**
 * The ports of 1024 and above that the Fetch standard's "bad port" list blocks: a browser, and
 * Node's own fetch, refuse to connect to them, so a listener there could not be reached over HTTP.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

/**
 * A port that was free on `host` a moment ago, inside `range` when one is given (from a random
 * place in it, so that jobs sharing a range seldom pick the same), never one of `avoid` nor one
 * fetch refuses (FETCH_BLOCKED_PORTS).
 */
export async function freeListenPort(range: PortRange | undefined, host = '127.0.0.1', avoid: ReadonlySet<number> = new Set()): Promise<number> {
  if (range === undefined) {
    for (;;) {
      const port = await bindOnce(0, host);
      if (port !== undefined && !avoid.has(port) && !FETCH_BLOCKED_PORTS.has(port)) return port;
    }
  }
  const size = range.last - range.first + 1;
  const start = Math.floor(Math.random() * size);
  for (let step = 0; step < size; step++) {
    const port = range.first + ((start + step) % size);
    if (!avoid.has(port) && !FETCH_BLOCKED_PORTS.has(port) && (await bindable(port, host))) return port;
  }
  throw new Error(`no free port in ${range.first}-${range.last} on ${host}`);
}

/** -port_range (its flag has checked it), or undefined when not set. */
export function portRangeOf(flags: ParsedFlags): PortRange | undefined {
  const text = flags.string('port_range');
  if (text === undefined) return undefined;
  const range = parsePortRange(text);
  if (typeof range === 'string') throw new FlagError(`-port_range ${range}`);
  return range;
}
