/**
 * One connection's subscriptions (rippled `subscribe`): the `ledger` stream (ledgerClosed
 * messages), the `validations` stream (each validator's validation of each ledger, see
 * network/network.ts), the `transactions` stream and per-account transaction messages. Messages follow
 * the API version of the subscribe request, as rippled keeps it per subscriber.
 */
import { errorFields, formatRanges, ledgerStreamFields as streamFields, placeOf, transactionStreamMessage, type ApiVersion } from '@ledger-node/rippled-api';
import type { ClosedLedger, ClosedTransaction, JsonObject } from '../engine/types';
import type { DevnetNetwork } from '../network/network';
import { affectedAccountsOf } from './account-tx-index';
import type { LedgerSource } from './ledger-source';
import { DEVNET_RENDER_STYLE, rendered } from './methods/context';

/** Streams rippled accepts; only `ledger`, `validations` and the transaction streams carry messages here. */
export const knownStreams = [
  'ledger',
  'transactions',
  'transactions_proposed',
  'rt_transactions',
  'server',
  'validations',
  'manifests',
  'peer_status',
  'consensus',
  'book_changes',
] as const;
export type StreamName = (typeof knownStreams)[number];

export function isStreamName(value: unknown): value is StreamName {
  return typeof value === 'string' && (knownStreams as readonly string[]).includes(value);
}

const transactionStreams = new Set<StreamName>(['transactions', 'transactions_proposed', 'rt_transactions']);

/** The fields of the `ledger` stream shared by the subscribe answer and ledgerClosed messages. */
export function ledgerStreamFields(source: LedgerSource, ledger: ClosedLedger): JsonObject {
  return streamFields({
    place: placeOf(ledger),
    fees: source.fees,
    networkId: source.networkId,
    validatedLedgers: formatRanges(source.completeRanges()),
  });
}

/** rippled writes a validation's `ledger_index` as a string for API v1, a number from v2 on. */
export function validationForApi(message: JsonObject, apiVersion: ApiVersion): JsonObject {
  return apiVersion === 1 ? { ...message, ledger_index: String(message.ledger_index) } : message;
}

export function transactionMessage(source: LedgerSource, ledger: ClosedLedger, tx: ClosedTransaction, apiVersion: ApiVersion): JsonObject {
  return transactionStreamMessage(source.profile, placeOf(ledger), rendered(tx, source.profile), apiVersion, DEVNET_RENDER_STYLE);
}

/** A connection's path request (rippled InfoSub holds one): its create's id, and how to find its paths again. */
interface PathRequest {
  /** Its number among the devnet's path requests, from 1. */
  number: number;
  id: unknown;
  find(): JsonObject;
  /** The newest answer: the create's, then each update's. */
  last: JsonObject;
}

/** Path requests open on all connections, and opened since the devnet started, for the log (a closed connection leaves none open). */
let openPathRequests = 0;
let pathRequestsOpened = 0;

export class Subscriber {
  private readonly streams = new Set<StreamName>();
  private pathRequest: PathRequest | undefined;
  private readonly accounts = new Set<string>();
  private apiVersion: ApiVersion = 1;
  private stopFollowing: (() => void) | undefined;

  constructor(
    private readonly source: LedgerSource,
    private readonly network: DevnetNetwork,
    private readonly send: (message: JsonObject) => void,
  ) {}

  subscribe(streams: readonly StreamName[], accounts: readonly string[], apiVersion: ApiVersion): void {
    this.apiVersion = apiVersion;
    // The validations of the newest ledger at once: a devnet whose replay has ended closes no more
    // ledgers, so a subscriber would otherwise never see one (a live network validates every few seconds).
    const validated = this.source.validatedLedger();
    if (streams.includes('validations') && !this.streams.has('validations') && validated) {
      queueMicrotask(() => this.sendValidations(validated));
    }
    for (const stream of streams) this.streams.add(stream);
    for (const account of accounts) this.accounts.add(account);
    this.updateFollowing();
  }

