import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  credentials,
  Server,
  ServerCredentials,
  status,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceError,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../tools/gen/contracts.mjs';
import {
  ledgerstore,
  LedgerStoreServiceClient,
  LedgerStoreServiceService,
  TxDetail,
  type GetLedgerRequest,
  type GetLedgerResponse,
  type GetStatusRequest,
  type GetStatusResponse,
  type LedgerStoreServiceServer,
  type WatchLedgersRequest,
  type WatchLedgersResponse,
} from './index';

interface FixtureLedger {
  ledger_hash: string;
  ledger_index: number;
  ledger: {
    account_hash: string;
    close_flags: number;
    close_time: number;
    close_time_resolution: number;
    parent_close_time: number;
    parent_hash: string;
    total_coins: string;
    transaction_hash: string;
    transactions: { hash: string }[];
  };
}

// The repository's fixtures folder (as @ledger-node/test-utils' fixturesDir, which this library may not import).
const fixturesDir = path.join(repoRoot, 'fixtures');
const fixture = JSON.parse(
  readFileSync(path.join(fixturesDir, 'xrpl/ledgers/mainnet/11119600.json'), 'utf8'),
) as FixtureLedger;

/** rippled's canonical header serialization (the bytes hashed under the 'LWR\0' prefix). */
function headerBlob(ledger: FixtureLedger): Buffer {
  const header = Buffer.alloc(118);
  let offset = header.writeUInt32BE(ledger.ledger_index, 0);
  offset = header.writeBigUInt64BE(BigInt(ledger.ledger.total_coins), offset);
  offset += Buffer.from(ledger.ledger.parent_hash, 'hex').copy(header, offset);
  offset += Buffer.from(ledger.ledger.transaction_hash, 'hex').copy(header, offset);
  offset += Buffer.from(ledger.ledger.account_hash, 'hex').copy(header, offset);
  offset = header.writeUInt32BE(ledger.ledger.parent_close_time, offset);
  offset = header.writeUInt32BE(ledger.ledger.close_time, offset);
  offset = header.writeUInt8(ledger.ledger.close_time_resolution, offset);
  header.writeUInt8(ledger.ledger.close_flags, offset);
  return header;
}

function sha512Half(...parts: Uint8Array[]): Buffer {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest().subarray(0, 32);
}

// Above Number.MAX_SAFE_INTEGER: a lossy number would arrive as ...992.
const dbSizeBytes = 9_007_199_254_740_993n;
const storedLedgerHash = Buffer.from(fixture.ledger_hash, 'hex');

/** A LedgerStore serving one fixture ledger; the other methods stay unimplemented. */
const tinyLedgerStore: Pick<LedgerStoreServiceServer, 'getStatus' | 'getLedger' | 'watchLedgers'> = {
  getStatus(_call: ServerUnaryCall<GetStatusRequest, GetStatusResponse>, callback: sendUnaryData<GetStatusResponse>) {
    callback(null, {
      completeRanges: [{ first: fixture.ledger_index, last: fixture.ledger_index }],
      unprovenRanges: [],
      lowestLedgerIndex: fixture.ledger_index,
      highestLedgerIndex: fixture.ledger_index,
      ledgerCount: 1n,
      transactionCount: BigInt(fixture.ledger.transactions.length),
      stateObjectVersionCount: 0n,
      dbSizeBytes,
      stateDownload: { ledgerIndex: 0, marker: Buffer.alloc(0), complete: false, objectCount: 0n },
    });
  },
  getLedger(call: ServerUnaryCall<GetLedgerRequest, GetLedgerResponse>, callback: sendUnaryData<GetLedgerResponse>) {
    const selector = call.request.ledger?.selector;
    if (selector === undefined) {
      callback({ code: status.INVALID_ARGUMENT, details: 'ledger selector is required' });
      return;
    }
    const matches =
      (selector.$case === 'hash' && Buffer.from(selector.hash).equals(storedLedgerHash)) ||
      (selector.$case === 'index' && selector.index === fixture.ledger_index);
    if (!matches) {
      callback(null, {});
      return;
    }
    const withHashes = call.request.txDetail === TxDetail.HASHES;
    callback(null, {
      ledger: {
        ledgerIndex: fixture.ledger_index,
        ledgerHash: storedLedgerHash,
        headerBlob: headerBlob(fixture),
        transactionCount: fixture.ledger.transactions.length,
        transactionHashes: withHashes ? fixture.ledger.transactions.map((tx) => Buffer.from(tx.hash, 'hex')) : [],
        transactions: [],
      },
    });
  },
  watchLedgers(call: ServerWritableStream<WatchLedgersRequest, WatchLedgersResponse>) {
    const firstIndex = call.request.fromLedgerIndex ?? fixture.ledger_index;
    for (const ledgerIndex of [firstIndex, firstIndex + 1]) {
      call.write({
        ledgerIndex,
        ledgerHash: storedLedgerHash,
        closeTimeRippleEpoch: fixture.ledger.close_time,
        transactions: [{ hash: Buffer.from(fixture.ledger.transactions[0]!.hash, 'hex'), engineResult: 'tesSUCCESS', txIndex: 0 }],
      });
    }
    call.end();
  },
};

