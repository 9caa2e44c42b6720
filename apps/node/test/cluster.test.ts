/**
 * The cluster on one machine: every workload of the rendered dev overlay runs as its own process
 * with the command line and environment its manifests give — Service names mapped to 127.0.0.1,
 * container ports to free ports (consecutive ones kept consecutive, as -metrics_port offsets need),
 * volumes to directories, and the Secrets the manifests mount made by the test: a CA with one
 * certificate per service, the keystore passphrase and the JSON-RPC token. A workload counts as
 * up when its own readiness probe passes; the test's OTLP receiver stands in for the collector.
 * Then a jt_sendTransaction round trip, and a jt_getTransactionByHash whose trace crosses
 * facade → ledger-store over mutual TLS.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Wallet, xrpToDrops } from 'xrpl';
import {
  cliEntry,
  containerLaunch,
  freePortBlock,
  mountVolumes,
  onHost,
  OtlpReceiver,
  renderManifests,
  serviceCertificate,
  startProcess,
  stopAll,
  tempDir,
  testAuthority,
  waitUntil,
  workloadsOf,
  type RunningProcess,
  type Workload,
} from '@ledger-node/test-utils';

const run = promisify(execFile);
const genesisSecret = 'snoPBrXtMeMyMHUVTgbuqAfg1SUTb';
const genesisAddress = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const SERVICES = ['ledger-store', 'keystore', 'submission', 'sync', 'facade'] as const;
/** Flags whose value is a port the process listens on. */
const PORT_FLAGS = new Set(['rpcport', 'apiport', 'port', 'metrics_port']);

const objects = renderManifests('overlays/dev');
const workloads = workloadsOf(objects);
const kubeServices = objects.filter((object) => object.kind === 'Service');
/** The collector is the test's own receiver; every other workload runs the ledger-node image. */
const collector = workloads.find((workload) => workload.name === 'otel-collector')!;
const nodeWorkloads = workloads.filter((workload) => workload !== collector);

const passphrase = randomBytes(18).toString('base64');
const rpcToken = randomBytes(24).toString('hex');
const receiver = new OtlpReceiver();
/** Container port → the loopback port standing in for it (every container port of the overlay is distinct). */
const hostPorts = new Map<number, number>();
let root: { dir: string; remove: () => void };
const processes = new Map<string, RunningProcess>();
const mounts = new Map<string, Map<string, string>>();
let rpcPort: number;

const containerPorts = (workload: Workload): { name?: string; containerPort: number }[] => workload.pod.containers.flatMap((container: any) => container.ports ?? []);

function hostPort(containerPort: number): number {
  const port = hostPorts.get(containerPort);
  if (port === undefined) throw new Error(`container port ${containerPort} is declared by no workload`);
  return port;
}

/** The loopback port of `service:port`: the Service's target port on the pod it selects. */
function servicePort(serviceName: string, port: number): number {
  const service = kubeServices.find((each) => each.metadata.name === serviceName)!;
  const target = service.spec.ports.find((each: { port: number }) => each.port === port)?.targetPort ?? port;
  const selected = workloads.find((workload) => Object.entries(service.spec.selector as Record<string, string>).every(([key, value]) => workload.labels[key] === value));
  if (!selected) throw new Error(`the Service ${serviceName} selects no workload`);
  const containerPort = typeof target === 'number' ? target : containerPorts(selected).find((each) => each.name === target)?.containerPort;
  if (containerPort === undefined) throw new Error(`the Service ${serviceName} targets ${target}, which ${selected.name} does not declare`);
  return hostPort(containerPort);
}

/** `text` with each `<Service>[.namespace…]:port`, `0.0.0.0:port` and `127.0.0.1:port` turned into the loopback address standing in for it. */
function toLoopback(text: string): string {
  const names = kubeServices.map((service) => service.metadata.name).join('|');
  const address = new RegExp(`(?<![\\w.-])(0\\.0\\.0\\.0|127\\.0\\.0\\.1|localhost|(?:${names})(?:\\.ledger-node(?:\\.svc(?:\\.cluster\\.local)?)?)?):(\\d{1,5})(?!\\d)`, 'g');
  return text.replace(address, (_whole, host: string, port: string) => {
    const own = ['0.0.0.0', '127.0.0.1', 'localhost'].includes(host);
    return `127.0.0.1:${own ? hostPort(Number(port)) : servicePort(host.split('.')[0]!, Number(port))}`;
  });
}

