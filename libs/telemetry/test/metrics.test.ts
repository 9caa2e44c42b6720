/**
 * Prometheus metrics and health probes on real processes: `ledger-node -dev -rpc -api -ws -metrics_port B`
 * serves /metrics on B + each service's offset, and the facade answers /metrics, /healthz and
 * /readyz on its JSON-RPC listener. The Grafana dashboard in deploy/grafana is checked against the
 * metrics these processes expose once they have synced and answered calls (JSON-RPC, REST and
 * rippled's API, a stream subscription resumed among them).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHealth } from '@ledger-node/grpc';
import { cliEntry, freePort, rpcClient, startProcess, stopAll, tempDir, waitUntil, workspaceRoot, WsClient, type RunningProcess } from '@ledger-node/test-utils';
import { dashboardProblems, dashboardQueries, readExposition } from './support/grafana-dashboard';

let dir: string;
let removeDir: () => void;
let node: RunningProcess;
let rpcPort: number;
let apiPort: number;
/** rippled's API (-ws): WebSocket and HTTP JSON-RPC. */
let wsPort: number;
/** A rippled API client subscribed to the ledger stream (resumed from a ledger) while the dashboard is checked. */
let subscriber: WsClient | undefined;
/** JSON-RPC to the node's facade, once its port is chosen. */
let call: ReturnType<typeof rpcClient>;
let metricsBase: number;
let ledgerStorePid: number;

/** Offsets documented by -metrics_port. */
const offsets = { 'ledger-store': 0, keystore: 1, submission: 2, sync: 3, facade: 4 } as const;

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A base port with the four ports above it free as well. */
async function freePortRange(count: number): Promise<number> {
  for (;;) {
    const base = await freePort();
    if (base + count > 65_535) continue;
    const free = await Promise.all(Array.from({ length: count - 1 }, (_, i) => portIsFree(base + i + 1)));
    if (free.every(Boolean)) return base;
  }
}

async function scrape(service: keyof typeof offsets): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsBase + offsets[service]}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample, by metric name and exact label set (`a="x",b="y"`, in any order). */
function sample(text: string, name: string, labels: string): number | undefined {
  const labelSet = (list: string) => list.split(',').sort().join(',');
  const wanted = labelSet(labels);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (match && match[1] === name && labelSet(match[2]!) === wanted) return Number(match[3]);
  }
  return undefined;
}

beforeAll(async () => {
  ({ dir, remove: removeDir } = tempDir('metrics-'));
  rpcPort = await freePort();
  apiPort = await freePort();
  wsPort = await freePort();
  call = rpcClient(rpcPort);
  metricsBase = await freePortRange(5);
  node = startProcess([
    cliEntry(), '-dev', '-close_ms', '300', '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort),
    '-api', '-apiaddr', '127.0.0.1', '-apiport', String(apiPort), '-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort), '-data_dir', dir,
    '-thread_count', '2', '-metrics_addr', '127.0.0.1', '-metrics_port', String(metricsBase), '-slow_ms', '0', '-listener_metrics',
  ]);
  ledgerStorePid = Number((await node.waitFor(/ledger-store\s+ready\s+pid (\d+)/, 60_000))[1]);
  await node.waitFor(/facade\s+ready/, 60_000);
  // Synced: a few ledgers stored.
  await waitUntil(async () => (await call('jt_blockNumber')).result > 2, 20_000, 'a stored ledger', 250);
}, 120_000);

afterAll(async () => {
  subscriber?.terminate();
  if (ledgerStorePid) process.kill(ledgerStorePid, 'SIGCONT');
  await stopAll();
  removeDir?.();
});

