/**
 * Closed-loop HTTP load on autocannon: `connections` keep-alive connections, each with one request
 * in flight at a time, for a fixed duration, after a warm-up run that is not counted. Every request
 * body comes from `nextBody()`, so each call can ask for something different (a random stored hash,
 * a random past ledger). Answers are checked by `check`; a failed check counts as an error, not as
 * a completed request, and only answers that pass are timed.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationMs: number;
  /** The JSON body of the next request. */
  nextBody(): string;
  /** Throws (or returns false) when an answer is not the expected one. */
  check?(status: number, body: string): boolean;
  /** Requests sent before measuring starts, to warm up connections and JIT (not counted). */
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  firstError?: string;
}

export function percentile(sortedMs: Float64Array, fraction: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(fraction * sortedMs.length))]!;
}

interface Tally {
  latenciesMs: number[];
  errors: number;
  firstError?: string;
}

/** One autocannon run of `seconds`; every answer is checked, and timed when it passes. */
function run(options: LoadOptions, seconds: number, tally: Tally): Promise<autocannon.Result> {
  const check = options.check ?? ((status: number) => status === 200);
  const failed = (problem: string) => {
    tally.errors++;
    tally.firstError ??= problem;
  };
  // onResponse and the instance's 'response' event run back to back for one answer.
  let passed = false;
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: options.nextBody() }),
            onResponse: (status, body) => {
              try {
                passed = check(status, body);
              } catch (error) {
                passed = false;
                failed(error instanceof Error ? error.message : String(error));
                return;
              }
              if (!passed) failed(`HTTP ${status}: ${body.slice(0, 300)}`);
            },
          },
        ],
      },
      (error: unknown, result: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => {
      if (passed) tally.latenciesMs.push(responseTimeMs);
      passed = false;
    });
    // Connection errors and timeouts: counted as errors, never thrown.
    instance.on('reqError', (error: Error) => failed(error.message));
  });
}

/** Runs the warm-up, then the measured load; resolves with the figures of the measured run. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const warmupMs = options.warmupMs ?? 1_000;
  if (warmupMs > 0) await run(options, warmupMs / 1000, { latenciesMs: [], errors: 0 });
  const tally: Tally = { latenciesMs: [], errors: 0 };
  await run(options, options.durationMs / 1000, tally);
  const seconds = options.durationMs / 1000;
  const sorted = Float64Array.from(tally.latenciesMs).sort();
  return {
    requests: tally.latenciesMs.length,
    errors: tally.errors,
    seconds,
    requestsPerSecond: tally.latenciesMs.length / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    ...(tally.firstError !== undefined ? { firstError: tally.firstError } : {}),
  };
}
