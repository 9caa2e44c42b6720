import WebSocket from 'ws';
import { UpstreamUnavailable } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import type { UpstreamEndpoints } from '@ledger-node/config';

/** An error answer of rippled (`status: "error"`), e.g. `actNotFound`. */
export class RippledError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = 'RippledError';
  }
}

type Waiter = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/**
 * Request/response over rippled's WebSocket API for the submission path. Connects on demand,
 * tries the endpoints in order, and fails calls with UpstreamUnavailable when none answers.
 */
export class RippledClient {
  private socket: WebSocket | undefined;
  private connecting: Promise<WebSocket> | undefined;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();
  private endpointIndex = 0;

  constructor(
    /** Shown URLs (logs and errors), and the URLs with credentials to connect to. */
    private readonly endpoints: UpstreamEndpoints,
    private readonly logger: Logger,
    private readonly timeoutMs = 10_000,
  ) {}

  async request<T extends Record<string, unknown>>(command: string, params: Record<string, unknown> = {}): Promise<T> {
    const socket = await this.connect();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new UpstreamUnavailable(`upstream did not answer ${command} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiters.set(id, { resolve: resolve as Waiter['resolve'], reject, timer });
      socket.send(JSON.stringify({ id, command, ...params }), (error) => {
        if (!error) return;
        clearTimeout(timer);
        this.waiters.delete(id);
        reject(new UpstreamUnavailable(`cannot send ${command} upstream: ${error.message}`));
      });
    });
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
  }

  private connect(): Promise<WebSocket> {
    if (this.socket?.readyState === WebSocket.OPEN) return Promise.resolve(this.socket);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<WebSocket> {
    const failures: string[] = [];
    const { urls, connectUrl } = this.endpoints;
    for (let attempt = 0; attempt < urls.length; attempt++) {
      const url = urls[(this.endpointIndex + attempt) % urls.length]!;
      try {
        const socket = await openSocket(connectUrl(url), this.timeoutMs);
        this.endpointIndex = (this.endpointIndex + attempt) % urls.length;
        this.attach(socket, url);
        return socket;
      } catch (error) {
        failures.push(`${url}: ${(error as Error).message}`);
      }
    }
    throw new UpstreamUnavailable(`no upstream reachable (${failures.join('; ')})`);
  }

  private attach(socket: WebSocket, url: string): void {
    this.socket = socket;
    socket.on('message', (data) => this.onMessage(String(data)));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      for (const [id, waiter] of this.waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new UpstreamUnavailable(`connection to ${url} closed`));
        this.waiters.delete(id);
      }
    });
    socket.on('error', (error) => this.logger.warn({ err: error, url }, 'upstream connection error'));
  }

  private onMessage(text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      this.logger.warn('upstream sent a message that is not JSON; ignored');
      return;
    }
    if (message.type !== 'response' || typeof message.id !== 'number') return;
    const waiter = this.waiters.get(message.id);
    if (!waiter) return;
    this.waiters.delete(message.id);
    clearTimeout(waiter.timer);
    if (message.status === 'success' && typeof message.result === 'object' && message.result !== null) {
      waiter.resolve(message.result as Record<string, unknown>);
    } else {
      const code = typeof message.error === 'string' ? message.error : 'unknown';
      const text = typeof message.error_message === 'string' ? message.error_message : typeof message.error_exception === 'string' ? message.error_exception : code;
      waiter.reject(new RippledError(code, text));
    }
  }
}

function openSocket(url: string, timeoutMs: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: 64 * 1024 * 1024 });
    socket.once('open', () => resolve(socket));
    socket.once('error', (error) => reject(error));
  });
}
