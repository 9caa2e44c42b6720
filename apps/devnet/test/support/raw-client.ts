/**
 * A minimal WebSocket client for tests that need rippled's raw messages (error shapes, stream
 * messages, malformed input) rather than a library's interpretation of them.
 */
import WebSocket from 'ws';

export type Message = Record<string, any>;

export class RawClient {
  private nextId = 1;
  private readonly received: Message[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()) as Message);
      for (const wake of this.waiters) wake();
    });
    socket.on('close', () => {
      for (const wake of this.waiters) wake();
    });
  }

  static connect(url: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends a request with a fresh numeric id and resolves with the response carrying it. */
  async request(body: Message): Promise<Message> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, ...body }));
    return this.waitFor((message) => message.type === 'response' && message.id === id);
  }

  /** Sends text as is (for malformed input) and resolves with the next message that answers it. */
  async sendText(text: string, isAnswer: (message: Message) => boolean): Promise<Message> {
    const seen = this.received.length;
    this.socket.send(text);
    return this.waitFor(isAnswer, 10_000, seen);
  }

  /** Every message received so far that matches. */
  messages(match: (message: Message) => boolean): Message[] {
    return this.received.filter(match);
  }

  /** Resolves with the first message (at or after position `from`) that matches. */
  waitFor(match: (message: Message) => boolean, timeoutMs = 10_000, from = 0): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.slice(from).find(match);
        if (found) return finish(() => resolve(found));
        if (this.socket.readyState === WebSocket.CLOSED) return finish(() => reject(new Error('connection closed')));
      };
      const timer = setTimeout(() => finish(() => reject(new Error('timed out waiting for a message'))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once `count` messages match. */
  async waitForCount(match: (message: Message) => boolean, count: number, timeoutMs = 10_000): Promise<Message[]> {
    await this.waitFor(() => this.messages(match).length >= count, timeoutMs);
    return this.messages(match);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
