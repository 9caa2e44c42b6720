/**
 * Submission's upstream: the upstream library's client, connected on demand to the first endpoint
 * that answers in the order given; a send with no endpoint answering fails with UpstreamUnavailable.
 */
import type { UpstreamEndpoints } from '@ledger-node/config';
import type { Logger } from '@ledger-node/telemetry';
import { UpstreamClient } from '@ledger-node/upstream';

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
