import {
  TxDetail,
  type GetAccountStateResponse,
  type GetAccountTransactionCountResponse,
  type GetAccountTransactionsRequest,
  type GetAccountTransactionsResponse,
  type GetLedgerEvidenceResponse,
  type GetNftRequest,
  type GetNftResponse,
  type GetNftTransactionsRequest,
  type GetNftTransactionsResponse,
  type GetStateObjectsResponse,
  type GetStatusResponse,
  type LedgerRecord,
  type ListStateObjectsRequest,
  type ListStateObjectsResponse,
  type LedgerSelector,
  type TransactionRecord,
} from '@ledger-node/contracts';
import { Internal } from '@ledger-node/errors';
import { fromItemError } from '@ledger-node/grpc';
import { LRUCache } from 'lru-cache';
import type { Clients } from '../clients';
import type { TipCache } from '../tip';
import type { AnswerCache } from './answer-cache';
import { Batcher } from './batcher';
import { RenderedJson } from './rendered-json';

/** Keys per GetTransactions / GetAccountStates call (ledgerstore.proto allows 1000). */
const MAX_KEYS_PER_CALL = 1000;
/** Ledgers read whole (and their evidence) kept for the proofs of their other transactions. */
const RECENT_LEDGERS_KEPT = 8;
/** The ledgers known to have no evidence of their own (a stored ledger's evidence comes with its first write or never). */
const WITHOUT_EVIDENCE_KEPT = 65_536;
/** Ledgers per GetLedgerRange call (ledgerstore.proto allows 256). */
const MAX_LEDGERS_PER_RANGE = 256;

const atIndex = (index: number): LedgerSelector => ({ selector: { $case: 'index', index } });

/**
 * `read`'s answer for `key`, read once for the calls that ask together or soon after: kept while
 * recent, what never changes once stored. A failed read, or nothing stored, is read again next time.
 */
function recent<V>(cache: LRUCache<number, Promise<V>>, key: number, read: () => Promise<V>): Promise<V> {
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const reading = read();
  cache.set(key, reading);
  const forget = () => {
    if (cache.get(key) === reading) cache.delete(key);
  };
  reading.then((value) => value === undefined && forget(), forget);
  return reading;
}

/**
 * The facade's one way of reading the chain, under every API (jt_* JSON-RPC, REST, the
 * rippled-compatible API): each query names what it reads in the store's terms and answers the
 * store's records, which each API renders its own way. The reads that many calls make at once
 * (transactions by hash, account state) are gathered per event-loop turn into one gRPC call: a
 * batch of 100 lookups, or 50 clients asking together, costs one hop instead of one each. Errors
 * are the store's (libs/errors kinds), for each API to name in its own terms. Rendered answers
 * that never change are kept by `kept`.
 */
export class Queries {
  private readonly transactions: Batcher<Buffer, TransactionRecord | undefined>;
  private readonly accountStates: Batcher<{ accountId: Buffer; ledger: LedgerSelector }, GetAccountStateResponse>;
  private readonly wholeLedgers = new LRUCache<number, Promise<LedgerRecord | undefined>>({ max: RECENT_LEDGERS_KEPT });
  private readonly evidences = new LRUCache<number, Promise<GetLedgerEvidenceResponse>>({ max: RECENT_LEDGERS_KEPT });
  private readonly withoutEvidence = new LRUCache<number, GetLedgerEvidenceResponse>({ max: WITHOUT_EVIDENCE_KEPT });

  constructor(
    private readonly clients: Clients,
    private readonly tip: TipCache,
    private readonly answers: AnswerCache,
    /** Answers rendered ahead for the newest ledgers (hot-set.ts), looked up after `answers`. */
    readonly hot?: AnswerCache,
  ) {
    const store = clients.ledgerStore;
    this.transactions = new Batcher<Buffer, TransactionRecord | undefined>('ledger-store GetTransactions', MAX_KEYS_PER_CALL, async (hashes) => {
      const { transactions } = await store.getTransactions({ hashes });
      const byHash = new Map(transactions.map((record) => [record.hash.toString('hex'), record]));
      return hashes.map((hash) => byHash.get(hash.toString('hex')));
    });
    this.accountStates = new Batcher<{ accountId: Buffer; ledger: LedgerSelector }, GetAccountStateResponse>('ledger-store GetAccountStates', MAX_KEYS_PER_CALL, async (requests) => {
      const { results } = await store.getAccountStates({ requests });
      return results.map(({ result }) => {
        if (result?.$case === 'state') return result.state;
        if (result?.$case === 'error') return fromItemError(result.error);
        return new Internal('the ledger-store answered a read with neither a state nor an error');
      });
    });
  }

  /** A stored ledger with as much of its transactions as `detail` asks; undefined when it is not stored. */
  async ledger(ledger: LedgerSelector, txDetail: TxDetail): Promise<LedgerRecord | undefined> {
    return (await this.clients.ledgerStore.getLedger({ ledger, txDetail })).ledger;
  }

  /**
   * A stored ledger with every transaction, by index, read once for the proofs of its transactions
   * asked together or soon after (the last few are kept: a stored ledger never changes); undefined
   * when it is not stored.
   */
  wholeLedger(ledgerIndex: number): Promise<LedgerRecord | undefined> {
    return recent(this.wholeLedgers, ledgerIndex, () => this.ledger(atIndex(ledgerIndex), TxDetail.FULL));
  }

