/**
 * Submission's upstream: the upstream library's client, connected on demand to the first endpoint
 * that answers in the order given; a send with no endpoint answering fails with UpstreamUnavailable.
 */
import type { UpstreamEndpoints } from '@ledger-node/config';
import type { Logger } from '@ledger-node/telemetry';
import { UpstreamClient, type ConnectionEvents } from '@ledger-node/upstream';
import type { PathConnection } from '../forward/path-finder';

export function submissionUpstream(endpoints: UpstreamEndpoints, logger: Logger): UpstreamClient {
  return new UpstreamClient({
    endpoints,
    requestTimeoutMs: 10_000,
    events: {
      onMalformed: (reason) => logger.warn({ reason }, `malformed upstream message ignored: ${reason}`),
      onClose: (reason) => logger.debug({ reason }, `upstream connection closed: ${reason}`),
    },
  });
}

/** A connection of a path request's own (forward/path-finder.ts), to the same endpoints, its stream messages and end told to `events`. */
export function pathRequestUpstream(endpoints: UpstreamEndpoints, logger: Logger, events: ConnectionEvents): PathConnection {
  const client = new UpstreamClient({
    endpoints,
    requestTimeoutMs: 10_000,
    events: { ...events, onMalformed: (reason) => logger.warn({ reason }, `malformed upstream message on a path request's connection ignored: ${reason}`) },
  });
  return { request: (command, params, options) => client.request(command, params, options), close: () => client.close() };
}
