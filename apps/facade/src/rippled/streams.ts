/**
 * rippled's `subscribe` / `unsubscribe` on one WebSocket connection, served from the store: the
 * `ledger` stream (a ledgerClosed message per ledger), the `transactions` stream (a `transaction`
 * message per validated transaction, in API v1 or v2 shape as the subscribe asked) and account
 * streams (the transactions affecting the accounts named). Messages come in ledger order: each
 * ledger's ledgerClosed, then its transactions by TransactionIndex (rippled NetworkOPs::pubLedger).
 *
 * Beyond rippled, `from_ledger: N` on a connection's first subscribe resumes a client that lost its
 * connection: it gets every ledger after N from the store, then the live ones, none missing and none
 * twice. A resume point the store cannot serve without a gap is refused (lgrNotFound).
 */
import type { ChainProfile } from '@ledger-node/chain';
import { isLedgerNodeError } from '@ledger-node/errors';
import {
  invalidField,
  ledgerStreamFields,
  readStreamAccounts,
  RpcError,
  transactionStreamMessage,
  type ApiVersion,
  type JsonObject,
} from '@ledger-node/rippled-api';
import type { Logger } from '@ledger-node/telemetry';
import type { CatchUpTicket } from '../streams/catch-up';
import { countSubscribers } from '../streams/connection';
import { Feed } from '../streams/feed';
import type { LedgerFollower } from '../streams/follower';
import type { StreamLedger, StreamTransaction } from '../streams/stream-ledger';

/**
 * Streams served here. The node follows validated ledgers only: `transactions_proposed` (and its
 * old name `rt_transactions`) carry the validated transactions, as they would after validation on
 * rippled. `server` answers the subscription with the server's state and load (clients such as
 * @swtc/lib read it to call a server online); its serverStatus messages, which rippled sends when
 * its load changes, never come: the node's load factor does not change.
 */
const servedStreams = ['ledger', 'transactions', 'transactions_proposed', 'rt_transactions', 'server'] as const;
type ServedStream = (typeof servedStreams)[number];

/** Streams rippled has that a node without consensus or peers cannot carry. */
const unservedStreams = new Set(['validations', 'manifests', 'peer_status', 'consensus', 'book_changes']);

const transactionStreams: ReadonlySet<ServedStream> = new Set(['transactions', 'transactions_proposed', 'rt_transactions']);

/** rippled's load base; the node's load factor is always the base (no fee escalation of its own). */
const LOAD_BASE = 256;

/** Most accounts one connection may follow. */
export const MAX_ACCOUNTS_PER_CONNECTION = 1_000;

const tooManyAccounts = () => new RpcError('invalidParams', `A connection may follow at most ${MAX_ACCOUNTS_PER_CONNECTION} accounts.`);

/** The chain facts the streams render with. */
export interface StreamChain {
  readonly profile: ChainProfile;
  /** -network_id; the ledger stream states none when undefined. */
  readonly networkId: number | undefined;
}

/** What a `server` subscription is answered with (rippled NetworkOPs subServer): the state and a constant load. */
export interface ServerFacts {
  /** rippled's server_state: "full" when level with the network, else "syncing" or "connected". */
  serverStatus(): Promise<string>;
  /** Random per process, so that a client can tell whether two connections reach the same server. */
  readonly random: string;
}

interface Subscription {
  streams: ServedStream[];
  accounts: string[];
}

function isServedStream(name: string): name is ServedStream {
  return (servedStreams as readonly string[]).includes(name);
}

/** The streams and accounts a subscribe/unsubscribe names (rippled doSubscribe's checks and errors). */
export function readSubscription(request: JsonObject, profile: ChainProfile, accountsRoom?: { most: number; refusal: () => RpcError }): Subscription {
  const streams: ServedStream[] = [];
  if (request.streams !== undefined) {
    if (!Array.isArray(request.streams)) throw invalidField('streams', 'an array');
    for (const name of request.streams) {
      if (typeof name !== 'string') throw new RpcError('malformedStream');
      if (unservedStreams.has(name)) {
        throw new RpcError('notSupported', `The '${name}' stream is not served: this node follows validated ledgers from its store.`);
      }
      if (!isServedStream(name)) throw new RpcError('malformedStream');
      streams.push(name);
    }
  }
  const accounts = readStreamAccounts(request, profile, accountsRoom);
  if (request.books !== undefined) throw new RpcError('notSupported', 'Order book streams are not served by this node.');
  if (request.url !== undefined) throw new RpcError('notSupported', 'Subscriptions by URL are not served: subscribe over a WebSocket connection.');
  return { streams, accounts };
}

