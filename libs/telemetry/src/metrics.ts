/**
 * Prometheus metrics of this process (prom-client): one registry, process and Node.js runtime
 * metrics, and helpers that define each metric once however often a service starts in a process.
 */
import type { Server } from 'node:http';
import { createHttpServer } from './http-server';
import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';
import type { Logger } from 'pino';
import { buildInfo, type BuildInfo } from './build-info';

export const metricsRegistry = new Registry();
let defaultMetricsStarted = false;

/** Latency buckets in seconds: from a cached read (~1 ms) to a signed, submitted payment (seconds). */
export const latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function existing<M>(name: string, kind: new (...args: never[]) => M): M | undefined {
  const metric = metricsRegistry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  if (!(metric instanceof kind)) throw new Error(`metric ${name} is already defined with another type`);
  return metric;
}

/** A counter, defined on first use. */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return existing<Counter<L>>(name, Counter) ?? new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A histogram, defined on first use. */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets = latencyBuckets): Histogram<L> {
  return existing<Histogram<L>>(name, Histogram) ?? new Histogram({ name, help, labelNames, buckets, registers: [metricsRegistry] });
}

/** A gauge set by the code that owns the figure, defined on first use. */
export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  return existing<Gauge<L>>(name, Gauge) ?? new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
}

/**
 * A gauge read when scraped; NaN while the reader has no value (Prometheus' way to say unknown).
 * A later call with the same name replaces the reader: the service started last in this process
 * owns the figure.
 */
export function observedGauge(name: string, help: string, read: () => number | undefined | Promise<number | undefined>): Gauge {
  metricsRegistry.removeSingleMetric(name);
  return new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    async collect() {
      this.set((await read()) ?? Number.NaN);
    },
  });
}

/**
 * A gauge with labels read when scraped: `read` gives each label set's value, and a label set it
 * leaves out has no sample. A later call with the same name replaces the reader, as observedGauge.
 */
export function observedGauges<L extends string>(name: string, help: string, labelNames: readonly L[], read: () => Iterable<[LabelValues<L>, number]>): Gauge<L> {
  metricsRegistry.removeSingleMetric(name);
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}

/**
 * The event loop's busy and idle seconds since the process started (perf_hooks): over a window,
 * whether a service was saturated or waiting (the bench's stage table reads them).
 */
export function observeEventLoop(): void {
  observedGauge('ledger_node_event_loop_busy_seconds', 'Seconds the event loop has been busy since the process started', () => performance.eventLoopUtilization().active / 1000);
  observedGauge('ledger_node_event_loop_idle_seconds', 'Seconds the event loop has been idle since the process started', () => performance.eventLoopUtilization().idle / 1000);
}

/**
 * The label naming the service on every metric of a process. Not `service`: Prometheus Operator's
 * ServiceMonitor sets a `service` target label (the Kubernetes Service), which would rename ours to
 * `exported_service`.
 */
export const SERVICE_LABEL = 'ledger_node_service';

/**
 * Labels every metric of this process with its service (`ledger_node_service`) and starts the
 * runtime metrics and the build's `ledger_node_build_info` (once).
 */
export function initMetrics(service: string): void {
  metricsRegistry.setDefaultLabels({ [SERVICE_LABEL]: service });
  if (defaultMetricsStarted) return;
  defaultMetricsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
  observeBuildInfo();
}

/** `ledger_node_build_info{version,commit,node_version} 1`: the Prometheus info-metric idiom, joined on by queries that ask which build runs. */
export function observeBuildInfo(info: BuildInfo = buildInfo()): void {
  gauge('ledger_node_build_info', 'The build this process runs: its version, git commit and Node.js version (always 1)', ['version', 'commit', 'node_version']).set(
    { version: info.version, commit: info.commit, node_version: info.nodeVersion },
    1,
  );
}

/**
 * `ledger_node_ready`: 1 while this process would answer its readiness probe positively (a gRPC
 * service's grpc.health.v1 SERVING, the facade's /readyz 200), else 0; read at each scrape.
 * Prometheus' own `up` says whether the process answers at all.
 */
export function observeReadiness(ready: () => boolean | Promise<boolean>): Gauge {
  return observedGauge('ledger_node_ready', '1 while this service is ready (grpc.health.v1 SERVING; the facade: /readyz answers 200), else 0', async () => ((await ready()) ? 1 : 0));
}

/** The Prometheus text exposition of every metric. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

export interface MetricsListener {
  host: string;
  port: number;
}

export interface MetricsServer {
  /** `http://host:port/metrics` */
  readonly url: string;
  close(): Promise<void>;
}

/** A tiny HTTP server answering `GET /metrics` (Prometheus scrape) and nothing else. */
export async function serveMetrics(listener: MetricsListener, logger: Logger): Promise<MetricsServer> {
  const server: Server = createHttpServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at GET /metrics\n');
      return;
    }
    metricsText().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => {
        logger.error({ err: error }, 'metrics collection failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new Error(`cannot serve metrics on ${listener.host}:${listener.port}: ${error.code ?? error.message}`)));
    server.listen(listener.port, listener.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : listener.port;
  const url = `http://${listener.host.includes(':') ? `[${listener.host}]` : listener.host}:${port}/metrics`;
  logger.info({ metrics: url }, 'metrics serving');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
