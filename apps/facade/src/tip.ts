import { followStream } from '@ledger-node/grpc';
import type { Logger } from '@ledger-node/telemetry';
import type { Clients } from './clients';

/**
 * The highest stored ledger, kept current from ledger-store's WatchLedgers stream so that
 * `jt_blockNumber` needs no gRPC round trip. While the stream is down, reads ask the store.
 */
export class TipCache {
  private highest: number | undefined;
  private live = false;
  private follower: { stop(): void } | undefined;

  /** Told of each ledger that becomes the tip while the stream is up (the hot set renders its answers). */
  onNewTip: ((ledgerIndex: number) => void) | undefined;

  constructor(
    private readonly clients: Clients,
    private readonly logger: Logger,
  ) {}

  /** Follows the store until `stop()`, reconnecting with backoff. */
  start(): void {
    const { ledgerStore } = this.clients;
    const tip = this;
    this.follower = followStream({
      async *open(signal) {
        tip.highest = (await ledgerStore.getStatus({}, { signal })).highestLedgerIndex;
        yield* ledgerStore.watchLedgers({ includeBackfill: false }, { signal });
      },
      onMessage: (event) => {
        this.live = true;
        if (this.highest !== undefined && event.ledgerIndex <= this.highest) return;
        this.highest = event.ledgerIndex;
        this.onNewTip?.(event.ledgerIndex);
      },
      onInterrupted: (error) => {
        this.live = false;
        this.logger.debug({ err: error }, 'ledger stream interrupted; reading the tip from the store until it is back');
      },
    });
  }

  stop(): void {
    this.follower?.stop();
  }

  async highestLedgerIndex(): Promise<number> {
    if (this.live && this.highest !== undefined) return this.highest;
    const status = await this.clients.ledgerStore.getStatus({});
    return status.highestLedgerIndex ?? 0;
  }
}
