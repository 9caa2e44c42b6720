import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, HTTP_TIMEOUTS } from './http-server';

/** Short limits, so that a test waits about a second. */
const timeouts = { headersTimeoutMs: 600, requestTimeoutMs: 1_200, keepAliveTimeoutMs: 400, checkIntervalMs: 100 };
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(): Promise<number> {
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('answered'));
  }, timeouts);
  // An upgrade (a WebSocket) is the handler's from its 101 on: the request limits end there.
  server.on('upgrade', (_request, socket: Socket) => {
    sockets.push(socket);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw TCP client: what it received, and when the server closed it (undefined while open). */
async function client(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  const state = { received: '', closedAfterMs: undefined as number | undefined };
  const started = Date.now();
  socket.on('data', (chunk) => (state.received += chunk.toString('latin1')));
  socket.on('close', () => (state.closedAfterMs = Date.now() - started));
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, state };
}

/** Writes `text` a byte at a time, `everyMs` apart, while the socket is open. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || socket.closed) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

async function closed(state: { closedAfterMs: number | undefined }, withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (state.closedAfterMs === undefined && Date.now() < deadline) await sleep(20);
  if (state.closedAfterMs === undefined) throw new Error(`still open after ${withinMs} ms`);
  return state.closedAfterMs;
}

describe('createHttpServer', () => {
  it("defaults to 10 s for the headers and 30 s for the whole request, checked every second (Node's: 60 s and 300 s, every 30 s)", () => {
    expect(HTTP_TIMEOUTS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, checkIntervalMs: 1_000 });
    const server = createHttpServer(() => {});
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([10_000, 30_000, 5_000]);
  });

  it('closes a client that sends its headers a byte at a time, with 408, once the headers timeout passes', async () => {
    const { socket, state } = await client(await serve());
    void trickle(socket, `GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`, 50);
    const after = await closed(state, 3_000);
    expect(after).toBeGreaterThanOrEqual(timeouts.headersTimeoutMs - 50);
    expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(state.received).not.toContain('answered');
  });

  it('closes a client that connects and sends nothing', async () => {
    const { state } = await client(await serve());
    expect(await closed(state, 3_000)).toBeLessThan(timeouts.requestTimeoutMs + 500);
  });

  it('closes a client whose body trickles past the request timeout', async () => {
    const { socket, state } = await client(await serve());
    socket.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n');
    void trickle(socket, 'x'.repeat(100), 50);
    const after = await closed(state, 4_000);
    expect(after).toBeGreaterThanOrEqual(timeouts.requestTimeoutMs - 50);
    expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers a client that sends its request in time, and closes its idle keep-alive connection after the keep-alive timeout', async () => {
    const { socket, state } = await client(await serve());
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const after = await closed(state, 3_000);
    expect(state.received).toMatch(/^HTTP\/1\.1 200 [\s\S]*answered$/);
    expect(after).toBeGreaterThanOrEqual(timeouts.keepAliveTimeoutMs - 50);
  });

  it('leaves an upgraded connection (a WebSocket) open past the request timeout', async () => {
    const { socket, state } = await client(await serve());
    socket.write('GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    await sleep(timeouts.requestTimeoutMs * 2);
    expect(state.received).toMatch(/^HTTP\/1\.1 101 /);
    expect(state.closedAfterMs).toBeUndefined();
  });
});
