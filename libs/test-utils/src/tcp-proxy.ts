/** A TCP proxy the test can cut (every connection dropped, new ones refused) and restore: an upstream gone and back. */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './ports';

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    const proxy = new TcpProxy(server, typeof address === 'object' && address ? address.port : 0);
    server.on('connection', (client) => proxy.accept(client, targetHost, targetPort));
    return proxy;
  }

  /** Drops every open connection and refuses new ones until `restore`. */
  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, targetHost: string, targetPort: number): void {
    if (this.refusing) {
      client.destroy();
      return;
    }
    const target = createConnection({ host: targetHost, port: targetPort });
    for (const socket of [client, target]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      // A reset while cutting is the point of the test, not a failure.
      socket.on('error', () => socket.destroy());
    }
    client.pipe(target);
    target.pipe(client);
    client.on('close', () => target.destroy());
    target.on('close', () => client.destroy());
  }
}
