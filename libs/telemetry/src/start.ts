/**
 * OpenTelemetry SDK start-up, configured by the standard OTEL_* environment variables.
 *
 * Tracing is on only when an OTLP endpoint is given (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or OTEL_TRACES_EXPORTER names an exporter; otherwise no SDK
 * is loaded at all and the API stays a no-op. It must start before the process imports
 * @grpc/grpc-js: the sources run as ES modules, so that import is patched through
 * import-in-the-middle's loader hook, registered here for that module only.
 *
 * HTTP requests are not instrumented here: the facade opens one server span per request itself
 * (`inServerSpan`), after its probes, which costs a fraction of the generic HTTP and Koa
 * instrumentations (their per-request work doubled the cost of a cached JSON-RPC read).
 */
import { register } from 'node:module';
import { spansRecorded } from './tracing';

/** The modules the instrumentations below patch; only these go through the import hook. */
const instrumentedModules = ['@grpc/grpc-js'];

export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.includes('none')) return false;
  return exporters.length > 0 || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export interface Telemetry {
  /** Flushes the spans still buffered, then stops the SDK. */
  shutdown(): Promise<void>;
}

/**
 * Starts the NodeSDK for one process, `service.name = ledger-node-<service>`, with the grpc
 * instrumentation and W3C trace-context propagation (OTEL_PROPAGATORS may change
 * it). Spans only: metrics are Prometheus (serveMetrics), logs are pino on stdout.
 */
export async function startTelemetry(service: string): Promise<Telemetry> {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: instrumentedModules } });
  const [{ NodeSDK }, { GrpcInstrumentation }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/instrumentation-grpc')]);
  const sdk = new NodeSDK({
    serviceName: `ledger-node-${service}`,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // No metadata is copied into attributes: the keystore's bearer token travels there.
      // grpc.health.v1 Check/Watch are probes, polled every few seconds: not traced.
      new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    ],
  });
  sdk.start();
  spansRecorded();
  return {
    shutdown: () => sdk.shutdown(),
  };
}