type UnaryCallback<Response> = (error: ServiceError | null, response: Response) => void;

/** Promise form of a generated unary client method. */
function unary<Request, Response>(
  method: (request: Request, callback: UnaryCallback<Response>) => unknown,
  request: Request,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    method(request, (error, response) => (error ? reject(error) : resolve(response)));
  });
}

describe('LedgerStoreService over a unix socket', () => {
  let socketDir: string;
  let server: Server;
  let client: LedgerStoreServiceClient;

  beforeAll(async () => {
    socketDir = mkdtempSync(path.join(tmpdir(), 'contracts-uds-'));
    const socketAddress = `unix:${path.join(socketDir, 'ledger-store.sock')}`;
    server = new Server();
    server.addService(LedgerStoreServiceService, tinyLedgerStore);
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(socketAddress, ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve())),
    );
    client = new LedgerStoreServiceClient(socketAddress, credentials.createInsecure());
  });

  const getStatus = (request: GetStatusRequest) =>
    unary<GetStatusRequest, GetStatusResponse>((message, done) => client.getStatus(message, done), request);
  const getLedger = (request: GetLedgerRequest) =>
    unary<GetLedgerRequest, GetLedgerResponse>((message, done) => client.getLedger(message, done), request);
  const getTransaction = (request: ledgerstore.GetTransactionRequest) =>
    unary<ledgerstore.GetTransactionRequest, ledgerstore.GetTransactionResponse>(
      (message, done) => client.getTransaction(message, done),
      request,
    );

  afterAll(async () => {
    client?.close();
    await new Promise<void>((resolve) => (server ? server.tryShutdown(() => resolve()) : resolve()));
    rmSync(socketDir, { recursive: true, force: true });
  });

  it('delivers 64-bit counters as exact bigints', async () => {
    const response = await getStatus({});

    expect(response.dbSizeBytes).toBe(9_007_199_254_740_993n);
    expect(response.ledgerCount).toBe(1n);
    expect(response.transactionCount).toBe(13n);
    expect(response.stateDownload?.objectCount).toBe(0n);
    expect(response.completeRanges).toEqual([{ first: 11119600, last: 11119600 }]);
    expect(response.lowestLedgerIndex).toBe(11119600);
  });

  it('finds a ledger by its hash bytes and returns its header and transaction hashes as bytes', async () => {
    const response = await getLedger({
      ledger: { selector: { $case: 'hash', hash: storedLedgerHash } },
      txDetail: TxDetail.HASHES,
    });

    const ledger = response.ledger!;
    expect(ledger.ledgerIndex).toBe(11119600);
    expect(Buffer.isBuffer(ledger.ledgerHash)).toBe(true);
    expect(ledger.ledgerHash.toString('hex').toUpperCase()).toBe(
      'D6D9B04452ADCC26D736DAA11277AA1E2FCFB394BABE3BC841EA26DB4F728F7B',
    );
    // The header survived the wire bit for bit: it still hashes to the ledger hash (rippled: SHA-512Half('LWR\0' + header)).
    expect(ledger.headerBlob).toHaveLength(118);
    expect(sha512Half(Buffer.from('LWR\0', 'latin1'), ledger.headerBlob).equals(storedLedgerHash)).toBe(true);
    expect(ledger.transactionCount).toBe(13);
    expect(ledger.transactionHashes.map((hash) => hash.toString('hex').toUpperCase())).toEqual(
      fixture.ledger.transactions.map((tx) => tx.hash),
    );
    expect(ledger.transactionHashes[0]!.toString('hex').toUpperCase()).toBe(
      '03128CBC03531F13C024D6C864434894D3191A9887A6FFBE95E6C5AC43420B22',
    );
  });

  it('answers with no ledger when the selector names none that is stored', async () => {
    const response = await getLedger({
      ledger: { selector: { $case: 'index', index: 11119601 } },
      txDetail: TxDetail.NONE,
    });

    expect(response.ledger).toBeUndefined();
  });

  it('carries a handler error as its gRPC status code', async () => {
    const failure = getLedger({ txDetail: TxDetail.NONE });

    await expect(failure).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'ledger selector is required' });
  });

  it('answers UNIMPLEMENTED for a method the server does not provide', async () => {
    const failure = getTransaction({ hash: Buffer.alloc(32) });

    await expect(failure).rejects.toMatchObject({ code: status.UNIMPLEMENTED });
  });

  it('streams stored ledgers to a watcher in order', async () => {
    const events: ledgerstore.WatchLedgersResponse[] = [];
    const stream = client.watchLedgers({ fromLedgerIndex: 11119600, includeBackfill: false });
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (event: ledgerstore.WatchLedgersResponse) => events.push(event));
      stream.on('error', reject);
      stream.on('end', resolve);
    });

    expect(events.map((event) => event.ledgerIndex)).toEqual([11119600, 11119601]);
    expect(events[0]!.transactions).toEqual([
      {
        hash: Buffer.from('03128CBC03531F13C024D6C864434894D3191A9887A6FFBE95E6C5AC43420B22', 'hex'),
        engineResult: 'tesSUCCESS',
        txIndex: 0,
      },
    ]);
  });
});
