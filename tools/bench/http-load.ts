/**
 * A closed-loop HTTP load generator: `connections` keep-alive connections, each with one request in
 * flight at a time, for a fixed duration. Every request body comes from `nextBody()`, so each call
 * can ask for something different (a random stored hash, a random past ledger). Answers are
 * checked by `check`; a failed check counts as an error, not as a completed request.
 */
import { Agent, request } from 'node:http';

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

function post(agent: Agent, url: URL, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Runs the load; resolves when every connection has finished its last request. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  const latenciesMs: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let measuring = false;
  const warmupMs = options.warmupMs ?? 1_000;
  const startedAt = performance.now();
  const measureFrom = startedAt + warmupMs;
  const endAt = measureFrom + options.durationMs;

  const worker = async () => {
    for (;;) {
      const sentAt = performance.now();
      if (sentAt >= endAt) return;
      let ok = false;
      try {
        const answer = await post(agent, url, options.nextBody());
        ok = options.check ? options.check(answer.status, answer.text) : answer.status === 200;
        if (!ok) firstError ??= `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`;
      } catch (error) {
        firstError ??= error instanceof Error ? error.message : String(error);
      }
      const doneAt = performance.now();
      // Only requests sent and answered inside the window count, so the rate is not inflated by the warm-up.
      if (sentAt >= measureFrom && doneAt <= endAt) {
        measuring = true;
        if (ok) latenciesMs.push(doneAt - sentAt);
        else errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  agent.destroy();
  const seconds = options.durationMs / 1000;
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    requests: measuring ? latenciesMs.length : 0,
    errors,
    seconds,
    requestsPerSecond: latenciesMs.length / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    ...(firstError !== undefined ? { firstError } : {}),
  };
}
