/** The bench's client of its devnet: the upstream library's client, with a deadline that a loaded devnet meets. */
import { plainEndpoints, UpstreamClient } from '@ledger-node/upstream';

/** A whole binary ledger of the bench's history, fetched 8 at a time while the devnet builds more, can take long. */
const DEVNET_REQUEST_TIMEOUT_MS = 120_000;

export function devnetClient(url: string): UpstreamClient {
  return new UpstreamClient({ endpoints: plainEndpoints(url), requestTimeoutMs: DEVNET_REQUEST_TIMEOUT_MS, connectTimeoutMs: 10_000 });
}
