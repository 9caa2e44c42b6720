import { bindable, freeListenPort, parsePortRange, type PortRange } from '@ledger-node/config';

/** The node's own defaults, which a test never takes. */
const NODE_DEFAULT_PORTS = [7544, 7545, 7546];
/**
 * When this process handed each port out: not handed out again while its process may not have
 * bound it yet (a bound port is busy anyway, and a released one free again after this while).
 */
const handedOutAt = new Map<number, number>();
const HANDED_OUT_MS = 60_000;

function unavailable(): Set<number> {
  const now = Date.now();
  for (const [port, at] of handedOutAt) if (now - at > HANDED_OUT_MS) handedOutAt.delete(port);
  return new Set([...NODE_DEFAULT_PORTS, ...handedOutAt.keys()]);
}

/**
 * LEDGER_NODE_PORT_RANGE (LO-HI), the range tests and the bench keep to on a host whose jobs each
 * own one; the processes they start inherit it as the CLI's -port_range, so a devnet on -port 0
 * and -dev's embedded devnet keep to it too.
 */
export function testPortRange(): PortRange | undefined {
  const text = process.env.LEDGER_NODE_PORT_RANGE;
  if (text === undefined || text === '') return undefined;
  const range = parsePortRange(text);
  if (typeof range === 'string') throw new Error(`LEDGER_NODE_PORT_RANGE ${range}`);
  return range;
}

/** A TCP port that was free on loopback a moment ago, inside LEDGER_NODE_PORT_RANGE when set (never the node's defaults 7544/7545/7546). */
export async function freePort(): Promise<number> {
  const port = await freeListenPort(testPortRange(), '127.0.0.1', unavailable());
  handedOutAt.set(port, Date.now());
  return port;
}

/** The first of `count` consecutive TCP ports that were free on loopback a moment ago (for services that listen at offsets of one base port). */
export async function freePortBlock(count: number): Promise<number> {
  for (;;) {
    const base = await freePort();
    if (base + count > 65_535) continue;
    const ports = Array.from({ length: count }, (_, offset) => base + offset);
    const taken = unavailable();
    if (ports.some((port) => taken.has(port) && port !== base)) continue;
    const range = testPortRange();
    if (range !== undefined && base + count - 1 > range.last) continue;
    if ((await Promise.all(ports.slice(1).map((port) => bindable(port)))).every(Boolean)) {
      for (const port of ports) handedOutAt.set(port, Date.now());
      return base;
    }
  }
}