  /**
   * The network's proof of a stored ledger (its evidence absent when it was proven another way,
   * taken with the ledger's first write only), kept as wholeLedger is; NotFound when it is not stored.
   */
  ledgerEvidence(ledgerIndex: number): Promise<GetLedgerEvidenceResponse> {
    const without = this.withoutEvidence.get(ledgerIndex);
    if (without) return Promise.resolve(without);
    return recent(this.evidences, ledgerIndex, async () => {
      const answer = await this.clients.ledgerStore.getLedgerEvidence({ ledger: atIndex(ledgerIndex) });
      if (!answer.evidence) this.withoutEvidence.set(ledgerIndex, answer);
      return answer;
    });
  }

  /**
   * The stored ledgers' headers (no transactions) from `first` on, consecutive, up to `last`, in
   * as few GetLedgerRange calls as their size allows, and which of them have evidence of their
   * own; the list ends before a ledger that is not stored.
   */
  async ledgerRange(first: number, last: number): Promise<{ ledgers: LedgerRecord[]; evidenced: number[] }> {
    const ledgers: LedgerRecord[] = [];
    const evidenced: number[] = [];
    for (let from = first; from <= last; ) {
      const asked = Math.min(last, from + MAX_LEDGERS_PER_RANGE - 1);
      const answer = await this.clients.ledgerStore.getLedgerRange({ first: from, last: asked, txDetail: TxDetail.NONE });
      ledgers.push(...answer.ledgers);
      evidenced.push(...answer.evidenced);
      const next = from + answer.ledgers.length;
      if (answer.ledgers.length === 0 || (next <= asked && !answer.truncated)) break;
      from = next;
    }
    return { ledgers, evidenced };
  }

  /** A stored transaction by hash; undefined when it is not stored. */
  transaction(hash: Buffer): Promise<TransactionRecord | undefined> {
    return this.transactions.load(hash);
  }

  /** The transaction at a position of a stored ledger; undefined when there is none. */
  async transactionAt(ledger: LedgerSelector, txIndex: number): Promise<TransactionRecord | undefined> {
    return (await this.clients.ledgerStore.getTransactionByIndex({ ledger, txIndex })).transaction;
  }

  /** An account's root (absent when the account did not exist) and trust lines at a stored ledger inside the state window. */
  accountState(accountId: Buffer, ledger: LedgerSelector): Promise<GetAccountStateResponse> {
    return this.accountStates.load({ accountId, ledger });
  }

  /** One page of an account's transactions. */
  accountTransactions(request: GetAccountTransactionsRequest): Promise<GetAccountTransactionsResponse> {
    return this.clients.ledgerStore.getAccountTransactions(request);
  }

  /** An NFToken as of a stored ledger, from the NFT index (NOT_FOUND when no stored ledger changed it). */
  nft(request: GetNftRequest): Promise<GetNftResponse> {
    return this.clients.ledgerStore.getNft(request);
  }

  /** One page of the transactions that touched an NFToken. */
  nftTransactions(request: GetNftTransactionsRequest): Promise<GetNftTransactionsResponse> {
    return this.clients.ledgerStore.getNftTransactions(request);
  }

  /** How many transactions an account sent up to a ledger, and over which stored history. */
  accountSentCount(accountId: Buffer, ledger: LedgerSelector): Promise<GetAccountTransactionCountResponse> {
    return this.clients.ledgerStore.getAccountTransactionCount({ accountId, ledger });
  }

  /** State objects by key at a stored ledger inside the state window, in the order asked (no blob where none exists). */
  stateObjects(keys: Buffer[], ledger: LedgerSelector): Promise<GetStateObjectsResponse> {
    return this.clients.ledgerStore.getStateObjects({ keys, ledger });
  }

  /** A page of the state at a ledger in key order, between two keys (either bound empty for none). */
  listState(request: ListStateObjectsRequest): Promise<ListStateObjectsResponse> {
    return this.clients.ledgerStore.listStateObjects(request);
  }

  /** What the store holds: complete ranges, counts, the state window, its role. */
  status(): Promise<GetStatusResponse> {
    return this.clients.ledgerStore.getStatus({});
  }

  /** The highest stored ledger, followed live (no round trip while the store's stream is up). */
  highestLedgerIndex(): Promise<number> {
    return this.tip.highestLedgerIndex();
  }

  /**
   * An answer that never changes once given, rendered once and then served from the cache under
   * `key`: what `render` answers from validated ledgers named by index or hash. Undefined (nothing
   * stored yet) is never kept: it may be stored in the next ledger; nor is an answer `keep` refuses
   * (one that may be answered better later).
   */
  async kept<T>(key: string, render: () => Promise<T | undefined>, keep: (value: T) => boolean = () => true): Promise<RenderedJson<T> | undefined> {
    const cached = this.answers.get(key);
    if (cached !== undefined) return new RenderedJson<T>(cached);
    const ahead = this.hot?.get(key);
    if (ahead !== undefined) {
      // Asked for: kept with the answers asked for, past the few newest ledgers the hot set holds.
      this.answers.set(key, ahead);
      return new RenderedJson<T>(ahead);
    }
    const value = await render();
    if (value === undefined) return undefined;
    const answer = RenderedJson.of(value);
    if (keep(value)) this.answers.set(key, answer.json);
    return answer;
  }
}
