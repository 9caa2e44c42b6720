import { createServer, type Http2Session } from 'node:http2';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncServiceService } from '@ledger-node/contracts';
import { tempDir } from '@ledger-node/test-utils';
import { createGrpcClient } from './client';
import { RECEIVE_WINDOW_BYTES } from './flow-control';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a gRPC client', () => {
  it('announces its wide receive window to the server it calls', async () => {
    const { dir, remove } = tempDir('flow-control-');
    cleanups.push(remove);
    const socket = path.join(dir, 'server.sock');
    // A bare HTTP/2 server in the place of a service: it only looks at the client's settings.
    const server = createServer();
    const announced = new Promise<number | undefined>((resolve) =>
      server.on('session', (session: Http2Session) => session.once('remoteSettings', (settings) => resolve(settings.initialWindowSize))),
    );
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const client = createGrpcClient(SyncServiceService, `unix:${socket}`, { deadlineMs: 1_000 });
    cleanups.push(() => client.close());
    void client.getSyncStatus({}).catch(() => undefined);
    expect(await announced).toBe(RECEIVE_WINDOW_BYTES);
  });
});
