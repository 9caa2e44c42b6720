/**
 * A WebSocket client for tests that need a server's raw messages (error shapes, stream messages,
 * malformed input, close codes) rather than a library's reading of them: it keeps every message as
 * received, in order, and can stop reading (pause) like a client that falls behind.
 */
import WebSocket from 'ws';

export type WsMessage = Record<string, any>;

export class WsClient {
  private nextId = 1;
  private readonly received: WsMessage[] = [];
  private readonly waiters = new Set<() => void>();
  /** The close code and reason, once closed. */
  closed: { code: number; reason: string } | undefined;

  private constructor(private readonly socket: WebSocket) {
    const wake = () => {
      for (const waiter of [...this.waiters]) waiter();
    };
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as WsMessage);
      wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      wake();
    });
    socket.on('error', wake);
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: 10_000, headers });
      socket.once('open', () => resolve(new WsClient(socket)));
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

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** How many messages have come so far. */
  get count(): number {
    return this.received.length;
  }

  send(message: WsMessage | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** rippled's protocol: sends `{id, ...fields}` with a fresh numeric id and resolves with the response of that id. */
  request(fields: WsMessage, timeoutMs = 30_000): Promise<WsMessage> {
    const id = this.nextId++;
    const from = this.count;
    this.send({ id, ...fields });
    return this.waitFor((message) => message.type === 'response' && message.id === id, timeoutMs, from);
  }

  /** Sends text as is (for malformed input) and resolves with the next message that answers it. */
  sendText(text: string, isAnswer: (message: WsMessage) => boolean, timeoutMs = 10_000): Promise<WsMessage> {
    const from = this.count;
    this.send(text);
    return this.waitFor(isAnswer, timeoutMs, from);
  }

  /** Every message so far that matches. */
  messages(match: (message: WsMessage) => boolean = () => true): WsMessage[] {
    return this.received.filter(match);
  }

  /** The first message (from position `from` on) that matches. */
  waitFor(match: (message: WsMessage) => boolean, timeoutMs = 30_000, from = 0): Promise<WsMessage> {
    return this.until(() => this.received.slice(from).find(match), timeoutMs, 'a message');
  }

  /** Resolves once `count` messages match, with them. */
  async waitForCount(match: (message: WsMessage) => boolean, count: number, timeoutMs = 10_000): Promise<WsMessage[]> {
    return this.until(() => (this.messages(match).length >= count ? this.messages(match) : undefined), timeoutMs, `${count} messages`);
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

  /** Closes the connection cleanly, resolving once closed. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  /** Drops the connection at once. */
  terminate(): void {
    this.socket.terminate();
  }

  private until<T>(found: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value !== undefined) return finish(() => resolve(value));
        if (this.closed) return finish(() => reject(new Error(`connection to ${this.socket.url} closed (${this.closed!.code} ${this.closed!.reason}) before ${what} came`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} from ${this.socket.url}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }
}
