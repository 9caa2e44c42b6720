/** Clients the end-to-end tests use: the upstream library's client, and JSON-RPC over HTTP. */
import { plainEndpoints, UpstreamClient, UpstreamRequestError, type Command, type ParamsOf } from '@ledger-node/upstream';

/** A devnet answers big ledgers in time even while it closes ledgers under load. */
const UPSTREAM_REQUEST_TIMEOUT_MS = 60_000;

/** A rippled answer as the tests compare it: the message's `status` with its `result`, or its `error` token and words. */
export type UpstreamAnswer = Record<string, any>;

/**
 * A client of a devnet (or any rippled) for comparing answers, over @ledger-node/upstream: every
 * answer checked against its command's schema. An error answer resolves as rippled's message
 * (`status: "error"`, `error`); no answer or a malformed one rejects.
 */
export async function connectUpstream(url: string) {
  const client = new UpstreamClient({ endpoints: plainEndpoints(url), requestTimeoutMs: UPSTREAM_REQUEST_TIMEOUT_MS });
  await client.connect();
  return {
    request<C extends Command>(command: C, ...[params]: {} extends ParamsOf<C> ? [params?: ParamsOf<C>] : [params: ParamsOf<C>]): Promise<UpstreamAnswer> {
      return client.request(command, (params ?? {}) as ParamsOf<C>).then(
        (result) => ({ status: 'success', type: 'response', result }),
        (error: unknown) => {
          if (!(error instanceof UpstreamRequestError)) throw error;
          return { status: 'error', type: 'response', error: error.errorCode, error_message: error.errorMessage };
        },
      );
    },
    close: () => client.close(),
  };
}

/**
 * A request that went out on a kept-alive socket the server was closing as idle (its keep-alive
 * timeout, 5 s), before this process saw the close: fetch's reuse margin is a timer of this process,
 * late when a loaded machine or a test's own work holds its event loop. A server closes a socket as
 * idle only with no request in flight on it, so the request was never read and goes out again.
 */
function closedWhileIdle(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code === 'UND_ERR_SOCKET' && cause.message === 'other side closed';
}

/** JSON-RPC over HTTP to the facade. */
export function rpcClient(port: number) {
  let nextId = 1;
  return async function call(method: string, params: unknown[] = []): Promise<Record<string, any>> {
    const send = () =>
      fetch(`http://127.0.0.1:${port}/v1/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method, params, id: nextId++ }),
      });
    const response = await send().catch((error: unknown) => {
      if (closedWhileIdle(error)) return send();
      throw error;
    });
    return (await response.json()) as Record<string, any>;
  };
}

/** Polls until the probe gives something other than undefined, null or false; its errors count as not yet. */
export async function waitUntil<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs: number,
  what: string,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
