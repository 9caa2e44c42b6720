/**
 * A hostile upstream for the end-to-end tests: a WebSocket server in front of a real one (the
 * devnet) that passes every message through, except what the test changes: the answers to the
 * commands it forges (`forge`), and whatever a Hostility decides for any message on its way to
 * sync — replaced, held back, repeated or withheld, with frames written by hand and connections
 * dropped. Messages to one connection keep their order, even while a Hostility takes its time.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { freePort } from '@ledger-node/test-utils';

/** Edits one answer (the parsed message); returns it changed, or undefined to pass it as it was. */
export type Forgery = (answer: Record<string, any>) => Record<string, any> | undefined;

/** A message from the real upstream on its way to sync. */
export interface UpstreamMessage {
  text: string;
  /** The message parsed; undefined when it is not a JSON object. */
  json: Record<string, any> | undefined;
  /** For an answer: the request it answers, as sync sent it. */
  request: Record<string, any> | undefined;
}

/** One connection from sync, as a Hostility sees it. */
export interface ProxyConnection {
  readonly id: number;
  /** Sync sent `subscribe` on it: it carries the streams. */
  readonly subscribed: boolean;
  readonly isOpen: boolean;
  /** Resolves once either side closed. */
  readonly closed: Promise<void>;
  /** Sends a message to sync; true once written to the socket (false: the connection is gone). */
  send(data: string | Buffer): Promise<boolean>;
  /** Writes bytes on the TCP socket below the WebSocket framing (a frame made by hand); nothing is sent after. */
  writeRawAndEnd(bytes: Buffer): Promise<boolean>;
  terminate(): void;
}

/** What a test makes of the traffic; each hook may be left out. */
export interface Hostility {
  onConnection?(connection: ProxyConnection): void;
  /**
   * Decides what sync gets in place of `message`: true when the hostility handled it (sent
   * something else, or nothing), false to pass it on as it is.
   */
  onMessage?(message: UpstreamMessage, connection: ProxyConnection): boolean | Promise<boolean>;
}

export class ForgingProxy {
  private readonly forgeries = new Map<string, Forgery>();
  private readonly sockets = new Set<WebSocket>();
  private hostility: Hostility | undefined;
  private nextConnectionId = 1;
  /** Answers edited by `forge`, by command. */
  readonly forged = new Map<string, number>();
  /** Connections sync opened. */
  connectionCount = 0;

  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(targetUrl: string, hostility?: Hostility): Promise<ForgingProxy> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: await freePort() });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const proxy = new ForgingProxy(server, `ws://127.0.0.1:${port}`);
    proxy.hostility = hostility;
    server.on('connection', (client, request) => proxy.accept(client, request, targetUrl));
    return proxy;
  }

  /** Forges the answers to `command` from now on; undefined stops forging it. */
  forge(command: string, forgery: Forgery | undefined): void {
    if (forgery) this.forgeries.set(command, forgery);
    else this.forgeries.delete(command);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: WebSocket, incoming: IncomingMessage, targetUrl: string): void {
    this.connectionCount++;
    const upstream = new WebSocket(targetUrl);
    this.sockets.add(client).add(upstream);
    const requests = new Map<unknown, Record<string, any>>();
    const pending: string[] = [];
    let subscribed = false;
    // After a hand-made frame nothing more may be framed on the socket.
    let cut = false;
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const rawSocket: Socket = incoming.socket;
    const connection: ProxyConnection = {
      id: this.nextConnectionId++,
      get subscribed() {
        return subscribed;
      },
      get isOpen() {
        return !cut && client.readyState === WebSocket.OPEN;
      },
      closed,
      send: (data) =>
        new Promise((resolve) => {
          if (!connection.isOpen) return resolve(false);
          client.send(data, { binary: Buffer.isBuffer(data) }, (error) => resolve(!error));
        }),
      writeRawAndEnd: (bytes) =>
        new Promise((resolve) => {
          if (!connection.isOpen) return resolve(false);
          cut = true;
          rawSocket.write(bytes, (error) => {
            rawSocket.end();
            resolve(!error);
          });
        }),
      terminate: () => closeBoth(),
    };

    client.on('message', (data) => {
      const text = data.toString();
      try {
        const request = JSON.parse(text) as Record<string, any>;
        if (request.id !== undefined && typeof request.command === 'string') requests.set(request.id, request);
        if (request.command === 'subscribe') subscribed = true;
      } catch {
        // Passed on as it is: the upstream answers what it makes of it.
      }
      if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
      else pending.push(text);
    });
    upstream.on('open', () => {
      for (const text of pending.splice(0)) upstream.send(text);
    });
    // One message at a time, in order, even while a Hostility awaits something.
    let delivering = Promise.resolve();
    upstream.on('message', (data) => {
      const text = data.toString();
      delivering = delivering.then(() => this.deliver(text, requests, connection)).catch(() => undefined);
    });
    const closeBoth = () => {
      client.terminate();
      upstream.terminate();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      markClosed();
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
    rawSocket.on('close', closeBoth);
    this.hostility?.onConnection?.(connection);
  }

  private async deliver(text: string, requests: Map<unknown, Record<string, any>>, connection: ProxyConnection): Promise<void> {
    if (!connection.isOpen) return;
    let json: Record<string, any> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) json = parsed as Record<string, any>;
    } catch {
      json = undefined;
    }
    const request = json?.id !== undefined ? requests.get(json.id) : undefined;
    if (request) requests.delete(json!.id);
    const command = request?.command as string | undefined;
    const forgery = command === undefined ? undefined : this.forgeries.get(command);
    const changed = json && forgery?.(json);
    if (changed) {
      this.forged.set(command!, (this.forged.get(command!) ?? 0) + 1);
      await connection.send(JSON.stringify(changed));
      return;
    }
    if (this.hostility?.onMessage && (await this.hostility.onMessage({ text, json, request }, connection))) return;
    await connection.send(text);
  }
}
