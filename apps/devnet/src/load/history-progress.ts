/**
 * Progress of a history build (LEDGER_NODE_DEVNET_HISTORY): a build of thousands of ledgers takes
 * minutes on a loaded machine, and the devnet listens only once it is done. One line every few
 * seconds says how far it is, so a wait on it can tell a slow build from a stalled one.
 */
import type { Logger } from '@ledger-node/telemetry';

const EVERY_MS = 5_000;

export class HistoryProgress {
  private lastLoggedAtMs: number;

  constructor(
    private readonly logger: Logger,
    private readonly ledgers: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastLoggedAtMs = now();
  }

  /** Counts one more ledger built; logs when the last line is older than a few seconds. */
  built(count: number): void {
    const now = this.now();
    if (now - this.lastLoggedAtMs < EVERY_MS || count >= this.ledgers) return;
    this.lastLoggedAtMs = now;
    this.logger.info({ built: count, ledgers: this.ledgers }, `history: ${count.toLocaleString('en-US')} of ${this.ledgers.toLocaleString('en-US')} ledgers built`);
  }
}