/** `from_ledger`: the last ledger the client saw (an unsigned 32-bit ledger index), when given. */
export function readFromLedger(request: JsonObject): number | undefined {
  const value = request.from_ledger;
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw invalidField('from_ledger', 'an unsigned integer (the last ledger index the client saw)');
  }
  return value;
}

/** The ledgerClosed message of a ledger (the same for every subscriber and API version). */
export function ledgerClosedText(ledger: StreamLedger, chain: StreamChain): string {
  return ledger.memo('rippled ledgerClosed', () =>
    JSON.stringify({
      type: 'ledgerClosed',
      ...ledgerStreamFields({ place: ledger.place, fees: ledger.fees, networkId: chain.networkId, validatedLedgers: ledger.validatedLedgers }),
      txn_count: ledger.transactions.length,
    }),
  );
}

/** The `transaction` message of one of a ledger's transactions in an API version's shape. */
export function transactionText(ledger: StreamLedger, tx: StreamTransaction, apiVersion: ApiVersion, chain: StreamChain): string {
  return ledger.memo(`rippled transaction ${tx.record.txIndex} v${apiVersion}`, () =>
    JSON.stringify(transactionStreamMessage(chain.profile, ledger.place, tx.input, apiVersion)),
  );
}

export interface SubscribeOutcome {
  result: JsonObject;
  /** Begins the messages; called once the answer has been sent, so that it comes first. */
  start?: () => void;
}

