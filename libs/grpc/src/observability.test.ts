import { afterEach, describe, expect, it } from 'vitest';
import { SyncServiceService } from '@ledger-node/contracts';
import { NotFound } from '@ledger-node/errors';
import { createLogger, metricsText } from '@ledger-node/telemetry';
import { tempDir } from '@ledger-node/test-utils';
import { checkHealth, createGrpcClient } from './client';
import { dependenciesServing, watchReadiness } from './readiness';
import { bindService, startGrpcServer } from './server';
import { serveGrpc } from './standalone';

const logger = createLogger('test', 'silent');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const syncService = 'ledgernode.sync.v1.SyncService';

async function serveFailingSync(address: string) {
  const server = await startGrpcServer({
    address,
    logger,
    services: [
      bindService(syncService, SyncServiceService, {
        async getSyncStatus() {
          throw new NotFound('no status here');
        },
        getManifest: async () => ({}),
        getStateProof: async () => ({ ledgerIndex: 0, headerBlob: Buffer.alloc(0), entries: [] }),
      }),
    ],
  });
  cleanups.push(() => server.stop(100));
  return server;
}

const until = async (probe: () => Promise<boolean>) => {
  for (let attempt = 0; attempt < 100 && !(await probe()); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('gRPC observability', () => {
  it('times every call on both sides by service, method and status code', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const server = await serveFailingSync(`unix:${dir}/sync.sock`);
    const client = createGrpcClient(SyncServiceService, server.address);
    cleanups.push(() => client.close());
    // Counted from before the call: other tests of this process may have made such calls.
    const counts = async () => {
      const text = (await metricsText()).body;
      return ['server', 'client'].map((side) => {
        const line = new RegExp(`^grpc_${side}_handling_seconds_count\\{[^}]*grpc_service="${syncService}",grpc_method="GetSyncStatus",grpc_code="NOT_FOUND"[^}]*\\} (\\d+)$`, 'm');
        return Number(line.exec(text)?.[1] ?? 0);
      });
    };
    const before = await counts();
    await expect(client.getSyncStatus({})).rejects.toMatchObject({ kind: 'not_found' });
    expect(await counts()).toEqual(before.map((count) => count + 1));
  });

  it('reports readiness through grpc.health.v1, for the server and each service', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const server = await serveFailingSync(`unix:${dir}/sync.sock`);
    server.setReady(false);
    expect(await checkHealth(server.address)).toBe('NOT_SERVING');
    expect(await checkHealth(server.address, syncService)).toBe('NOT_SERVING');
    server.setReady(true);
    expect(await checkHealth(server.address)).toBe('SERVING');
    expect(await checkHealth(server.address, syncService)).toBe('SERVING');
  });

  it('watchReadiness follows a dependency: NOT_SERVING while it is gone, SERVING once it answers again', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const dependencyAddress = `unix:${dir}/dependency.sock`;
    let dependency = await serveFailingSync(dependencyAddress);
    const server = await serveFailingSync(`unix:${dir}/sync.sock`);
    const stop = watchReadiness(server, dependenciesServing({ dependency: dependencyAddress }, 300), logger, 50);
    cleanups.push(stop);
    await until(async () => (await checkHealth(server.address)) === 'SERVING');
    expect(await checkHealth(server.address)).toBe('SERVING');
    await dependency.stop(100);
    await until(async () => (await checkHealth(server.address)) === 'NOT_SERVING');
    expect(await checkHealth(server.address)).toBe('NOT_SERVING');
    dependency = await serveFailingSync(dependencyAddress);
    await until(async () => (await checkHealth(server.address)) === 'SERVING');
    expect(await checkHealth(server.address)).toBe('SERVING');
  });

  it('says ledger_node_ready 1 while grpc.health.v1 answers SERVING, 0 while NOT_SERVING or stopping', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const served = await serveGrpc({ address: `unix:${dir}/sync.sock`, logger, services: [], metrics: { service: 'sync' } });
    let stopped = false;
    cleanups.push(() => (stopped ? undefined : served.stop()));
    const ready = async () => /^ledger_node_ready\{ledger_node_service="sync"\} (\d)$/m.exec((await metricsText()).body)?.[1];
    expect(await ready()).toBe('1');
    served.setReady(false);
    expect(await checkHealth(served.address)).toBe('NOT_SERVING');
    expect(await ready()).toBe('0');
    served.setReady(true);
    expect(await ready()).toBe('1');
    await served.stop();
    stopped = true;
    expect(await ready()).toBe('0');
  });
});
