import { readFileSync, writeFileSync } from 'node:fs';
import { credentials, makeGenericClientConstructor, type Client as RawClient, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerStoreServiceService, SyncServiceService } from '@ledger-node/contracts';
import { InvalidParams, NotFound, NotImplemented, type LedgerNodeError } from '@ledger-node/errors';
import { createLogger } from '@ledger-node/telemetry';
import { rejectionOf, tempDir, waitUntil } from '@ledger-node/test-utils';
import { checkHealth, createGrpcClient, refusingClient } from './client';
import { HealthService, ServingStatus } from './health';
import { withCallScope } from './call-scope';
import { bindService, startGrpcServer, type GrpcServer } from './server';

const logger = createLogger('test', 'silent');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const syncStatus = {
  syncing: true,
  startingLedgerIndex: 10,
  currentLedgerIndex: 20,
  highestLedgerIndex: 30,
  upstreamUrl: 'ws://127.0.0.1:1',
  upstreamConnected: true,
  lagLedgers: 10,
  liveLedgersPerSecond: 1,
  backfillLedgersPerSecond: 1.5,
  backfillRemainingLedgers: 2n ** 60n,
  backfillEtaSeconds: undefined,
  verificationFailureCount: 0n,
  completeRanges: [{ first: 10, last: 20 }],
  stateReady: false,
  indexFailureCount: 0n,
  anchorProof: '',
  verificationFailuresByReason: {},
};

async function serveSync(address: string, authToken?: string): Promise<GrpcServer> {
  const server = await startGrpcServer({
    address,
    logger,
    authToken,
    services: [
      bindService('ledgernode.sync.v1.SyncService', SyncServiceService, {
        async getSyncStatus() {
          return syncStatus;
        },
        getManifest: async () => ({}),
        getStateProof: async () => ({ ledgerIndex: 0, headerBlob: Buffer.alloc(0), entries: [] }),
      }),
    ],
  });
  cleanups.push(() => server.stop(100));
  return server;
}

