/**
 * Keeps sync's view of the stored ledgers inside what the ledger-store says it holds: the store
 * alone owns its ranges (bounded history removes its lowest ledgers on its own), and announces each
 * change but a ledger stored at the tip on its WatchRanges stream. Each (re)opening of the stream
 * first takes the store's whole word (GetStatus); a lost stream is opened again with backoff. No
 * timer asks the store in between.
 */
import { isLedgerNodeError } from '@ledger-node/errors';
import { followStream } from '@ledger-node/grpc';
import type { Logger } from '@ledger-node/telemetry';
import type { LedgerRange } from '../backfill/ranges';
import type { StoreRanges, StoreRangesChange, StoreRangesPort } from './ledger-store';
import type { StoredChain } from './stored-chain';

export interface StoreRangeFollowerOptions {
  store: StoreRangesPort;
  chain: Pick<StoredChain, 'markStoreRead' | 'takeStoreRanges' | 'takeStoreChange'>;
  logger: Logger;
  /** The store's whole word was taken (at start and after each reconnect) and changed the ranges. */
  onResynced?: () => void;
  /** Backoff of reopening a lost stream (followStream's: 250 ms doubling to 5 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

const rangesText = (ranges: readonly LedgerRange[]) => ranges.map(({ first, last }) => (first === last ? `${first}` : `${first}-${last}`)).join(', ');

export class StoreRangeFollower {
  private stream: { stop(): void } | undefined;
  private toldUnimplemented = false;

  constructor(private readonly options: StoreRangeFollowerOptions) {}

  start(): void {
    const { store, chain, logger } = this.options;
    const follower = this;
    this.stream ??= followStream<StoreRangesChange>({
      async *open(signal) {
        chain.markStoreRead();
        const held = await store.storeRanges();
        // Stopped while the store answered: no stream is opened after the stop.
        if (signal.aborted) return;
        follower.resync(held);
        yield* store.watchRanges(signal);
      },
      onMessage: (change) => this.take(change),
      onInterrupted: (error, retryInMs) => {
        // A store of a release without the stream: its whole word is taken at each reopening instead.
        if (isLedgerNodeError(error) && error.kind === 'unimplemented') {
          if (!this.toldUnimplemented) {
            logger.warn({ retryInMs }, `the ledger-store does not announce its ranges (a release before WatchRanges): its ranges are read again every ${Math.round((this.options.maxDelayMs ?? 5_000) / 1000)} s instead`);
          }
          this.toldUnimplemented = true;
          return;
        }
        // An outage of the store is told once by the calls that wait for it (GetStatus among them).
        logger.debug({ err: error, retryInMs }, `the ledger-store's range announcements stopped; reading its ranges again in ${retryInMs} ms`);
      },
      initialDelayMs: this.options.initialDelayMs,
      maxDelayMs: this.options.maxDelayMs,
    });
  }

  stop(): void {
    this.stream?.stop();
  }

  private resync(held: StoreRanges): void {
    const { left, joined } = this.options.chain.takeStoreRanges(held);
    if (left.length === 0 && joined.length === 0) return;
    const { logger } = this.options;
    if (left.length > 0) {
      logger.info({ left, retentionFloor: held.retentionFloor }, `the ledger-store no longer holds ledgers ${rangesText(left)}: they left the stored ranges`);
    }
    if (joined.length > 0) logger.info({ joined }, `the ledger-store holds ledgers ${rangesText(joined)} that sync had not counted: they joined the stored ranges`);
    this.options.onResynced?.();
  }

  private take(change: StoreRangesChange): void {
    const left = this.options.chain.takeStoreChange(change);
    if (left.length === 0) return;
    this.options.logger.debug(
      { change: change.change, left, retentionFloor: change.retentionFloor },
      `ledgers ${rangesText(left)} left the stored ranges: the ledger-store removed them (${change.change})`,
    );
  }
}