describe('JSON-RPC metrics on the facade', () => {
  it('counts and times each call by method and outcome, on the JSON-RPC listener and on its metrics port', async () => {
    const before = sample(await scrape('facade'), 'ledger_node_jsonrpc_requests_total', 'method="jt_getBlockByNumber",outcome="success",ledger_node_service="facade"') ?? 0;
    for (let i = 0; i < 3; i++) expect((await call('jt_getBlockByNumber', ['latest', false])).status).toBe('success');
    expect((await call('jt_getBlockByNumber', ['not a block'])).status).toBe('error');
    expect((await call('jt_noSuchMethod')).error.code).toBe(-32601);

    for (const text of [await scrape('facade'), await (await fetch(`http://127.0.0.1:${rpcPort}/metrics`)).text()]) {
      expect(sample(text, 'ledger_node_jsonrpc_requests_total', 'method="jt_getBlockByNumber",outcome="success",ledger_node_service="facade"')).toBe(before + 3);
      expect(sample(text, 'ledger_node_jsonrpc_requests_total', 'method="jt_getBlockByNumber",outcome="invalidParams",ledger_node_service="facade"')).toBe(1);
      expect(sample(text, 'ledger_node_jsonrpc_requests_total', 'method="unknown",outcome="methodNotFound",ledger_node_service="facade"')).toBe(1);
      expect(sample(text, 'ledger_node_jsonrpc_request_duration_seconds_count', 'method="jt_getBlockByNumber",outcome="success",ledger_node_service="facade"')).toBe(before + 3);
      expect(sample(text, 'ledger_node_jsonrpc_request_duration_seconds_bucket', 'le="+Inf",method="jt_getBlockByNumber",outcome="success",ledger_node_service="facade"')).toBe(before + 3);
      // The facade's side of the gRPC calls those JSON-RPC calls made.
      expect(sample(text, 'grpc_client_handling_seconds_count', 'grpc_service="ledgernode.ledgerstore.v1.LedgerStoreService",grpc_method="GetLedger",grpc_code="OK",ledger_node_service="facade"')).toBeGreaterThanOrEqual(3);
    }
  });

  it('logs every call slower than -slow_ms (0 here) with its method and duration', () => {
    const slow = node
      .output()
      .split('\n')
      .filter((line) => line.includes('slow JSON-RPC call: jt_getBlockByNumber'))
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>);
    expect(slow.length).toBeGreaterThanOrEqual(4);
    expect(slow[0]).toMatchObject({ level: 'warn', service: 'facade', method: 'jt_getBlockByNumber' });
    expect(typeof slow[0]!.durationMs).toBe('number');
  });
});

describe('service metrics', () => {
  it('ledger-store: database size, stored ledgers, ledgers written and its gRPC server latency', async () => {
    const text = await scrape('ledger-store');
    expect(sample(text, 'ledger_node_store_db_size_bytes', 'ledger_node_service="ledger-store"')).toBeGreaterThan(0);
    expect(sample(text, 'ledger_node_store_ledgers', 'ledger_node_service="ledger-store"')).toBeGreaterThan(2);
    expect(sample(text, 'ledger_node_store_ledgers_written_total', 'position="tip",ledger_node_service="ledger-store"')).toBeGreaterThan(2);
    expect(sample(text, 'grpc_server_handling_seconds_count', 'grpc_service="ledgernode.ledgerstore.v1.LedgerStoreService",grpc_method="GetLedger",grpc_code="OK",ledger_node_service="ledger-store"')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'process_resident_memory_bytes', 'ledger_node_service="ledger-store"')).toBeGreaterThan(0);
  });

  it('sync: lag, ledgers stored by source as a counter (no precomputed rates), backfill progress and verification failures', async () => {
    const text = await waitUntil(
      async () => {
        const scraped = await scrape('sync');
        return (sample(scraped, 'ledger_node_sync_ledgers_stored_total', 'source="live",ledger_node_service="sync"') ?? 0) > 0 ? scraped : undefined;
      },
      20_000,
      'a ledger followed live',
      250,
    );
    expect(sample(text, 'ledger_node_sync_lag_ledgers', 'ledger_node_service="sync"')).toBeLessThanOrEqual(2);
    expect(sample(text, 'ledger_node_sync_upstream_connected', 'ledger_node_service="sync"')).toBe(1);
    expect(sample(text, 'ledger_node_sync_current_ledger_index', 'ledger_node_service="sync"')).toBeGreaterThan(2);
    expect(sample(text, 'ledger_node_sync_stored_ledgers', 'ledger_node_service="sync"')).toBeGreaterThan(2);
    // Ledgers stored, live and backfill apart, as a counter Prometheus computes rates from; the rates and the ETA it computed itself are gone.
    expect(text).toContain('# TYPE ledger_node_sync_ledgers_stored_total counter');
    expect(sample(text, 'ledger_node_sync_ledgers_stored_total', 'source="backfill",ledger_node_service="sync"')).toBeGreaterThanOrEqual(0);
    for (const gone of ['ledger_node_sync_ledgers_per_second', 'ledger_node_sync_backfill_ledgers_per_second', 'ledger_node_sync_backfill_eta_seconds']) {
      expect(text).not.toContain(`# TYPE ${gone} `);
    }
    // Verification failures: a counter by reason, with no series while nothing was refused.
    expect(text).toContain('# TYPE ledger_node_sync_verification_failures_total counter');
    expect(text).not.toMatch(/^ledger_node_sync_verification_failures_total\{/m);
    expect(text).not.toContain('# TYPE ledger_node_sync_verification_failures gauge');
    expect(sample(text, 'ledger_node_sync_index_failures_total', 'ledger_node_service="sync"')).toBe(0);
    expect(sample(text, 'ledger_node_sync_backfill_remaining_ledgers', 'ledger_node_service="sync"')).toBe(0);
    expect(sample(text, 'grpc_client_handling_seconds_count', 'grpc_service="ledgernode.ledgerstore.v1.LedgerStoreService",grpc_method="PutLedgers",grpc_code="OK",ledger_node_service="sync"')).toBeGreaterThan(0);
  });

  it('submission: pending submissions; keystore: its runtime metrics', async () => {
    expect(sample(await scrape('submission'), 'ledger_node_submission_pending', 'ledger_node_service="submission"')).toBe(0);
    expect(sample(await scrape('keystore'), 'process_resident_memory_bytes', 'ledger_node_service="keystore"')).toBeGreaterThan(0);
  });
});