/** A container argument as it runs here: ports, addresses and mounted paths mapped. */
function hostArg(arg: string, workloadMounts: ReadonlyMap<string, string>): string {
  const [, prefix = '', flag, value = arg] = /^(-{1,2}([A-Za-z_]+)=)?(.*)$/s.exec(arg)!;
  if (flag !== undefined && PORT_FLAGS.has(flag)) return `${prefix}${hostPort(Number(value))}`;
  if (value === '0.0.0.0') return `${prefix}127.0.0.1`;
  return onHost(`${prefix}${toLoopback(value)}`, workloadMounts);
}

/** The environment the process gets: the container's, mapped; nothing of this test's OTEL_* or LEDGER_NODE_* leaks in. */
function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.keys(process.env).filter((key) => /^(OTEL_|LEDGER_NODE_)/.test(key)).map((key) => [key, undefined]));
  return { ...inherited, ...Object.fromEntries(Object.entries(env).map(([key, value]) => [key, toLoopback(value)])) };
}

/** The Secrets the manifests mount, as an operator (or cert-manager) would create them. */
function secrets(dir: string): Record<string, Record<string, string>> {
  const authority = testAuthority('ledger-node-ca');
  mkdirSync(dir, { recursive: true });
  const made: Record<string, Record<string, string>> = {
    'keystore-passphrase': { passphrase: `${passphrase}\n` },
    'facade-rpc-token': { token: `${rpcToken}\n` },
  };
  for (const service of SERVICES) {
    const files = serviceCertificate(authority, service, dir);
    made[`${service}-tls`] = { 'tls.crt': readFileSync(files.cert, 'utf8'), 'tls.key': readFileSync(files.key, 'utf8'), 'ca.crt': readFileSync(files.ca, 'utf8') };
  }
  return made;
}

