import { createServer } from 'node:net';

/** A TCP port that was free on loopback a moment ago (never the node's defaults 7544/7545). */
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
    if (port !== 7544 && port !== 7545 && port !== 0) return port;
  }
}
