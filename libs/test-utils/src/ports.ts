import { createServer } from 'node:net';

/** A TCP port that was free on loopback a moment ago (never the node's defaults 7544/7545/7546). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    if (port !== 7544 && port !== 7545 && port !== 7546 && port !== 0) return port;
  }
}

/** Whether `port` can be bound on loopback right now. */
async function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive TCP ports that were free on loopback a moment ago (for services that listen at offsets of one base port). */
export async function freePortBlock(count: number): Promise<number> {
  for (;;) {
    const base = await freePort();
    if (base + count > 65_535) continue;
    const ports = Array.from({ length: count }, (_, offset) => base + offset);
    if (ports.some((port) => port === 7544 || port === 7545 || port === 7546)) continue;
    if ((await Promise.all(ports.slice(1).map(bindable))).every(Boolean)) return base;
  }
}
