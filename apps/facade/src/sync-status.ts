import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import type { Clients } from './clients';

/** How often sync is asked while the facade runs. */
const POLL_MS = 500;
/** An answer at most this old stands for sync's status; an older one is asked again. */
const FRESH_MS = 3_000;

/**
 * Sync's status, asked for in the background twice a second, so that `jt_syncing`, `/v1/status`
 * and `/readyz` answer from the latest copy: a facade that is busy does not turn its own slowness
 * into "sync unavailable" (one call per request, each with its own deadline, did). A copy older
 * than FRESH_MS is not trusted: the status is then asked for directly, and its failure is the answer.
 */
export class SyncStatusCache {
  private latest: { status: GetSyncStatusResponse; atMs: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private asking: Promise<GetSyncStatusResponse> | undefined;

  constructor(
    private readonly clients: Clients,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const poll = () => {
      this.ask()
        .catch((error: unknown) => this.logger.debug({ err: error }, 'sync status not read; asking again'))
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(poll, POLL_MS).unref();
        });
    };
    this.timer = setTimeout(poll, 0).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The latest status not older than FRESH_MS, else sync's answer now (or its error). */
  async status(options: { deadlineMs?: number } = {}): Promise<GetSyncStatusResponse> {
    if (this.latest && Date.now() - this.latest.atMs <= FRESH_MS) return this.latest.status;
    return this.ask(options.deadlineMs);
  }

  private ask(deadlineMs?: number): Promise<GetSyncStatusResponse> {
    this.asking ??= this.clients.sync
      .getSyncStatus({}, deadlineMs === undefined ? {} : { deadlineMs })
      .then((status) => {
        this.latest = { status, atMs: Date.now() };
        return status;
      })
      .finally(() => {
        this.asking = undefined;
      });
    return this.asking;
  }
}
