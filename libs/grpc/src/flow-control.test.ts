import { connect as connectHttp2, type ClientHttp2Session } from 'node:http2';
import { connect as connectSocket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@ledger-node/telemetry';
import { tempDir, waitUntil } from '@ledger-node/test-utils';
import { RECEIVE_WINDOW_BYTES } from './flow-control';
import { startGrpcServer } from './server';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a gRPC server', () => {
  it('announces the wide stream window and widens the connection window of each session', async () => {
    const { dir, remove } = tempDir('flow-control-');
    cleanups.push(remove);
    const socket = path.join(dir, 'server.sock');
    const server = await startGrpcServer({ address: `unix:${socket}`, services: [], logger: createLogger('test', 'silent') });
    cleanups.push(() => server.stop());
    const session: ClientHttp2Session = connectHttp2('http://localhost', { createConnection: () => connectSocket(socket) });
    cleanups.push(() => session.close());
    const settings = await new Promise<{ initialWindowSize?: number }>((resolve) => session.once('remoteSettings', resolve));
    expect(settings.initialWindowSize).toBe(RECEIVE_WINDOW_BYTES);
    // The connection window arrives as a WINDOW_UPDATE right after the settings.
    await waitUntil(() => session.state.remoteWindowSize === RECEIVE_WINDOW_BYTES, 2_000, `a connection window of ${RECEIVE_WINDOW_BYTES} bytes`, 10);
  });
});
