import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import { freePort, stopAll, waitUntil } from '@ledger-node/test-utils';
import { scratchDir, serving, startDevnet, startLedgerStore, startStoreAndSync, startSync, storedLedger, WsClient } from './support/cluster';
import { TcpProxy } from '@ledger-node/test-utils';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  await stopAll();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('upstream dropped mid-stream', () => {
  it('reconnects, reports syncing while behind, catches up and reports level again', async () => {
    const devnet = await startDevnet(['-load', '10', '-load_accounts', '5', '-close_ms', '100']);
    const devnetUrl = new URL(devnet.url);
    const proxy = await TcpProxy.start(devnetUrl.hostname, Number(devnetUrl.port));
    cleanups.push(() => proxy.close());
    const upstream = await WsClient.open(devnet.url);
    cleanups.push(() => upstream.close());

    const dataDir = scratchDir(cleanups);
    const { clients } = await startStoreAndSync(dataDir, `ws://127.0.0.1:${proxy.port}`, ['-thread_count', '4'], cleanups);

    const level = (status: GetSyncStatusResponse) => !status.syncing && status.completeRanges.length === 1 && status.completeRanges[0]!.first === 1;
    const before = await waitUntil(async () => {
      const status = await clients.sync.getSyncStatus({});
      return level(status) && status.currentLedgerIndex >= 5 ? status : undefined;
    }, 30_000, 'sync level before the cut', 100);
    expect(before.upstreamConnected).toBe(true);

    proxy.cut();
    await waitUntil(async () => !(await clients.sync.getSyncStatus({})).upstreamConnected, 10_000, 'the loss noticed', 50);
    // The devnet keeps closing ledgers while sync cannot reach it.
    const closedDuringCut = await waitUntil(async () => {
      const closed = await upstream.request('ledger_closed');
      return closed.result.ledger_index >= before.currentLedgerIndex + 15 ? closed.result.ledger_index : undefined;
    }, 30_000, 'ledgers closed during the cut', 100);
    const during = await clients.sync.getSyncStatus({});
    expect(during.currentLedgerIndex).toBeLessThan(closedDuringCut);
    proxy.restore();

    // Poll closely: the catch-up is short, but it is reported.
    const seen: GetSyncStatusResponse[] = [];
    const after = await waitUntil(async () => {
      const status = await clients.sync.getSyncStatus({});
      seen.push(status);
      return level(status) && status.currentLedgerIndex >= closedDuringCut ? status : undefined;
    }, 60_000, 'caught up after the cut', 10);
    const behind = seen.find((status) => status.syncing);
    expect(behind, 'a status reporting syncing while behind').toBeDefined();
    expect(behind!.startingLedgerIndex).toBeLessThan(closedDuringCut);
    expect(behind!.highestLedgerIndex).toBeGreaterThanOrEqual(closedDuringCut);
    expect(after).toMatchObject({ syncing: false, upstreamConnected: true, verificationFailureCount: 0n });
    expect(after.completeRanges).toEqual([{ first: 1, last: after.currentLedgerIndex }]);
    const servedTip = await upstream.request('ledger', { ledger_index: after.currentLedgerIndex });
    const storedTip = await storedLedger(clients, after.currentLedgerIndex);
    expect(storedTip?.ledgerHash.toString('hex').toUpperCase()).toBe(servedTip.result.ledger_hash);
  });
});

describe('no upstream answers', () => {
  it('keeps retrying, and stops cleanly (exit 0) when asked to while it waits', async () => {
    const dataDir = scratchDir(cleanups);
    const store = startLedgerStore(dataDir);
    await serving(store);
    // A port nothing listens on: every connection attempt is refused.
    const sync = startSync(dataDir, `ws://127.0.0.1:${await freePort()}`);
    await serving(sync);
    await sync.waitFor(/no upstream endpoint answers; retrying/, 15_000);
    expect(await sync.stop('SIGTERM', 15_000)).toBe(0);
    expect(sync.output()).not.toMatch(/did not stop/);
  });
});

/**
 * A WebSocket gate in front of the devnet that lets an upgrade through only with the expected
 * Basic credentials and query token, and remembers what it saw.
 */
async function credentialGate(devnetUrl: string, expected: { authorization: string; token: string }) {
  const target = new URL(devnetUrl);
  const seen = { admitted: 0, refused: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((_request, response) => response.writeHead(426).end());
  server.on('upgrade', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    const query = new URL(request.url ?? '/', 'ws://gate').searchParams;
    if (request.headers.authorization !== expected.authorization || query.get('token') !== expected.token) {
      seen.refused++;
      client.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    seen.admitted++;
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${request.method} / HTTP/1.1`];
      for (let index = 0; index < request.rawHeaders.length; index += 2) lines.push(`${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    const close = () => [client, upstream].forEach((socket) => socket.destroy());
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => {
      sockets.forEach((socket) => socket.destroy());
      server.close(() => resolve());
    }),
  };
}

describe('an upstream that needs credentials', () => {
  it('is reached with those of -endpoint_file, which no status, log or command line shows', async () => {
    const devnet = await startDevnet(['-close_ms', '200']);
    const gate = await credentialGate(devnet.url, { authorization: `Basic ${Buffer.from('user:s3cret').toString('base64')}`, token: 't0ken' });
    cleanups.push(() => gate.close());
    const dataDir = scratchDir(cleanups);
    const endpointFile = path.join(dataDir, 'endpoints');
    writeFileSync(endpointFile, `# the gated devnet\nws://user:s3cret@127.0.0.1:${gate.port}/?token=t0ken\n`, { mode: 0o600 });
    const { sync, clients } = await startStoreAndSync(dataDir, { file: endpointFile }, [], cleanups);

    const status = await waitUntil(async () => {
      const now = await clients.sync.getSyncStatus({});
      return now.upstreamConnected && now.currentLedgerIndex >= 3 ? now : undefined;
    }, 30_000, 'sync connected through the gate', 100);
    expect(gate.seen.admitted).toBeGreaterThan(0);
    expect(gate.seen.refused).toBe(0);
    expect(status.upstreamUrl).toBe(`ws://***@127.0.0.1:${gate.port}/?token=***`);
    expect(sync.output()).toContain(`subscribed to ws://***@127.0.0.1:${gate.port}/?token=***`);
    expect(sync.output()).not.toMatch(/s3cret|t0ken/);
    expect(readFileSync(`/proc/${sync.pid}/cmdline`, 'utf8')).not.toMatch(/s3cret|t0ken/);
  });
});