  unsubscribe(streams: readonly StreamName[], accounts: readonly string[]): void {
    for (const stream of streams) this.streams.delete(stream);
    for (const account of accounts) this.accounts.delete(account);
    this.updateFollowing();
  }

  close(): void {
    this.streams.clear();
    this.accounts.clear();
    this.closePathRequest();
    this.updateFollowing();
  }

  /** rippled path_find create: the connection's path request (replacing any), updated on each closed ledger; answers the first answer. */
  openPathRequest(id: unknown, find: () => JsonObject): JsonObject {
    const first = find();
    this.closePathRequest();
    openPathRequests++;
    this.pathRequest = { number: ++pathRequestsOpened, id, find, last: first };
    this.onPathRequests?.('opened', this.pathRequest.number, openPathRequests);
    this.updateFollowing();
    return first;
  }

  /** rippled path_find status: the request's paths found again; undefined when none is open. */
  pathRequestStatus(): JsonObject | undefined {
    const request = this.pathRequest;
    if (!request) return undefined;
    request.last = request.find();
    return request.last;
  }

  /** rippled path_find close: the request's last answer; undefined when none is open. */
  closePathRequest(): JsonObject | undefined {
    const request = this.pathRequest;
    if (!request) return undefined;
    this.pathRequest = undefined;
    openPathRequests--;
    this.onPathRequests?.('closed', request.number, openPathRequests);
    this.updateFollowing();
    return request.last;
  }

  /** Hears each path request opened or closed (its number), and how many are open on the devnet after it. */
  onPathRequests: ((event: 'opened' | 'closed', number: number, open: number) => void) | undefined;

  private wantsLedgers(): boolean {
    return this.pathRequest !== undefined || this.streams.has('ledger') || this.streams.has('validations') || this.wantsAllTransactions() || this.accounts.size > 0;
  }

  private wantsAllTransactions(): boolean {
    for (const stream of this.streams) if (transactionStreams.has(stream)) return true;
    return false;
  }

  private updateFollowing(): void {
    if (this.wantsLedgers() && !this.stopFollowing) {
      this.stopFollowing = this.source.followLedgers((ledger) => this.publish(ledger));
    } else if (!this.wantsLedgers() && this.stopFollowing) {
      this.stopFollowing();
      this.stopFollowing = undefined;
    }
  }

  /** rippled NetworkOPs::pubLedger: the ledgerClosed message first, then the ledger's transactions. */
  private publish(ledger: ClosedLedger): void {
    if (this.pathRequest) this.updatePathRequest(this.pathRequest);
    if (this.streams.has('validations')) this.sendValidations(ledger);
    if (this.streams.has('ledger')) {
      this.send({ type: 'ledgerClosed', ...ledgerStreamFields(this.source, ledger), txn_count: ledger.transactions.length });
    }
    const allTransactions = this.wantsAllTransactions();
    if (!allTransactions && this.accounts.size === 0) return;
    for (const tx of [...ledger.transactions].sort((a, b) => a.index - b.index)) {
      if (allTransactions || this.affectsSubscribedAccount(tx)) {
        this.send(transactionMessage(this.source, ledger, tx, this.apiVersion));
      }
    }
  }

  /** rippled PathRequest::doUpdate after a ledger closed: the request's paths found again, sent as a `path_find` message with its create's id. */
  private updatePathRequest(request: PathRequest): void {
    try {
      request.last = request.find();
    } catch (error) {
      // An account the request names went away: rippled reports the error in the update.
      const fields = errorFields(error);
      if (!fields) throw error;
      request.last = fields;
    }
    this.send({ ...request.last, type: 'path_find', ...(request.id === undefined ? {} : { id: request.id }) });
  }

  private sendValidations(ledger: ClosedLedger): void {
    const validations = this.network.validations({ ledgerIndex: ledger.header.ledgerIndex, hash: ledger.hash, closeTime: ledger.header.closeTime });
    for (const message of validations) this.send(validationForApi(message, this.apiVersion));
  }

  private affectsSubscribedAccount(tx: ClosedTransaction): boolean {
    for (const account of affectedAccountsOf(tx, this.source.profile)) if (this.accounts.has(account)) return true;
    return false;
  }
}
