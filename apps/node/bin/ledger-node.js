#!/usr/bin/env node
// The ledger-node CLI runs its TypeScript sources through tsx's loader: no build step after `npm ci`.
import { register } from 'tsx/esm/api';

register();

// OpenTelemetry (only when OTEL_* asks for it) starts before the sources import @grpc/grpc-js,
// node:http and koa, so that those imports are the instrumented ones.
const { tracingRequested, startTelemetry } = await import('@ledger-node/telemetry/start');
if (tracingRequested(process.env)) {
  const telemetry = await startTelemetry(await tracedProcessName(process.argv.slice(2)));
  // Spans still buffered are exported before a clean exit.
  process.once('beforeExit', () => void telemetry.shutdown());
}
await import('../src/main.ts');

/** `serve <service>` and `devnet` are named after the service; the supervisor and the account commands as such. */
async function tracedProcessName(argv) {
  const { allFlags, FlagError, parseFlags } = await import('@ledger-node/config');
  let positionals;
  try {
    ({ positionals } = parseFlags(argv, allFlags));
  } catch (error) {
    // main.ts reports the bad flag and exits 2; the span name does not matter then.
    if (error instanceof FlagError) return 'cli';
    throw error;
  }
  const [command, service] = positionals;
  if (command === 'serve' && service) return service;
  if (command === 'devnet') return 'devnet';
  return command === undefined ? 'supervisor' : 'cli';
}
