import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * How long a client of any HTTP listener of the node may take. Node's own defaults (60 s for the
 * headers, 300 s for the whole request, checked every 30 s) let a client that trickles a request
 * hold a connection, of -max_connections, for minutes; these close it within seconds.
 */
export interface HttpTimeouts {
  /** Until the request's headers are complete (a WebSocket upgrade's too). */
  headersTimeoutMs: number;
  /** Until the whole request, body included, has arrived; the answer may take longer. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection between two requests. */
  keepAliveTimeoutMs: number;
  /** How often the two limits above are checked: a slow client is closed at most this much later. */
  checkIntervalMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, checkIntervalMs: 1_000 };

/** An HTTP server that closes a client too slow to send its request (HttpTimeouts). */
export function createHttpServer(handler: RequestListener, timeouts: HttpTimeouts = HTTP_TIMEOUTS): Server {
  const server = createServer({ connectionsCheckingInterval: timeouts.checkIntervalMs, requestTimeout: timeouts.requestTimeoutMs }, handler);
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  return server;
}
