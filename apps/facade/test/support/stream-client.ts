/**
 * A WebSocket client for the stream tests: it keeps every message as received, in order, and can
 * stop reading (pause) like a client that falls behind, then read again to learn why it was closed.
 */
import WebSocket from 'ws';

export type Json = Record<string, any>;

export class StreamClient {
  private readonly received: Json[] = [];
  private readonly waiters = new Set<() => void>();
  /** The close code and reason, once closed. */
  closed: { code: number; reason: string } | undefined;

  private constructor(private readonly socket: WebSocket) {
    const wake = () => {
      for (const waiter of [...this.waiters]) waiter();
    };
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as Json);
      wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      wake();
    });
    socket.on('error', wake);
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: 10_000, headers });
      socket.once('open', () => resolve(new StreamClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Opening a connection that the server refuses: the HTTP status of its answer. */
  static refusal(url: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: 10_000, headers });
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('open', () => {
        socket.terminate();
        reject(new Error(`${url} accepted the connection`));
      });
      socket.once('error', () => undefined);
    });
  }

  send(message: Json | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Every message so far that matches. */
  messages(match: (message: Json) => boolean = () => true): Json[] {
    return this.received.filter(match);
  }

  get count(): number {
    return this.received.length;
  }

  /** The first message (from position `from` on) that matches. */
  waitFor(match: (message: Json) => boolean, timeoutMs = 30_000, from = 0): Promise<Json> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.slice(from).find(match);
        if (found) return finish(() => resolve(found));
        if (this.closed) return finish(() => reject(new Error(`connection closed (${this.closed!.code} ${this.closed!.reason}) before the message came`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for a message`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Stops reading: the server's messages wait in the network buffers, then in its own queue. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /** Resolves with the close code and reason. */
  whenClosed(timeoutMs = 30_000): Promise<{ code: number; reason: string }> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!this.closed) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.closed);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`still open after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.socket.terminate();
  }
}

/** rippled's WebSocket protocol on a StreamClient: `{id, command, …}` and the response of that id. */
export function rippledRequester(client: StreamClient) {
  let nextId = 1;
  return (command: string, fields: Json = {}, timeoutMs = 30_000): Promise<Json> => {
    const id = nextId++;
    const from = client.count;
    client.send({ id, command, ...fields });
    return client.waitFor((message) => message.type === 'response' && message.id === id, timeoutMs, from);
  };
}

/** JSON-RPC 2.0 on a StreamClient (/v1/ws): the response of the call's id. */
export function jsonRpcRequester(client: StreamClient) {
  let nextId = 1;
  return (method: string, params: unknown[] = [], timeoutMs = 30_000): Promise<Json> => {
    const id = nextId++;
    const from = client.count;
    client.send({ jsonrpc: '2.0', id, method, params });
    return client.waitFor((message) => message.id === id && message.jsonrpc === '2.0', timeoutMs, from);
  };
}

/** rippled's HTTP JSON-RPC: the HTTP status and the body (JSON when it parses, else the text). */
export async function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}
