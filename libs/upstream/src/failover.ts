/** Endpoint failover: the endpoints tried in their order until one answers. */
import { UpstreamUnavailable } from '@ledger-node/errors';

export interface FailoverOptions {
  /** Position of the endpoint tried first; the others follow in order, wrapping around (default 0). */
  first?: number;
  /** Hears each endpoint that failed, and why. */
  onFailure?(url: string, error: Error): void;
  /** Ends the attempts: no further endpoint is tried once it aborts. */
  signal?: AbortSignal;
}

/**
 * Runs `attempt` on each endpoint (shown URLs) in order until one succeeds, and resolves with its
 * value and the endpoint's position. Rejects with UpstreamUnavailable naming every failure when none does.
 */
export async function firstAnswering<T>(urls: readonly string[], attempt: (url: string) => Promise<T>, options: FailoverOptions = {}): Promise<{ value: T; url: string; position: number }> {
  const failures: string[] = [];
  const first = options.first ?? 0;
  for (let step = 0; step < urls.length && !options.signal?.aborted; step++) {
    const position = (first + step) % urls.length;
    const url = urls[position]!;
    try {
      return { value: await attempt(url), url, position };
    } catch (error) {
      // Every error of a connection names its endpoint.
      failures.push((error as Error).message);
      options.onFailure?.(url, error as Error);
    }
  }
  throw new UpstreamUnavailable(urls.length === 0 ? 'no upstream endpoint to try' : `no upstream endpoint answers (${failures.join('; ')})`);
}
