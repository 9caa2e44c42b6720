/**
 * OpenTelemetry across real processes: `ledger-node -dev -rpc` exports its spans by OTLP/HTTP
 * (JSON) to a receiver in this test, configured only by the standard OTEL_* variables.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deriveKeypair } from 'ripple-keypairs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Wallet, xrpToDrops } from 'xrpl';
import { cliEntry, decryptKeyFile, freePort, OtlpReceiver, rpcClient, startProcess, stopAll, tempDir, waitUntil, type CollectedSpan, type RunningProcess } from '@ledger-node/test-utils';

const passphrase = 'traces test passphrase';
const genesisSecret = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
const genesisAddress = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

/** The collector the node exports to, and the spans it received. */
const receiver = new OtlpReceiver();
const { spans, jsonBodies: exports } = receiver;
const traceOf = receiver.traceOf.bind(receiver);
let dir: string;
let removeDir: () => void;
let node: RunningProcess;
let rpcPort: number;
/** JSON-RPC to the node's facade, once its port is chosen. */
let call: ReturnType<typeof rpcClient>;
let alice: string;
/** The payment that funded alice: a stored transaction to read back. */
let fundingHash: string;

function generate(nickname: string): string {
  const result = spawnSync(process.execPath, [cliEntry(), 'account', 'generate', '-nickname', nickname, '-data_dir', dir, '-json'], {
    env: { ...process.env, LEDGER_NODE_PASSWORD: passphrase },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout).address as string;
}

beforeAll(async () => {
  const collectorUrl = await receiver.listen(await freePort());

  ({ dir, remove: removeDir } = tempDir('traces-'));
  alice = generate('alice');
  writeFileSync(path.join(dir, 'password'), `${passphrase}\n`, { mode: 0o600 });
  rpcPort = await freePort();
  call = rpcClient(rpcPort);
  node = startProcess(
    [
      cliEntry(), '-dev', '-close_ms', '300', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
      '-data_dir', dir, '-password_file', path.join(dir, 'password'), '-thread_count', '2', '-slow_ms', '1',
      // Reads traced into the ledger-store, not answered from the answers rendered ahead.
      '-hot_set_mb', '0',
    ],
    {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    },
  );
  const devnetUrl = (await node.waitFor(/devnet\s+ready\s+pid \d+\s+(ws:\/\/\S+)/, 60_000))[1]!;
  await node.waitFor(/facade\s+ready/, 60_000);
  const client = new Client(devnetUrl);
  await client.connect();
  try {
    const genesis = Wallet.fromSeed(genesisSecret);
    const funded = await client.submitAndWait({ TransactionType: 'Payment', Account: genesis.address, Destination: alice, Amount: xrpToDrops(1_000) }, { wallet: genesis });
    expect((funded.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    fundingHash = funded.result.hash;
  } finally {
    await client.disconnect();
  }
}, 120_000);

afterAll(async () => {
  await stopAll();
  await receiver.close();
  removeDir?.();
});

describe('one jt_sendTransaction is one trace across the processes', () => {
  let trace: CollectedSpan[];

  beforeAll(async () => {
    const answer = await call('jt_sendTransaction', [{ from: 'alice', to: genesisAddress, value: '1000000' }]);
    expect(answer.status, JSON.stringify(answer)).toBe('success');
    expect(answer.result[0]).toMatch(/^[0-9A-F]{64}$/);
    trace = await traceOf('jt_sendTransaction', ['ledger-node-facade', 'ledger-node-submission', 'ledger-node-keystore', 'ledger-node-ledger-store']);
    if (process.env.SHOW_TRACE) console.log(trace.map((span) => `${span.service} ${span.scope} ${span.name} ${JSON.stringify(span.attributes)}`).join('\n'));
  }, 60_000);

  it('holds spans of the facade, the submission service, the keystore and the ledger-store, named by service.name', () => {
    expect(new Set(trace.map((span) => span.service))).toEqual(new Set(['ledger-node-facade', 'ledger-node-submission', 'ledger-node-keystore', 'ledger-node-ledger-store']));
  });

  it('has one root, and every other span has its parent in the trace', () => {
    const ids = new Set(trace.map((span) => span.spanId));
    const roots = trace.filter((span) => span.parentSpanId === '');
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ service: 'ledger-node-facade', scope: 'ledger-node', name: 'jsonrpc jt_sendTransaction', kind: 2 });
    for (const span of trace) if (span.parentSpanId !== '') expect(ids.has(span.parentSpanId), `${span.service} ${span.name}`).toBe(true);
  });

  it('has no span per Koa middleware in the facade: a request of one call is one span, the request\'s and the call\'s', () => {
    const facade = trace.filter((span) => span.service === 'ledger-node-facade' && span.kind !== 3);
    expect(facade.map((span) => `${span.scope} ${span.name} ${span.kind}`)).toEqual(['ledger-node jsonrpc jt_sendTransaction 2']);
    expect(facade[0]!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/jsonrpc', 'http.response.status_code': 200 });
  });

  it('names the JSON-RPC call and every gRPC hop with rpc.method, client spans parenting server spans across processes', () => {
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const jsonRpc = trace.find((span) => span.name === 'jsonrpc jt_sendTransaction')!;
    expect(jsonRpc.attributes).toMatchObject({ 'rpc.system': 'jsonrpc', 'rpc.method': 'jt_sendTransaction' });
    const grpc = trace.filter((span) => span.scope === '@opentelemetry/instrumentation-grpc');
    // SpanKind: 2 = SERVER, 3 = CLIENT (OTLP numbering).
    const hops = grpc.map((span) => `${span.service} ${span.kind === 3 ? 'client' : 'server'} ${span.attributes['rpc.service']}/${span.attributes['rpc.method']}`);
    expect(new Set(hops)).toEqual(
      new Set([
        'ledger-node-facade client ledgernode.submission.v1.SubmissionService/SendPayment',
        'ledger-node-submission server ledgernode.submission.v1.SubmissionService/SendPayment',
        'ledger-node-submission client ledgernode.keystore.v1.KeystoreService/ListAccounts',
        'ledger-node-keystore server ledgernode.keystore.v1.KeystoreService/ListAccounts',
        'ledger-node-submission client ledgernode.keystore.v1.KeystoreService/SignTransaction',
        'ledger-node-keystore server ledgernode.keystore.v1.KeystoreService/SignTransaction',
        'ledger-node-submission client ledgernode.ledgerstore.v1.LedgerStoreService/GetStatus',
        'ledger-node-ledger-store server ledgernode.ledgerstore.v1.LedgerStoreService/GetStatus',
      ]),
    );
    for (const server of grpc.filter((span) => span.kind === 2)) {
      const parent = byId.get(server.parentSpanId)!;
      expect(parent).toMatchObject({ kind: 3, attributes: { 'rpc.method': server.attributes['rpc.method'] } });
      expect(parent.service).not.toBe(server.service);
    }
    const sendClient = grpc.find((span) => span.kind === 3 && span.attributes['rpc.method'] === 'SendPayment')!;
    expect(sendClient.parentSpanId).toBe(jsonRpc.spanId);
  });

  it('carries no seed, private key or passphrase in any exported attribute', () => {
    const seed = decryptKeyFile(path.join(dir, 'keystore', readdirSync(path.join(dir, 'keystore')).find((file) => file.startsWith(alice))!), passphrase);
    expect(seed).toMatch(/^s/);
    const { privateKey } = deriveKeypair(seed);
    const everything = exports.join('\n');
    expect(everything).toContain('jt_sendTransaction');
    for (const secret of [seed, privateKey, privateKey.slice(2), passphrase]) expect(everything.toUpperCase()).not.toContain(secret.toUpperCase());
  });

  it('logs the call as slow (-slow_ms 1) with its method, duration and trace id', () => {
    const lines = node
      .output()
      .split('\n')
      .filter((line) => line.includes('"slow JSON-RPC call') || line.includes('slow JSON-RPC call'))
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>);
    const slow = lines.find((line) => line.method === 'jt_sendTransaction');
    expect(slow).toMatchObject({ service: 'facade', level: 'warn', trace_id: trace[0]!.traceId });
    expect(slow!.durationMs).toBeGreaterThanOrEqual(1);
  });
});

describe('a read is one trace from the facade into the ledger-store', () => {
  it('jt_getBlockByNumber carries the trace context over gRPC into the ledger-store', async () => {
    const answer = await call('jt_getBlockByNumber', ['latest', false]);
    expect(answer.status, JSON.stringify(answer)).toBe('success');
    const trace = await traceOf('jt_getBlockByNumber', ['ledger-node-facade', 'ledger-node-ledger-store']);
    const server = trace.find((span) => span.service === 'ledger-node-ledger-store' && span.kind === 2)!;
    expect(server.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.service': 'ledgernode.ledgerstore.v1.LedgerStoreService' });
    const ids = new Set(trace.map((span) => span.spanId));
    expect(trace.filter((span) => !ids.has(span.parentSpanId))).toHaveLength(1);
  });
});

describe('a trace begun in front of the node', () => {
  it('continues through the facade when the request carries a W3C traceparent', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'jt_blockNumber', params: [] }),
    });
    expect(response.status).toBe(200);
    const request = await waitUntil(() => spans.find((span) => span.traceId === traceId && span.kind === 2), 20_000, 'the request span of the caller-begun trace');
    expect(request).toMatchObject({ service: 'ledger-node-facade', name: 'jsonrpc jt_blockNumber', parentSpanId: callerSpanId, attributes: { 'http.route': '/v1/jsonrpc' } });
  });
});