/** Waits until the workload's readiness probe passes, run as the kubelet would (exec in the pod, HTTP GET or TCP connect on its port). */
async function ready(workload: Workload): Promise<void> {
  const probe = workload.pod.containers[0].readinessProbe;
  const portOf = (port: number | string) => hostPort(typeof port === 'number' ? port : containerPorts(workload).find((each) => each.name === port)!.containerPort);
  const check = async (): Promise<boolean> => {
    if (probe.exec) {
      const [program, ...args] = probe.exec.command as string[];
      expect(program).toBe('ledger-node');
      const { env } = containerLaunch(objects, workload);
      await run(process.execPath, [cliEntry(), ...args.map((arg) => hostArg(arg, mounts.get(workload.name)!))], { env: { ...process.env, ...processEnv(env) }, timeout: 15_000 });
      return true;
    }
    if (probe.httpGet) return (await fetch(`http://127.0.0.1:${portOf(probe.httpGet.port)}${probe.httpGet.path}`)).status === 200;
    return new Promise((resolve) => {
      const socket = connect(portOf(probe.tcpSocket.port), '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  };
  await waitUntil(check, 120_000, `${workload.name}'s readiness probe`, 500).catch((error: Error) => {
    throw new Error(`${error.message}\n${workload.name} printed:\n${processes.get(workload.name)?.output().slice(-3000)}`);
  });
}

async function call(method: string, params: unknown[], token?: string): Promise<Record<string, any>> {
  const response = await fetch(`http://127.0.0.1:${rpcPort}/v1/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  return (await response.json()) as Record<string, any>;
}

beforeAll(async () => {
  root = tempDir('cluster-');
  // Consecutive container ports (50051-50054, 9400-9404…) get consecutive loopback ports.
  const declared = [...new Set(workloads.flatMap((workload) => containerPorts(workload).map((port) => port.containerPort)))].sort((a, b) => a - b);
  expect(declared.length, 'every container port of the overlay is distinct').toBe(workloads.flatMap(containerPorts).length);
  for (let start = 0; start < declared.length; ) {
    let end = start;
    while (end + 1 < declared.length && declared[end + 1] === declared[end]! + 1) end++;
    const base = await freePortBlock(end - start + 1);
    for (let index = start; index <= end; index++) hostPorts.set(declared[index]!, base + index - start);
    start = end + 1;
  }
  rpcPort = hostPort(7545);
  await receiver.listen(servicePort('otel-collector', 4318));

  const made = secrets(path.join(root.dir, 'issued'));
  for (const workload of nodeWorkloads) {
    const workloadMounts = mountVolumes(objects, workload, path.join(root.dir, 'volumes'), made);
    mounts.set(workload.name, workloadMounts);
    const { args, env } = containerLaunch(objects, workload);
    const cwd = path.join(root.dir, 'volumes', workload.name);
    processes.set(workload.name, startProcess([cliEntry(), ...args.map((arg) => hostArg(arg, workloadMounts))], { env: processEnv(env), cwd }));
  }
  for (const workload of nodeWorkloads) await ready(workload);
}, 300_000);

afterAll(async () => {
  await stopAll();
  await receiver.close();
  root?.remove();
});

describe('the dev overlay as processes on one machine', () => {
  let alice: string;
  let sentHash: string;

  it('runs each workload from its manifest, the keystore alone holding the passphrase', () => {
    expect([...processes.keys()].sort()).toEqual(['devnet', ...SERVICES].sort());
    for (const [name, running] of processes) {
      const commandLine = readFileSync(`/proc/${running.pid}/cmdline`, 'utf8');
      expect(commandLine.includes('password_file'), name).toBe(name === 'keystore');
      expect(readFileSync(`/proc/${running.pid}/environ`, 'utf8').includes(passphrase), name).toBe(false);
    }
  });

  it('refuses a gRPC caller without the deployment\'s certificate on a TCP hop', async () => {
    const store = workloads.find((workload) => workload.name === 'ledger-store')!;
    const address = `127.0.0.1:${hostPort(containerPorts(store).find((port) => port.name === 'grpc')!.containerPort)}`;
    const plain = await run(process.execPath, [cliEntry(), 'probe', 'ledger-store', `-ledger_store_addr=${address}`]).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    expect(plain).toBe(1);
  });

  it('creates an account in the keystore\'s pod (kubectl exec) and funds it on the devnet', async () => {
    const keystore = workloads.find((workload) => workload.name === 'keystore')!;
    const keystoreMounts = mounts.get('keystore')!;
    // kubectl exec keystore-0 -- ledger-node account generate -data_dir /data -password_file /secrets/passphrase/passphrase -nickname alice -json
    const command = ['account', 'generate', '-data_dir=/data', '-password_file=/secrets/passphrase/passphrase', '-nickname=alice', '-json'];
    const { stdout } = await run(process.execPath, [cliEntry(), ...command.map((arg) => onHost(arg, keystoreMounts))], {
      env: { ...process.env, ...processEnv(containerLaunch(objects, keystore).env) },
    });
    alice = JSON.parse(stdout).address;
    expect(alice).toMatch(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/);

    const client = new Client(`ws://127.0.0.1:${servicePort('devnet', 6006)}`);
    await client.connect();
    try {
      const genesis = Wallet.fromSeed(genesisSecret);
      const funded = await client.submitAndWait({ TransactionType: 'Payment', Account: genesis.address, Destination: alice, Amount: xrpToDrops(1_000) }, { wallet: genesis });
      expect((funded.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    } finally {
      await client.disconnect();
    }
  }, 120_000);

  it('sends a payment through the facade (with the token), signed by the keystore, submitted by submission, stored by sync', async () => {
    const payment = { from: 'alice', to: genesisAddress, value: '1000000' };
    const withoutToken = await call('jt_sendTransaction', [payment]);
    expect(withoutToken.status, JSON.stringify(withoutToken)).toBe('error');
    const sent = await call('jt_sendTransaction', [payment], rpcToken);
    expect(sent.status, JSON.stringify(sent)).toBe('success');
    sentHash = sent.result[0];
    expect(sentHash).toMatch(/^[0-9A-F]{64}$/);
    const receipt = await waitUntil(async () => (await call('jt_getTransactionReceipt', [sentHash])).result, 90_000, 'the receipt of the payment', 500);
    expect(receipt.TransactionResult ?? receipt.meta?.TransactionResult).toBe('tesSUCCESS');
  }, 120_000);

  it('traces jt_getBlockByNumber from the facade into ledger-store, one trace across the mutual-TLS hop', async () => {
    const { ledger_index: ledgerIndex } = (await call('jt_getTransactionByHash', [sentHash])).result;
    const answer = await call('jt_getBlockByNumber', [String(ledgerIndex), false]);
    expect(answer.result?.ledger.transactions, JSON.stringify(answer)).toContain(sentHash);
    const trace = await receiver.traceOf('jt_getBlockByNumber', ['ledger-node-facade', 'ledger-node-ledger-store'], 30_000);
    const server = trace.find((span) => span.service === 'ledger-node-ledger-store' && span.kind === 2)!;
    const client = trace.find((span) => span.spanId === server.parentSpanId)!;
    expect(client.service).toBe('ledger-node-facade');
    expect(client.kind).toBe(3);
    expect(server.name).toMatch(/LedgerStoreService\/GetLedger/);
  }, 60_000);
});
