import type { GetSyncStatusResponse } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import type { Clients } from './clients';

/** How often sync is asked while the facade runs. */
const POLL_MS = 500;
/** A copy at most this old stands in for sync's answer when that does not come in time. */
const FRESH_MS = 3_000;

/**
 * Sync's status, asked for directly (the freshest answer), with a copy kept by asking in the
 * background twice a second: when sync does not answer in time — usually because the facade itself
 * is too busy to read the answer — `jt_syncing`, `/v1/status` and `/readyz` answer from a copy at
 * most FRESH_MS old instead of calling sync unavailable. Without such a copy, sync's failure is the answer.
 */
export class SyncStatusCache {
  private latest: { status: GetSyncStatusResponse; atMs: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<GetSyncStatusResponse> | undefined;

  constructor(
    private readonly clients: Clients,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const poll = () => {
      this.polling ??= this.ask();
      this.polling
        .catch((error: unknown) => this.logger.debug({ err: error }, 'sync status not read; asking again'))
        .finally(() => {
          this.polling = undefined;
          if (this.timer !== undefined) this.timer = setTimeout(poll, POLL_MS).unref();
        });
    };
    this.timer = setTimeout(poll, 0).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sync's answer now; when it does not come, the copy not older than FRESH_MS, else sync's error. */
  async status(options: { deadlineMs?: number } = {}): Promise<GetSyncStatusResponse> {
    try {
      return await this.ask(options.deadlineMs);
    } catch (error) {
      if (this.latest && Date.now() - this.latest.atMs <= FRESH_MS) return this.latest.status;
      throw error;
    }
  }

  private async ask(deadlineMs?: number): Promise<GetSyncStatusResponse> {
    const status = await this.clients.sync.getSyncStatus({}, deadlineMs === undefined ? {} : { deadlineMs });
    this.latest = { status, atMs: Date.now() };
    return status;
  }
}
