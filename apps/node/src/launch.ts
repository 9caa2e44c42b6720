/**
 * The CLI's start-up, the same from the sources (bin/ledger-node-sources.js, through tsx) and from the
 * bundle (`npm run build`, whose entry point this is): V8's compile cache and heap growth, then
 * OpenTelemetry, then the CLI. Everything after the first line is imported dynamically so that @grpc/grpc-js is
 * first imported once its instrumentation hook is registered; in the bundle each dynamic import
 * is a chunk of its own, loaded in this order.
 */
import { setFlagsFromString } from 'node:v8';
import { enableCompileCache } from './compile-cache';
import { nodeOptionGiven } from './node-options';

// Before any module of the node's own or of node_modules is loaded (compile-cache.ts).
enableCompileCache();

// Under a high allocation rate V8 lets the old generation grow to several times the live heap
// before it collects; a service answering 50 concurrent JSON-RPC clients then sits at twice the
// memory it uses. Growing by at most half the live heap keeps each service's resident memory near
// what it holds, at no measurable cost in throughput. A value given on the command line or in
// NODE_OPTIONS wins.
const heapGrowingFlag = '--heap-growing-percent';
if (!nodeOptionGiven(heapGrowingFlag)) {
  setFlagsFromString(`${heapGrowingFlag}=50`);
}

// OpenTelemetry (only when OTEL_* asks for it) starts before the CLI imports @grpc/grpc-js, so
// that this import is the instrumented one.
const { tracingRequested, startTelemetry } = await import('@ledger-node/telemetry/start');
const processName = tracingRequested(process.env) ? await tracedProcessName(process.argv.slice(2)) : undefined;
if (processName !== undefined) {
  const telemetry = await startTelemetry(processName);
  // Spans still buffered are exported before a clean exit.
  process.once('beforeExit', () => void telemetry.shutdown());
}
await import('./main');

/**
 * `serve <service>` and `devnet` are named after the service; the supervisor and the account
 * commands as such. `probe` is not traced: a Kubernetes exec probe runs it every few seconds with
 * the pod's OTEL_* environment, and its only call (grpc.health.v1 Check) is never traced anyway.
 */
async function tracedProcessName(argv: string[]): Promise<string | undefined> {
  const { allFlags, FlagError, parseFlags } = await import('@ledger-node/config');
  let positionals: string[];
  try {
    ({ positionals } = parseFlags(argv, allFlags));
  } catch (error) {
    // main.ts reports the bad flag and exits 2; the span name does not matter then.
    if (error instanceof FlagError) return 'cli';
    throw error;
  }
  const [command, service] = positionals;
  if (command === 'probe') return undefined;
  if (command === 'serve' && service) return service;
  if (command === 'devnet') return 'devnet';
  return command === undefined ? 'supervisor' : 'cli';
}