describe('startGrpcServer + createGrpcClient', () => {
  it('serves plain async handlers over a unix socket, 64-bit values as bigint', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const server = await serveSync(`unix:${dir}/sync.sock`);
    const client = createGrpcClient(SyncServiceService, server.address);
    cleanups.push(() => client.close());
    const answer = await client.getSyncStatus({});
    expect(answer.backfillRemainingLedgers).toBe(2n ** 60n);
    expect(answer.completeRanges).toEqual([{ first: 10, last: 20 }]);
  });

  it('refuses calls without the token when one is configured', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const server = await serveSync(`unix:${dir}/token.sock`, 'sesame');
    const anonymous = createGrpcClient(SyncServiceService, server.address);
    const authorised = createGrpcClient(SyncServiceService, server.address, { authToken: 'sesame' });
    cleanups.push(() => anonymous.close(), () => authorised.close());
    await expect(anonymous.getSyncStatus({})).rejects.toMatchObject({ kind: 'unauthorized' });
    await expect(authorised.getSyncStatus({})).resolves.toMatchObject({ currentLedgerIndex: 20 });
  });

  it('carries typed errors from handler to caller', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const notYet = async (): Promise<never> => {
      throw new NotImplemented('this');
    };
    const server = await startGrpcServer({
      address: `unix:${dir}/store.sock`,
      logger,
      services: [
        bindService('ledgernode.ledgerstore.v1.LedgerStoreService', LedgerStoreServiceService, {
          getStatus: async () => {
            throw new InvalidParams('ledger index must be positive', 'ledger');
          },
          putLedgers: notYet, putStateObjects: notYet, putStateChanges: notYet, deleteLedger: notYet, getNft: notYet, getNftTransactions: notYet,
          getLedger: async () => {
            throw new Error('disk on fire at /secret/path');
          },
          getTransaction: async () => {
            // A caller's own text, echoed in an error: gRPC metadata is ASCII, so it must travel encoded.
            throw new NotFound('no transaction "é😀"', { hash: 'é\u0000😀\r\n' });
          },
          getTransactions: async () => {
            // As long as a body may be: the trailers must still fit HTTP/2's header list bound.
            const text = 'é'.repeat(20_000);
            throw new NotFound(`no transaction "${text}"`, { hash: text, list: Array.from({ length: 1_000 }, () => text) });
          },
          getTransactionByIndex: notYet, getAccountStates: notYet,
          getAccountTransactions: notYet, getAccountTransactionCount: notYet, listStateObjects: notYet, getStateObjects: notYet, getLedgerEvidence: notYet, getLedgerRange: notYet,
          async *watchLedgers() {
            yield { ledgerIndex: 1, ledgerHash: Buffer.alloc(32, 1), closeTimeRippleEpoch: 0, transactions: [] };
            throw new InvalidParams('stream ended badly');
          },
          async *watchRanges() {
            throw new NotImplemented('this');
          },
          async *putLedgersStream(requests) {
            for await (const request of requests) {
              if (request.ledgers.length === 0) throw new InvalidParams('an empty batch', 'ledgers');
              yield { storedCount: request.ledgers.length, completeRanges: [{ first: 1, last: request.ledgers[0]!.ledgerIndex }] };
            }
          },
        }),
      ],
    });
    cleanups.push(() => server.stop(100));
    const client = createGrpcClient(LedgerStoreServiceService, server.address);
    cleanups.push(() => client.close());
    await expect(client.getStatus({})).rejects.toMatchObject({ kind: 'invalid_params', message: 'ledger index must be positive', details: { param: 'ledger' } });
    await expect(client.getLedger({ ledger: undefined, txDetail: 0 })).rejects.toMatchObject({ kind: 'internal', message: 'internal error' });
    await expect(client.getTransaction({ hash: Buffer.alloc(32) })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'no transaction "é😀"',
      details: { data: { hash: 'é\u0000😀\r\n' } },
    });
    const long = await rejectionOf<LedgerNodeError>(client.getTransactions({ hashes: [] }));
    expect(long).toMatchObject({ kind: 'not_found', message: expect.stringMatching(/^no transaction "é+… \(20017 characters\)$/) });
    expect(long.message.length).toBeLessThan(1_100);
    expect(JSON.stringify(long.details).length).toBeLessThan(10_000);
    // The server is still up and answering.
    await expect(client.getStatus({})).rejects.toMatchObject({ kind: 'invalid_params' });
    const received: number[] = [];
    await expect(
      (async () => {
        for await (const event of client.watchLedgers({ fromLedgerIndex: 0, includeBackfill: false })) received.push(event.ledgerIndex);
      })(),
    ).rejects.toMatchObject({ kind: 'invalid_params', message: 'stream ended badly' });
    expect(received).toEqual([1]);

    // A bidirectional stream: each request answered in order, the handler's end ending it, and its error failing it.
    const write = (ledgerIndex: number) => ({ ledgerIndex, ledgerHash: Buffer.alloc(32), headerBlob: Buffer.alloc(0), transactions: [], stateChanges: [], stateChangesComplete: false });
    const answersOf = async (batches: number[][], end: boolean) => {
      const call = client.putLedgersStream();
      for (const batch of batches) call.send({ ledgers: batch.map(write) });
      if (end) call.end();
      const answers: number[] = [];
      for await (const answer of call.responses) answers.push(answer.completeRanges[0]!.last);
      return answers;
    };
    await expect(answersOf([[5], [7, 8]], true)).resolves.toEqual([5, 7]);
    const failing = answersOf([[3], [], [4]], false);
    await expect(failing).rejects.toMatchObject({ kind: 'invalid_params', message: 'an empty batch' });
  });

  it('retries an idempotent read until a restarting server is back, and fails fast otherwise', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const address = `unix:${dir}/late.sock`;
    const retrying = createGrpcClient(SyncServiceService, address, { idempotent: ['getSyncStatus'], deadlineMs: 5_000 });
    const once = createGrpcClient(SyncServiceService, address, { deadlineMs: 5_000, serviceLabel: 'sync' });
    cleanups.push(() => retrying.close(), () => once.close());
    // The socket path of the deployment stays out of the message.
    await expect(once.getSyncStatus({})).rejects.toMatchObject({ kind: 'unavailable', message: 'sync unavailable: cannot connect' });
    const pending = retrying.getSyncStatus({});
    await new Promise((resolve) => setTimeout(resolve, 300));
    await serveSync(address);
    await expect(pending).resolves.toMatchObject({ highestLedgerIndex: 30 });
  });

  it('answers grpc.health.v1 checks per service', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const server = await serveSync(`unix:${dir}/h.sock`);
    expect(await checkHealth(server.address)).toBe('SERVING');
    expect(await checkHealth(server.address, 'ledgernode.sync.v1.SyncService')).toBe('SERVING');
    server.health.set('ledgernode.sync.v1.SyncService', 'NOT_SERVING');
    expect(await checkHealth(server.address, 'ledgernode.sync.v1.SyncService')).toBe('NOT_SERVING');
    await expect(checkHealth(server.address, 'no.such.Service')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it("streams a service's health state and each change (Watch), and lists every state (List)", async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const server = await serveSync(`unix:${dir}/w.sock`);
    const HealthClient = makeGenericClientConstructor(HealthService, 'Health');
    const client = new HealthClient(server.address, credentials.createInsecure()) as unknown as RawClient & {
      watch(request: { service: string }): ClientReadableStream<{ status: number }>;
      list(request: object, callback: (error: ServiceError | null, statuses?: Map<string, number>) => void): void;
    };
    cleanups.push(() => client.close());

    const sync = 'ledgernode.sync.v1.SyncService';
    const watched: number[] = [];
    const unknown: number[] = [];
    const watch = client.watch({ service: sync });
    watch.on('data', ({ status }) => watched.push(status));
    watch.on('error', () => undefined);
    const watchUnknown = client.watch({ service: 'not.yet.Service' });
    watchUnknown.on('data', ({ status }) => unknown.push(status));
    watchUnknown.on('error', () => undefined);
    await waitUntil(() => watched.length === 1 && unknown.length === 1, 3_000, 'the first state of each watch');
    expect(watched).toEqual([ServingStatus.SERVING]);
    expect(unknown).toEqual([ServingStatus.SERVICE_UNKNOWN]);

    server.health.set(sync, 'NOT_SERVING');
    server.health.set('not.yet.Service', 'SERVING');
    await waitUntil(() => watched.length === 2 && unknown.length === 2, 3_000, 'each change');
    expect(watched).toEqual([ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
    expect(unknown).toEqual([ServingStatus.SERVICE_UNKNOWN, ServingStatus.SERVING]);

    // A cancelled watch hears no more.
    watch.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.health.set(sync, 'SERVING');
    await waitUntil(() => unknown.length === 2, 1_000, 'the other watch untouched');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(watched).toHaveLength(2);

    const statuses = await new Promise<Map<string, number>>((resolve, reject) => client.list({}, (error, answer) => (error ? reject(error) : resolve(answer!))));
    expect(Object.fromEntries(statuses)).toEqual({ '': ServingStatus.SERVING, [sync]: ServingStatus.SERVING, 'not.yet.Service': ServingStatus.SERVING });
    watchUnknown.cancel();
  });

  it('never removes a file at its socket path that is not a socket', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    writeFileSync(`${dir}/precious.sock`, 'not a socket');
    await expect(serveSync(`unix:${dir}/precious.sock`)).rejects.toThrow(`${dir}/precious.sock exists and is not a socket; it is left alone`);
    expect(readFileSync(`${dir}/precious.sock`, 'utf8')).toBe('not a socket');
  });

  it('refuses to take over a socket another live server holds', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    await serveSync(`unix:${dir}/busy.sock`);
    await expect(serveSync(`unix:${dir}/busy.sock`)).rejects.toThrow(/already serving/);
  });
});

