/** Clients the end-to-end tests use: a minimal rippled WebSocket client and JSON-RPC over HTTP. */
import WebSocket from 'ws';

/** A minimal rippled WebSocket client for comparing answers. */
export async function connectUpstream(url: string) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (message: Record<string, any>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, any>;
    if (message.type === 'response' && pending.has(message.id)) {
      pending.get(message.id)!(message);
      pending.delete(message.id);
    }
  });
  return {
    request(command: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, command, ...params }));
      });
    },
    close: () => socket.close(),
  };
}

/** JSON-RPC over HTTP to the facade. */
export function rpcClient(port: number) {
  let nextId = 1;
  return async function call(method: string, params: unknown[] = []): Promise<Record<string, any>> {
    const response = await fetch(`http://127.0.0.1:${port}/v1/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method, params, id: nextId++ }),
    });
    return (await response.json()) as Record<string, any>;
  };
}

/** Polls until the probe gives something other than undefined, null or false; its errors count as not yet. */
export async function waitUntil<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs: number,
  what: string,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
