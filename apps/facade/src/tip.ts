import type { Logger } from '@ledger-node/telemetry';
import type { Clients } from './clients';

/**
 * The highest stored ledger, kept current from ledger-store's WatchLedgers stream so that
 * `jt_blockNumber` needs no gRPC round trip. While the stream is down, reads ask the store.
 */
export class TipCache {
  private highest: number | undefined;
  private live = false;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly clients: Clients,
    private readonly logger: Logger,
  ) {}

  /** Follows the store until `stop()`, reconnecting with backoff. */
  start(): void {
    void this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  async highestLedgerIndex(): Promise<number> {
    if (this.live && this.highest !== undefined) return this.highest;
    const status = await this.clients.ledgerStore.getStatus({});
    return status.highestLedgerIndex ?? 0;
  }

  private async follow(): Promise<void> {
    let delayMs = 250;
    while (!this.stopped) {
      try {
        const status = await this.clients.ledgerStore.getStatus({}, { signal: this.abort.signal });
        this.highest = status.highestLedgerIndex;
        for await (const event of this.clients.ledgerStore.watchLedgers({ includeBackfill: false }, { signal: this.abort.signal })) {
          this.live = true;
          delayMs = 250;
          if (this.highest === undefined || event.ledgerIndex > this.highest) this.highest = event.ledgerIndex;
        }
      } catch (error) {
        if (this.stopped) return;
        this.logger.debug({ err: error }, 'ledger stream interrupted; reading the tip from the store until it is back');
      }
      this.live = false;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 5_000);
    }
  }
}