describe('reads gathered into one ledger-store call stay traceable', () => {
  it("a JSON-RPC batch's lookups run in one span, child of the first call's span and linked to the others', into the ledger-store", async () => {
    await waitUntil(async () => (await call('jt_getTransactionReceipt', [fundingHash])).result, 30_000, 'the funding payment stored');
    const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'jt_getTransactionByHash', params: [fundingHash] }))),
    });
    expect(((await response.json()) as { result: { hash: string } }[]).map((answer) => answer.result.hash)).toEqual([fundingHash, fundingHash, fundingHash]);
    const { gathered, calls, server } = await waitUntil(
      () => {
        // The receipt waited for above made a gathered read of its own, of one lookup.
        const gathered = spans.find((span) => span.name === 'ledger-store GetTransactions' && span.attributes['batch.size'] === 3);
        const calls = spans.filter((span) => span.name === 'jsonrpc jt_getTransactionByHash' && span.traceId === gathered?.traceId);
        const client = spans.find((span) => span.kind === 3 && span.parentSpanId === gathered?.spanId);
        const server = spans.find((span) => span.service === 'ledger-node-ledger-store' && span.kind === 2 && span.parentSpanId === client?.spanId);
        return gathered && calls.length === 3 && server ? { gathered, calls, server } : undefined;
      },
      20_000,
      'the spans of the batch',
    );
    const parent = calls.find((span) => span.spanId === gathered.parentSpanId);
    expect(parent).toBeDefined();
    // A batch's request span keeps its route's name; each of its calls has a span of its own below it.
    const request = spans.find((span) => span.spanId === parent!.parentSpanId);
    expect(request).toMatchObject({ name: 'POST /v1/jsonrpc', kind: 2 });
    expect(calls.every((span) => span.parentSpanId === request!.spanId && span.kind === 1)).toBe(true);
    expect(new Set(gathered.links)).toEqual(new Set(calls.filter((span) => span !== parent).map((span) => span.spanId)));
    expect(server.attributes).toMatchObject({ 'rpc.service': 'ledgernode.ledgerstore.v1.LedgerStoreService', 'rpc.method': 'GetTransactions' });
  });
});
