/**
 * The live chain behind the WebSocket API: reads from the engine, keeps the account history
 * index, and closes ledgers on a timer — every `closeMs` while transactions are pending, at least
 * every `idleCloseMs` otherwise — or at once on `ledger_accept`, as rippled's standalone mode does.
 */
import { DEVNET_NETWORK_ID } from '@ledger-node/chain';
import type { Logger } from '@ledger-node/telemetry';
import type { ClosedLedger, DevnetChain, JsonObject } from '../engine/types';
import { AccountTxIndex } from './account-tx-index';
import type { AccountTxPage, AccountTxQuery, LedgerRange, LedgerSource, LedgerTransaction, LedgerWriter } from './ledger-source';

/** How often the close timer looks at the open ledger; finer than any sensible close interval. */
const TICK_MS = 50;

export interface LiveSourceOptions {
  closeMs: number;
  /** Longest time without a close when nothing is pending. */
  idleCloseMs?: number;
  logger: Logger;
}

export class LiveLedgerSource implements LedgerSource, LedgerWriter {
  readonly mode = 'live' as const;
  readonly networkId = DEVNET_NETWORK_ID;
  readonly writer: LedgerWriter = this;
  private readonly accountHistory: AccountTxIndex;
  private readonly closeMs: number;
  private readonly idleCloseMs: number;
  private readonly logger: Logger;
  private lastCloseAtMs = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private readonly stopIndexing: () => void;

  constructor(
    private readonly chain: DevnetChain,
    options: LiveSourceOptions,
  ) {
    this.closeMs = options.closeMs;
    this.idleCloseMs = options.idleCloseMs ?? 5000;
    this.logger = options.logger;
    this.accountHistory = new AccountTxIndex(chain.profile);
    for (let ledgerIndex = chain.earliestLedgerIndex(); ledgerIndex <= chain.validatedLedgerIndex(); ledgerIndex++) {
      const ledger = chain.ledger(ledgerIndex);
      if (ledger) this.accountHistory.add(ledger);
    }
    // Registered before any follower, so followers see each ledger already indexed.
    this.stopIndexing = chain.onLedgerClosed((ledger) => this.accountHistory.add(ledger));
  }

  get profile() {
    return this.chain.profile;
  }

  get fees() {
    return this.chain.fees;
  }

  /**
   * Starts closing ledgers on the timer: `closeMs` after the last close when transactions are
   * pending, `idleCloseMs` (or `closeMs` when that is longer) when none are.
   */
  startClosing(): void {
    if (this.timer) return;
    const idleIntervalMs = Math.max(this.closeMs, this.idleCloseMs);
    // A close interval shorter than the usual tick (tests racing to a flag ledger) sets the pace itself.
    const tickMs = Math.min(TICK_MS, this.closeMs);
    const tick = () => {
      const dueAfterMs = this.chain.pendingCount() > 0 ? this.closeMs : idleIntervalMs;
      if (Date.now() - this.lastCloseAtMs >= dueAfterMs) this.closeNow();
      this.timer = setTimeout(tick, tickMs);
    };
    this.timer = setTimeout(tick, tickMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.stopIndexing();
  }

  private closeNow(): ClosedLedger | undefined {
    this.lastCloseAtMs = Date.now();
    try {
      const ledger = this.chain.close();
      this.logger.debug({ ledgerIndex: ledger.header.ledgerIndex, ledgerHash: ledger.hash, txCount: ledger.transactions.length }, 'ledger closed');
      return ledger;
    } catch (error) {
      this.logger.error({ err: error }, 'closing the open ledger failed');
      return undefined;
    }
  }

  // LedgerWriter

  submit(txBlobHex: string) {
    return this.chain.submit(txBlobHex);
  }

  simulate(txJson: JsonObject) {
    return this.chain.simulate(txJson);
  }

  acceptLedger(): ClosedLedger {
    this.lastCloseAtMs = Date.now();
    return this.chain.close();
  }

  openLedgerIndex(): number {
    return this.chain.openLedgerIndex();
  }

  pendingCount(): number {
    return this.chain.pendingCount();
  }

  // LedgerSource

  validatedLedger(): ClosedLedger | undefined {
    return this.chain.ledger(this.chain.validatedLedgerIndex());
  }

  completeRanges(): LedgerRange[] {
    return [{ first: this.chain.earliestLedgerIndex(), last: this.chain.validatedLedgerIndex() }];
  }

  ledger(ledgerIndex: number): ClosedLedger | undefined {
    return this.chain.ledger(ledgerIndex);
  }

  ledgerByHash(ledgerHash: string): ClosedLedger | undefined {
    return this.chain.ledgerByHash(ledgerHash);
  }

  transaction(txHash: string): LedgerTransaction | undefined {
    const found = this.chain.transaction(txHash);
    if (!found) return undefined;
    const ledger = this.chain.ledger(found.ledgerIndex);
    return ledger ? { ledger, tx: found.tx } : undefined;
  }

  holdsState(ledgerIndex: number): boolean {
    return ledgerIndex >= this.chain.earliestLedgerIndex() && ledgerIndex <= this.chain.openLedgerIndex();
  }

  stateEntry(index: string, ledgerIndex: number) {
    return this.chain.stateEntry(index, ledgerIndex);
  }

  stateEntries(ledgerIndex: number, afterIndex: string | undefined, limit: number) {
    return this.chain.stateEntries(ledgerIndex, afterIndex, limit);
  }

  accountTransactions(query: AccountTxQuery): AccountTxPage {
    return this.accountHistory.page(query);
  }

  followLedgers(listener: (ledger: ClosedLedger) => void): () => void {
    return this.chain.onLedgerClosed((ledger) => {
      try {
        listener(ledger);
      } catch (error) {
        this.logger.error({ err: error, ledgerIndex: ledger.header.ledgerIndex }, 'publishing a closed ledger failed');
      }
    });
  }
}