/** One connection's subscriptions. */
export class RippledSubscriptions {
  private readonly streams = new Set<ServedStream>();
  private readonly accounts = new Set<string>();
  private apiVersion: ApiVersion = 1;
  private feed: Feed<StreamLedger> | undefined;
  /** Subscription changes of one connection run one after the other (a client may send several at once). */
  private changes: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly follower: LedgerFollower,
    private readonly chain: StreamChain,
    /** `peer`: the client's address, whose resumes catching up at once are bounded (streams/catch-up.ts). */
    private readonly connection: { readonly peer: string; send(text: string, stream: boolean): boolean; drained(): Promise<void> },
    private readonly logger: Logger,
    private readonly server: ServerFacts,
  ) {}

  subscribe(request: JsonObject, apiVersion: ApiVersion): Promise<SubscribeOutcome> {
    return this.inTurn(() => this.applySubscribe(request, apiVersion));
  }

  unsubscribe(request: JsonObject): Promise<JsonObject> {
    return this.inTurn(async () => {
      const { streams, accounts } = readSubscription(request, this.chain.profile, { most: MAX_ACCOUNTS_PER_CONNECTION - this.accounts.size, refusal: tooManyAccounts });
      this.counted(() => {
        for (const stream of streams) this.streams.delete(stream);
        for (const account of accounts) this.accounts.delete(account);
      });
      if (this.streams.size === 0 && this.accounts.size === 0) this.stopFeed();
      return {};
    });
  }

  /** What the connection subscribes to, as ledger_node_stream_subscribers counts it: each stream, and `accounts` while it follows any. */
  private subscribed(): Set<string> {
    const subscribed = new Set<string>(this.streams);
    if (this.accounts.size > 0) subscribed.add('accounts');
    return subscribed;
  }

  /** Makes a change to the streams and accounts, and counts the subscribers it adds or removes. */
  private counted(change: () => void): void {
    const before = this.subscribed();
    change();
    const after = this.subscribed();
    for (const stream of after) if (!before.has(stream)) countSubscribers('rippled', stream, 1);
    for (const stream of before) if (!after.has(stream)) countSubscribers('rippled', stream, -1);
  }

  private inTurn<T>(change: () => Promise<T>): Promise<T> {
    const done = this.changes.then(() => change());
    this.changes = done.catch(() => undefined);
    return done;
  }

  private async applySubscribe(request: JsonObject, apiVersion: ApiVersion): Promise<SubscribeOutcome> {
    const { streams, accounts } = readSubscription(request, this.chain.profile, { most: MAX_ACCOUNTS_PER_CONNECTION - this.accounts.size, refusal: tooManyAccounts });
    const fromLedger = readFromLedger(request);
    if (fromLedger !== undefined) {
      if (streams.length === 0 && accounts.length === 0) throw new RpcError('invalidParams', "'from_ledger' needs streams or accounts to resume.");
      if (this.feed) {
        throw new RpcError('invalidParams', "'from_ledger' applies to a connection's first subscription; this connection follows ledgers already.");
      }
      await this.follower.checkResume(fromLedger, 'rippled').catch(rethrowAsRippled);
    }
    const wantsLedger = streams.includes('ledger');
    const needsFeed = !this.feed && (streams.some((stream) => stream !== 'server') || accounts.length > 0);
    // Admitted last among the checks that may refuse, and released if anything after it fails.
    const resume: CatchUpTicket | undefined = fromLedger !== undefined && needsFeed ? this.follower.admitResume(this.connection.peer, 'rippled') : undefined;
    try {
      const current = wantsLedger || needsFeed ? await this.follower.current().catch(rethrowAsRippled) : undefined;

      // rippled keeps the API version of a subscriber's latest subscribe for all its messages.
      this.apiVersion = apiVersion;
      // A connection that closed while this subscribe was read subscribes to nothing.
      if (!this.closed) {
        this.counted(() => {
          for (const stream of streams) this.streams.add(stream);
          for (const account of accounts) this.accounts.add(account);
        });
      }
      // rippled answers a `ledger` subscription with the newest validated ledger.
      const result: JsonObject =
        wantsLedger && current
          ? ledgerStreamFields({ place: current.place, fees: current.fees, networkId: this.chain.networkId, validatedLedgers: current.validatedLedgers })
          : {};
      if (streams.includes('server')) {
        Object.assign(result, { load_base: LOAD_BASE, load_factor: LOAD_BASE, random: this.server.random, server_status: await this.server.serverStatus() });
      }
      if (!needsFeed) return { result };
      const feed = new Feed<StreamLedger>(this.follower, {
        deliver: (ledger) => this.deliver(ledger),
        drained: () => this.connection.drained(),
        logger: this.logger,
        resume,
      });
      // The connection closed while this subscribe was read: the feed ends before it begins.
      if (this.closed) feed.stop();
      else this.feed = feed;
      return { result, start: () => feed.start(fromLedger ?? current?.ledgerIndex) };
    } catch (error) {
      resume?.release();
      throw error;
    }
  }

  close(): void {
    this.closed = true;
    this.counted(() => {
      this.streams.clear();
      this.accounts.clear();
    });
    this.stopFeed();
  }

  private stopFeed(): void {
    this.feed?.stop();
    this.feed = undefined;
  }

  private deliver(ledger: StreamLedger): void {
    if (this.streams.has('ledger') && !this.connection.send(ledgerClosedText(ledger, this.chain), true)) return;
    let allTransactions = false;
    for (const stream of this.streams) if (transactionStreams.has(stream)) allTransactions = true;
    if (!allTransactions && this.accounts.size === 0) return;
    for (const tx of ledger.transactions) {
      if (!allTransactions && !tx.affectsAny(this.accounts)) continue;
      if (!this.connection.send(transactionText(ledger, tx, this.apiVersion, this.chain), true)) return;
    }
  }
}

/** A store refusal in rippled's terms: a resume point or ledger out of the stored range is lgrNotFound. */
function rethrowAsRippled(error: unknown): never {
  if (isLedgerNodeError(error) && error.kind === 'out_of_range') throw new RpcError('lgrNotFound', error.message);
  throw error;
}
