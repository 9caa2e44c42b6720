/**
 * The subscriptions of one JSON-RPC WebSocket connection (/v1/ws): `jt_subscribe` makes one, each
 * with its own feed and resume point, and its notifications carry its id:
 * `{"jsonrpc":"2.0","method":"jt_subscription","params":{"subscription":"0x…","result":…}}`.
 * `newBlocks` notifies the SPEC's block object of each new ledger (transaction hashes, or full
 * transactions when asked); `transactions` notifies the SPEC's transaction object of each validated
 * transaction, or of those affecting the accounts named.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { ChainProfile } from '@ledger-node/chain';
import { InvalidParams } from '@ledger-node/errors';
import type { Logger } from '@ledger-node/telemetry';
import { blockObject, transactionObject } from '../format/records';
import type { CatchUpTicket } from './catch-up';
import { countSubscribers } from './connection';
import { Feed } from './feed';
import type { LedgerFollower } from './follower';
import type { StreamLedger } from './stream-ledger';

export type JtStreamKind = 'newBlocks' | 'transactions';

export interface JtSubscriptionRequest {
  kind: JtStreamKind;
  /** The first block to notify (the block after the last one the client saw); absent: the next new one. */
  fromBlock?: number;
  /** newBlocks: full transaction objects instead of hashes. */
  fullTransactions?: boolean;
  /** transactions: only those affecting these accounts. */
  accounts?: readonly string[];
}

/** Most subscriptions one connection may hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 32;

interface SessionConnection {
  /** The client's address: its resumes catching up at once are bounded (catch-up.ts). */
  readonly peer: string;
  send(text: string, stream: boolean): boolean;
  drained(): Promise<void>;
}

/** What a call on /v1/ws runs in: its connection's session, and what to do once its answer is sent. */
export interface JtCallScope {
  readonly session: JtStreamSession;
  readonly afterAnswer: (() => void)[];
}

/** The scope of the call running (set by the /v1/ws transport around each message). */
export const jtCallScopes = new AsyncLocalStorage<JtCallScope>();

export class JtStreamSession {
  private readonly feeds = new Map<string, { feed: Feed<StreamLedger>; kind: JtStreamKind }>();
  private closed = false;

  constructor(
    private readonly follower: LedgerFollower,
    private readonly profile: ChainProfile,
    private readonly connection: SessionConnection,
    private readonly logger: Logger,
  ) {}

  /** Makes a subscription: its id, and `start`, which begins its notifications (once the answer naming it is sent). */
  async subscribe(request: JtSubscriptionRequest): Promise<{ id: string; start: () => void }> {
    if (this.feeds.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      throw new InvalidParams(`a connection may hold at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions; jt_unsubscribe one first`);
    }
    const accounts = new Set(request.accounts ?? []);
    for (const account of accounts) {
      if (!this.profile.codec.isValidAddress(account)) throw new InvalidParams(`invalid account address ${JSON.stringify(account)} for the ${this.profile.id} chain`, 'accounts');
    }
    let lastSeen: number | undefined;
    let resume: CatchUpTicket | undefined;
    if (request.fromBlock !== undefined) {
      lastSeen = request.fromBlock - 1;
      await this.follower.checkResume(lastSeen, 'jsonrpc');
      resume = this.follower.admitResume(this.connection.peer, 'jsonrpc');
    } else {
      lastSeen = (await this.follower.current())?.ledgerIndex;
    }
    const id = `0x${randomBytes(16).toString('hex')}`;
    const notify = (result: string) => this.connection.send(`{"jsonrpc":"2.0","method":"jt_subscription","params":{"subscription":"${id}","result":${result}}}`, true);
    const feed = new Feed<StreamLedger>(this.follower, {
      deliver: (ledger) => (request.kind === 'newBlocks' ? this.notifyBlock(ledger, request.fullTransactions ?? false, notify) : this.notifyTransactions(ledger, accounts, notify)),
      drained: () => this.connection.drained(),
      logger: this.logger,
      resume,
    });
    // The connection closed while the resume point was checked: the feed ends before it begins.
    if (this.closed) feed.stop();
    else {
      this.feeds.set(id, { feed, kind: request.kind });
      countSubscribers('jsonrpc', request.kind, 1);
    }
    return { id, start: () => feed.start(lastSeen) };
  }

  /** Ends a subscription; false when this connection has none of that id. */
  unsubscribe(id: string): boolean {
    const subscription = this.feeds.get(id);
    if (!subscription) return false;
    this.end(id, subscription);
    return true;
  }

  close(): void {
    this.closed = true;
    for (const [id, subscription] of this.feeds) this.end(id, subscription);
  }

  private end(id: string, { feed, kind }: { feed: Feed<StreamLedger>; kind: JtStreamKind }): void {
    feed.stop();
    this.feeds.delete(id);
    countSubscribers('jsonrpc', kind, -1);
  }

  private notifyBlock(ledger: StreamLedger, full: boolean, notify: (result: string) => boolean): void {
    const json = ledger.memo(`jt block ${full}`, () => {
      // A record read with full transactions lists them; the hash-only form reads their hashes.
      const record = full ? ledger.record : { ...ledger.record, transactionHashes: ledger.record.transactions.map((tx) => tx.hash) };
      return JSON.stringify(blockObject(record, full, this.profile));
    });
    notify(json);
  }

  private notifyTransactions(ledger: StreamLedger, accounts: ReadonlySet<string>, notify: (result: string) => boolean): void {
    for (const tx of ledger.transactions) {
      if (accounts.size > 0 && !tx.affectsAny(accounts)) continue;
      const json = ledger.memo(`jt transaction ${tx.record.txIndex}`, () => JSON.stringify(transactionObject(tx.record, this.profile)));
      if (!notify(json)) return;
    }
  }
}
