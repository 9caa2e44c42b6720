/** A minimal rippled WebSocket client for the bench: one request at a time or many in flight, by id. */
import WebSocket from 'ws';

export class DevnetClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; status?: string; result?: unknown; error?: string; error_message?: string };
      if (typeof message.id !== 'number') return;
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.status === 'success') waiter.resolve(message.result);
      else waiter.reject(new Error(`${message.error ?? 'error'}: ${message.error_message ?? JSON.stringify(message)}`));
    });
    socket.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('devnet connection closed'));
      this.pending.clear();
    });
  }

  static connect(url: string): Promise<DevnetClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
      socket.once('open', () => resolve(new DevnetClient(socket)));
      socket.once('error', reject);
    });
  }

  request<T = any>(command: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, command, ...params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