describe('REST metrics on the facade', () => {
  it('counts and times each request by route template, HTTP method and status, never by the path asked for', async () => {
    const rest = (path: string) => fetch(`http://127.0.0.1:${apiPort}${path}`).then((response) => response.status);
    expect(await rest('/v1/ledgers/2')).toBe(200);
    expect(await rest('/v1/ledgers/3')).toBe(200);
    expect(await rest('/v1/ledgers/not-a-ledger')).toBe(400);
    expect(await rest('/v1/status')).toBe(200);
    expect(await rest('/v1/no/such/route')).toBe(404);

    const text = await scrape('facade');
    const series = (route: string, status: number) => `method="GET",route="${route}",status="${status}",ledger_node_service="facade"`;
    expect(sample(text, 'ledger_node_rest_requests_total', series('/v1/ledgers/{ledger}', 200))).toBe(2);
    expect(sample(text, 'ledger_node_rest_requests_total', series('/v1/ledgers/{ledger}', 400))).toBe(1);
    expect(sample(text, 'ledger_node_rest_requests_total', series('/v1/status', 200))).toBe(1);
    expect(sample(text, 'ledger_node_rest_requests_total', series('other', 404))).toBe(1);
    expect(sample(text, 'ledger_node_rest_request_duration_seconds_count', series('/v1/ledgers/{ledger}', 200))).toBe(2);
    expect(sample(text, 'ledger_node_rest_request_duration_seconds_bucket', `le="+Inf",${series('/v1/ledgers/{ledger}', 400)}`)).toBe(1);
    expect(text).not.toContain('/v1/ledgers/2');
  });
});

