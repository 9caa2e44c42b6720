import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createLogger } from '@ledger-node/telemetry';
import { CloseCode, exceedsQueue, slowClientReason, StreamConnection } from './connection';
import { metricSample } from './metric-sample';

const logger = createLogger('connection-test', 'silent');

describe('the bounded send queue', () => {
  it('takes a message while the unsent bytes stay within the limit, and always one into an empty queue', () => {
    expect(exceedsQueue(0, 10, 100)).toBe(false);
    expect(exceedsQueue(90, 10, 100)).toBe(false);
    expect(exceedsQueue(91, 10, 100)).toBe(true);
    // A message larger than the whole limit still goes out to a client that has read everything.
    expect(exceedsQueue(0, 500, 100)).toBe(false);
  });

  it('names the limit in a close reason that fits a close frame (123 bytes)', () => {
    const reason = slowClientReason(1_073_741_824);
    expect(reason).toContain('1073741824');
    expect(reason).toContain('-ws_queue_bytes');
    expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
  });
});

describe('StreamConnection over a real WebSocket', () => {
  let server: Server;
  let sockets: WebSocketServer;
  const clients: WebSocket[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.terminate();
    for (const client of sockets?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => sockets?.close(() => resolve()) ?? resolve());
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  });

  /** A server whose first connection becomes a StreamConnection with the given queue, and a client of it. */
  async function connect(queueBytes: number): Promise<{ connection: StreamConnection; client: WebSocket }> {
    server = createServer();
    sockets = new WebSocketServer({ server });
    const accepted = new Promise<StreamConnection>((resolve) =>
      sockets.once('connection', (socket) => resolve(new StreamConnection(socket, '127.0.0.1', { api: 'rippled', queueBytes, logger }))),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    clients.push(client);
    await new Promise((resolve, reject) => {
      client.once('open', resolve);
      client.once('error', reject);
    });
    return { connection: await accepted, client };
  }

  it('closes a client that stops reading with 1008 and the reason, once the unread bytes pass the limit; the client reads why when it reads again', async () => {
    const queueBytes = 256 * 1024;
    const { connection, client } = await connect(queueBytes);
    client.pause();
    const message = JSON.stringify({ type: 'ledgerClosed', padding: 'x'.repeat(64 * 1024) });
    let sent = 0;
    // The kernel's socket buffers take some megabytes before the queue here grows; the loop is bounded.
    while (connection.send(message, true) && sent < 10_000) {
      sent++;
      if (sent % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sent).toBeLessThan(10_000);
    expect(connection.isOpen).toBe(false);
    // The message that found the queue full, and any after it, are counted as dropped.
    const dropped = await metricSample('ledger_node_stream_dropped_messages_total', { api: 'rippled' });
    expect(dropped).toBeGreaterThanOrEqual(1);
    expect(connection.send(message, true)).toBe(false);
    expect(await metricSample('ledger_node_stream_dropped_messages_total', { api: 'rippled' })).toBe(dropped + 1);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => client.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    client.resume();
    expect(await closed).toEqual({ code: CloseCode.policyViolation, reason: slowClientReason(queueBytes) });
  });

  it('keeps a client that reads as fast as messages come', async () => {
    const { connection, client } = await connect(256 * 1024);
    let received = 0;
    client.on('message', () => received++);
    const message = JSON.stringify({ padding: 'y'.repeat(8 * 1024) });
    for (let sent = 0; sent < 500; sent++) {
      expect(connection.send(message, true)).toBe(true);
      await connection.drained();
    }
    await new Promise<void>((resolve) => {
      const check = () => (received === 500 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(connection.isOpen).toBe(true);
  });

  it('says what waits unsent, in messages and bytes, at each scrape, and nothing once the client has read it', async () => {
    const { connection, client } = await connect(64 * 1024 * 1024);
    client.pause();
    const message = JSON.stringify({ padding: 'q'.repeat(32 * 1024) });
    // Until the kernel's buffers are full and the rest waits here.
    for (let sent = 0; connection.unsentBytes <= 64 * 1024 && sent < 5_000; sent++) {
      connection.send(message, true);
      if (sent % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(connection.unsentMessages).toBeGreaterThanOrEqual(2);
    expect(await metricSample('ledger_node_stream_queued_messages', { api: 'rippled' })).toBeGreaterThanOrEqual(connection.unsentMessages);
    expect(await metricSample('ledger_node_stream_queued_bytes', { api: 'rippled' })).toBeGreaterThan(64 * 1024);
    client.resume();
    await new Promise<void>((resolve) => {
      const check = () => (connection.unsentMessages === 0 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(await metricSample('ledger_node_stream_queued_messages', { api: 'rippled' })).toBe(0);
    expect(await metricSample('ledger_node_stream_queued_bytes', { api: 'rippled' })).toBe(0);
  });

  it('drained() waits while more than a quarter of the queue is unsent and ends when the client reads', async () => {
    const { connection, client } = await connect(256 * 1024);
    client.pause();
    const message = JSON.stringify({ padding: 'z'.repeat(32 * 1024) });
    // Fill until the unsent bytes are past the low-water mark (the kernel takes its share first).
    for (let sent = 0; connection.unsentBytes <= 64 * 1024 && sent < 5_000; sent++) {
      connection.send(message, true);
      if (sent % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    let drained = false;
    const waiting = connection.drained().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(drained).toBe(false);
    client.resume();
    await waiting;
    expect(connection.unsentBytes).toBeLessThanOrEqual(64 * 1024);
    expect(connection.isOpen).toBe(true);
  });
});