describe('a caller gone or out of time', () => {
  /** A front service whose one handler calls a back service; the back one waits until its call is cancelled. */
  async function chain() {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const back = { started: 0, cancelledAfterMs: [] as number[] };
    const backServer = await startGrpcServer({
      address: `unix:${dir}/back.sock`,
      logger,
      services: [
        bindService('ledgernode.sync.v1.SyncService', SyncServiceService, {
          getManifest: async () => ({}),
          getStateProof: async () => ({ ledgerIndex: 0, headerBlob: Buffer.alloc(0), entries: [] }),
          getSyncStatus: (_request, { signal }) => {
            back.started++;
            const startedAt = Date.now();
            return new Promise((_resolve, reject) => {
              signal.addEventListener('abort', () => {
                back.cancelledAfterMs.push(Date.now() - startedAt);
                reject(new Error('cancelled'));
              });
            });
          },
        }),
      ],
    });
    cleanups.push(() => backServer.stop(100));
    // Its own deadline is long: only what the front call inherits can end it early.
    const toBack = createGrpcClient(SyncServiceService, backServer.address, { deadlineMs: 30_000 });
    const frontServer = await startGrpcServer({
      address: `unix:${dir}/front.sock`,
      logger,
      services: [bindService('ledgernode.sync.v1.SyncService', SyncServiceService, { getSyncStatus: () => toBack.getSyncStatus({}), getManifest: async () => ({}), getStateProof: async () => ({ ledgerIndex: 0, headerBlob: Buffer.alloc(0), entries: [] }) })],
    });
    cleanups.push(() => frontServer.stop(100), () => toBack.close());
    const front = createGrpcClient(SyncServiceService, frontServer.address, { deadlineMs: 30_000 });
    cleanups.push(() => front.close());
    return { back, front };
  }

  it('passes its deadline on: the call behind ends when the first caller stops waiting', async () => {
    const { back, front } = await chain();
    await expect(front.getSyncStatus({}, { deadlineMs: 400 })).rejects.toMatchObject({ kind: 'unavailable' });
    await waitUntil(() => back.cancelledAfterMs.length === 1 || undefined, 5_000, 'the call behind cancelled');
    expect(back.cancelledAfterMs[0]).toBeLessThan(2_000);
  });

  it('passes its cancellation on: the call behind is cancelled with it, and none is made for a caller already gone', async () => {
    const { back, front } = await chain();
    const controller = new AbortController();
    const pending = front.getSyncStatus({}, { signal: controller.signal });
    await waitUntil(() => back.started === 1 || undefined, 5_000, 'the call behind started');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'unavailable' });
    await waitUntil(() => back.cancelledAfterMs.length === 1 || undefined, 5_000, 'the call behind cancelled');
    await expect(withCallScope({ signal: AbortSignal.abort() }, () => front.getSyncStatus({}))).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/cancelled/) });
    expect(back.started).toBe(1);
  });

  it('ends a stream asked for with a signal already aborted: nothing of it outlives its reader', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const streams = { opened: 0, ended: 0 };
    const server = await startGrpcServer({
      address: `unix:${dir}/store.sock`,
      logger,
      services: [
        bindService('ledgernode.ledgerstore.v1.LedgerStoreService', LedgerStoreServiceService, {
          ...Object.fromEntries(Object.keys(LedgerStoreServiceService).map((method) => [method, async () => Promise.reject(new NotImplemented('this'))])),
          async *watchRanges(_request: unknown, { signal }: { signal: AbortSignal }) {
            streams.opened++;
            await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
            streams.ended++;
          },
        } as never),
      ],
    });
    cleanups.push(() => server.stop(100));
    const client = createGrpcClient(LedgerStoreServiceService, server.address);
    cleanups.push(() => client.close());
    const received: unknown[] = [];
    for await (const message of client.watchRanges({}, { signal: AbortSignal.abort() })) received.push(message);
    expect(received).toEqual([]);
    // The call reached the server or not; either way it is over there too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(streams.ended).toBe(streams.opened);
  });
});

describe('refusingClient', () => {
  it('refuses every call, a stream as it is read (either kind), without a server to dial', async () => {
    const refused = () => new NotImplemented('signing here');
    const client = refusingClient(LedgerStoreServiceService, refused);
    await expect(client.getStatus({})).rejects.toMatchObject({ kind: 'unimplemented', message: 'signing here is not available in this version' });
    const reading = (async () => {
      for await (const _event of client.watchRanges({})) return 'read';
      return 'ended';
    })();
    await expect(reading).rejects.toMatchObject({ kind: 'unimplemented' });
    const duplex = client.putLedgersStream();
    duplex.send({ ledgers: [] });
    await expect(duplex.responses[Symbol.asyncIterator]().next()).rejects.toMatchObject({ kind: 'unimplemented' });
    client.close();
  });
});
