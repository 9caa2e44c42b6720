/**
 * The newest ledgers' answers rendered as each ledger is stored: a client that asks for a
 * transaction just validated (a wallet after sending, a payment watcher) finds its
 * jt_getTransactionByHash and jt_getTransactionReceipt answers rendered, without a read of the
 * store. They are kept apart from the answer cache, in a cache of their own bounded in bytes
 * (-hot_set_mb, the oldest first out), so that answers rendered for no one never push out answers
 * clients asked for; one that is asked for moves into the answer cache (Queries.kept).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChainProfile } from '@ledger-node/chain';
import type { TransactionRecord } from '@ledger-node/contracts';
import type { Logger } from '@ledger-node/telemetry';
import { receiptObject, transactionObject } from '../format/records';
import { answerKey } from '../jsonrpc/methods/transactions';
import type { AnswerCache, AnswerCacheMetrics } from './answer-cache';
import type { Queries } from './queries';
import { RenderedJson } from './rendered-json';

export const HOT_SET_METRICS: AnswerCacheMetrics = {
  lookups: 'ledger_node_facade_hot_set_lookups_total',
  bytes: 'ledger_node_facade_hot_set_bytes',
  what: 'the answers rendered ahead for the newest ledgers',
};

/** Transactions rendered in one event-loop turn: a ledger of hundreds never holds requests up for long. */
const RENDERED_PER_TURN = 16;

/** The answers rendered ahead for each transaction, by the kind answerByHash keys them with. */
const RENDERERS: readonly [kind: string, render: (record: TransactionRecord, profile: ChainProfile) => unknown][] = [
  ['tx', transactionObject],
  ['receipt', receiptObject],
];

export class HotSet {
  /** The ledger being rendered, and the newest one stored meanwhile (rendered next; older ones are skipped). */
  private rendering: Promise<void> | undefined;
  private next: number | undefined;

  constructor(
    private readonly queries: Queries,
    private readonly cache: AnswerCache,
    private readonly profile: ChainProfile,
    private readonly logger: Logger,
  ) {}

  /** A new ledger was stored: its answers are rendered, after the one being rendered (settles when none is left). */
  ledgerStored(ledgerIndex: number): Promise<void> {
    this.next = Math.max(this.next ?? 0, ledgerIndex);
    this.rendering ??= this.renderPending().finally(() => (this.rendering = undefined));
    return this.rendering;
  }

  private async renderPending(): Promise<void> {
    while (this.next !== undefined) {
      const ledgerIndex = this.next;
      this.next = undefined;
      try {
        await this.render(ledgerIndex);
      } catch (error) {
        // Only ahead of time: a client who asks gets the answer rendered then.
        this.logger.debug({ err: error, ledgerIndex }, `hot set: the answers of ledger ${ledgerIndex} were not rendered ahead`);
      }
    }
  }

  private async render(ledgerIndex: number): Promise<void> {
    const ledger = await this.queries.wholeLedger(ledgerIndex);
    for (const [position, record] of (ledger?.transactions ?? []).entries()) {
      if (position > 0 && position % RENDERED_PER_TURN === 0) await nextTurn();
      for (const [kind, render] of RENDERERS) this.cache.set(answerKey(kind, record.hash), RenderedJson.of(render(record, this.profile)).json);
    }
  }
}