describe("rippled API and stream metrics on the facade", () => {
  it('counts and times each rippled command by command, outcome and transport; an unknown command as unknown', async () => {
    const series = (command: string, outcome: string, transport: string) => `command="${command}",outcome="${outcome}",transport="${transport}",ledger_node_service="facade"`;
    const before = sample(await scrape('facade'), 'ledger_node_rippled_requests_total', series('server_info', 'success', 'http')) ?? 0;
    const post = async (body: unknown) => (await fetch(`http://127.0.0.1:${wsPort}/`, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<Record<string, any>>;
    expect((await post({ method: 'server_info', params: [{}] })).result.status).toBe('success');
    expect((await post({ method: 'ledger', params: [{ ledger_index: 'not a ledger' }] })).result.status).toBe('error');
    expect((await post({ method: 'no_such_command_xyz', params: [{}] })).result.error).toBe('unknownCmd');
    const client = await WsClient.open(`ws://127.0.0.1:${wsPort}/`);
    try {
      expect((await client.request({ command: 'server_info' })).status).toBe('success');
    } finally {
      client.terminate();
    }

    const text = await scrape('facade');
    expect(sample(text, 'ledger_node_rippled_requests_total', series('server_info', 'success', 'http'))).toBe(before + 1);
    expect(sample(text, 'ledger_node_rippled_requests_total', series('server_info', 'success', 'ws'))).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'ledger_node_rippled_requests_total', series('unknown', 'unknownCmd', 'http'))).toBe(1);
    expect(text).not.toContain('no_such_command_xyz');
    expect(text).toMatch(/^ledger_node_rippled_requests_total\{command="ledger",outcome="(?!success)[^"]+",transport="http"/m);
    expect(sample(text, 'ledger_node_rippled_request_duration_seconds_count', series('server_info', 'success', 'http'))).toBe(before + 1);
  });

  it('says the stream subscribers by stream, what waits unsent, what was dropped, and resumes by API', async () => {
    const newest = (await call('jt_blockNumber')).result as number;
    subscriber = await WsClient.open(`ws://127.0.0.1:${wsPort}/`);
    const answer = await subscriber.request({ command: 'subscribe', streams: ['ledger'], from_ledger: newest - 1 });
    expect(answer.status).toBe('success');
    // The resumed feed catches up, then follows: the next ledgerClosed arrives.
    await subscriber.waitFor((message) => message.type === 'ledgerClosed', 20_000);
    const text = await scrape('facade');
    expect(sample(text, 'ledger_node_stream_subscribers', 'api="rippled",stream="ledger",ledger_node_service="facade"')).toBe(1);
    expect(sample(text, 'ledger_node_stream_connections', 'api="rippled",ledger_node_service="facade"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'ledger_node_stream_resumes_total', 'api="rippled",ledger_node_service="facade"')).toBe(1);
    expect(sample(text, 'ledger_node_stream_resumes_total', 'api="jsonrpc",ledger_node_service="facade"')).toBe(0);
    expect(sample(text, 'ledger_node_stream_messages_total', 'api="rippled",ledger_node_service="facade"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'ledger_node_stream_queued_messages', 'api="rippled",ledger_node_service="facade"')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'ledger_node_stream_queued_bytes', 'api="jsonrpc",ledger_node_service="facade"')).toBe(0);
    expect(sample(text, 'ledger_node_stream_dropped_messages_total', 'api="rippled",ledger_node_service="facade"')).toBe(0);
    expect(sample(text, 'ledger_node_stream_slow_disconnects_total', 'api="rippled",ledger_node_service="facade"')).toBe(0);
  });
});

describe('labels', () => {
  it('name the service ledger_node_service on every sample of every service, never service (Prometheus Operator sets that one)', async () => {
    for (const service of Object.keys(offsets) as (keyof typeof offsets)[]) {
      const samples = (await scrape(service)).split('\n').filter((line) => line !== '' && !line.startsWith('#'));
      expect(samples.length).toBeGreaterThan(10);
      for (const line of samples) expect(line, service).toContain(`ledger_node_service="${service}"`);
      for (const line of samples) expect(line, service).not.toMatch(/[{,]service="/);
    }
  });
});

describe('the Grafana dashboard (deploy/grafana/ledger-node.json)', () => {
  const dashboard = JSON.parse(readFileSync(path.join(workspaceRoot(), 'deploy/grafana/ledger-node.json'), 'utf8')) as Parameters<typeof dashboardProblems>[0];

  // The metrics that exist are those every service's /metrics names (its `# TYPE` lines, samples or
  // not) on this node, once it has synced and answered JSON-RPC, REST and rippled API calls with a
  // stream subscribed; labels are checked on the metrics that have samples.
  it('reads only metrics and labels that the services expose', async () => {
    // A JSON-RPC call and a REST request of its own, so that their series have samples (and labels) to check.
    expect((await call('jt_blockNumber')).status).toBe('success');
    expect((await fetch(`http://127.0.0.1:${apiPort}/v1/status`)).status).toBe(200);
    const post = await fetch(`http://127.0.0.1:${wsPort}/`, { method: 'POST', body: JSON.stringify({ method: 'ledger_closed', params: [{}] }) });
    expect(((await post.json()) as Record<string, any>).result.status).toBe('success');
    const exposition = readExposition(await Promise.all((Object.keys(offsets) as (keyof typeof offsets)[]).map(scrape)));
    expect(dashboardQueries(dashboard).length).toBeGreaterThan(30);
    // The rippled API and stream panels read series that have samples here, so their labels are checked too.
    for (const metric of ['ledger_node_rippled_requests_total', 'ledger_node_rippled_request_duration_seconds_bucket', 'ledger_node_stream_subscribers', 'ledger_node_stream_resumes_total', 'ledger_node_stream_queued_messages', 'ledger_node_sync_ledgers_stored_total']) {
      expect(exposition.labels.get(metric), metric).toBeDefined();
    }
    expect(dashboardProblems(dashboard, exposition)).toEqual([]);
  });

  it('would be refused for a panel naming a metric, or a label, that no service exposes', async () => {
    const exposition = readExposition(await Promise.all((Object.keys(offsets) as (keyof typeof offsets)[]).map(scrape)));
    const doctored = {
      ...dashboard,
      panels: [
        ...(dashboard.panels ?? []),
        { title: 'Made up', targets: [{ expr: 'rate(ledger_node_sync_made_up_total[$__rate_interval])' }, { expr: 'sum by (service) (ledger_node_ready)' }] },
      ],
    };
    expect(dashboardProblems(doctored, exposition)).toEqual([
      'panel "Made up": no service exposes ledger_node_sync_made_up_total',
      'panel "Made up": no label service on ledger_node_ready',
    ]);
  });
});

describe('health and readiness', () => {
  const readyz = async () => {
    const response = await fetch(`http://127.0.0.1:${rpcPort}/readyz`);
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const submissionSocket = () => `unix:${path.join(dir, 'run', 'submission.sock')}`;

  it('/healthz answers while the process runs; /readyz is 200 with every dependency ok', async () => {
    const health = await fetch(`http://127.0.0.1:${rpcPort}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'up' });
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', checks: { 'ledger-store': { ok: true }, sync: { ok: true } } });
    expect(await checkHealth(submissionSocket())).toBe('SERVING');
    for (const service of Object.keys(offsets) as (keyof typeof offsets)[]) {
      expect(sample(await scrape(service), 'ledger_node_ready', `ledger_node_service="${service}"`), service).toBe(1);
    }
  });

  it('/readyz is 503 naming the ledger-store while it is stopped, and 200 again once it runs', async () => {
    process.kill(ledgerStorePid, 'SIGSTOP');
    try {
      const { status, body } = await readyz();
      expect(status).toBe(503);
      expect(body.status).toBe('not ready');
      expect(body.checks['ledger-store']).toMatchObject({ ok: false, reason: expect.stringMatching(/ledger-store unavailable/) });
      // The submission service's gRPC health follows its dependencies.
      await waitUntil(async () => (await checkHealth(submissionSocket())) === 'NOT_SERVING', 20_000, 'submission NOT_SERVING', 250);
      // ledger_node_ready says the same: the facade's as /readyz does, the submission's as its gRPC health does.
      expect(sample(await scrape('facade'), 'ledger_node_ready', 'ledger_node_service="facade"')).toBe(0);
      expect(sample(await scrape('submission'), 'ledger_node_ready', 'ledger_node_service="submission"')).toBe(0);
    } finally {
      process.kill(ledgerStorePid, 'SIGCONT');
    }
    await waitUntil(async () => (await readyz()).status === 200, 20_000, 'ready again', 250);
    await waitUntil(async () => (await checkHealth(submissionSocket())) === 'SERVING', 20_000, 'submission SERVING', 250);
    expect(sample(await scrape('facade'), 'ledger_node_ready', 'ledger_node_service="facade"')).toBe(1);
    expect(sample(await scrape('submission'), 'ledger_node_ready', 'ledger_node_service="submission"')).toBe(1);
  }, 60_000);
});
