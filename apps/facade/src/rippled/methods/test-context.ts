/**
 * A method context over an in-memory chain for the rippled methods' unit tests: real ledgers,
 * transactions and state objects (binary, as the store holds them) from the repository's
 * fixtures, answered through the query layer's shape.
 */
import { createHash } from 'node:crypto';
import {
  encodeLedgerHeader,
  getProfile,
  hashTransaction,
  indexTransaction,
  keylet,
  ledgerHeaderFromJson,
  stateEntryFromLedgerJson,
  transactionFromLedgerJson,
  type ChainProfile,
} from '@ledger-node/chain';
import {
  LedgerTag,
  TxDetail,
  type GetAccountTransactionsRequest,
  type GetNftRequest,
  type GetNftTransactionsRequest,
  type GetSyncStatusResponse,
  type LedgerRecord,
  type LedgerSelector,
  type ManifestDetails,
  type TransactionRecord,
} from '@ledger-node/contracts';
import { InvalidParams, NotFound, OutOfRange } from '@ledger-node/errors';
import { notationOf, rippledNotation, type ApiVersion, type FeeSchedule } from '@ledger-node/rippled-api';
import { readFixture } from '@ledger-node/test-utils';
import type { RippledContext, RippledRequest } from '../method';
import { AnswerCache } from '../../queries/answer-cache';
import { Queries } from '../../queries/queries';

export interface FixtureLedger {
  /** rippled's `ledger` JSON: header fields, `transactions` (expanded) and `accountState`. */
  ledger: Record<string, any>;
}

interface StoredLedger {
  record: LedgerRecord;
  /** Object key (hex) → blob, the state after this ledger; absent when the state is not held. */
  state?: Map<string, Buffer>;
}

const bytes = (hex: string) => Buffer.from(hex, 'hex');
const hexOf = (buffer: Buffer) => buffer.toString('hex').toUpperCase();

export interface TestChainOptions {
  profile: ChainProfile;
  ledgers: FixtureLedger[];
  /** Ledgers whose state is held (all by default). */
  stateHeld?: (ledgerIndex: number) => boolean;
  sync?: Partial<GetSyncStatusResponse>;
  submitted?: { engineResult: string; engineResultMessage: string; accepted: boolean } | Error;
  /** -network_id (none by default). */
  networkId?: number;
  /** What the submission service's Forward answers (an empty result by default), or throws. */
  forwarded?: { answerJson: string; error: boolean } | Error;
  /** The manifests sync follows. */
  manifests?: ManifestDetails[];
}

/**
 * A page of a transaction history in ledger order (`matching`, oldest first), as the store pages
 * one: newest first unless `forward`, after the transaction the 8-byte marker (ledger index,
 * transaction index) names, with the marker of the next page when more are left.
 */
function historyPage(matching: TransactionRecord[], forward: boolean, after: Buffer | undefined, limit: number): { transactions: TransactionRecord[]; marker: Buffer } {
  let left = forward ? matching : [...matching].reverse();
  if (after !== undefined) left = left.slice(left.findIndex((tx) => tx.ledgerIndex === after.readUInt32BE(0) && tx.txIndex === after.readUInt32BE(4)) + 1);
  const page = left.slice(0, limit);
  const marker = Buffer.alloc(left.length > limit ? 8 : 0);
  if (marker.length > 0) {
    marker.writeUInt32BE(page.at(-1)!.ledgerIndex, 0);
    marker.writeUInt32BE(page.at(-1)!.txIndex, 4);
  }
  return { transactions: page, marker };
}

export class TestChain {
  readonly ledgers = new Map<number, StoredLedger>();
  readonly submittedBlobs: Buffer[] = [];
  readonly forwards: { command: string; paramsJson: string; apiVersion: number }[] = [];
  sendsTaken = 0;
  readonly context: RippledContext;

  constructor(readonly options: TestChainOptions) {
    const { profile } = options;
    for (const { ledger } of options.ledgers) {
      const header = ledgerHeaderFromJson(ledger);
      const ledgerHash = bytes(ledger.ledger_hash ?? ledger.hash);
      const transactions: TransactionRecord[] = (ledger.transactions ?? []).map((tx: Record<string, any>) => {
        const { hash, txBlob, metaBlob } = transactionFromLedgerJson(tx, profile);
        const meta = tx.metaData ?? tx.meta;
        return {
          hash: bytes(hash),
          txBlob: bytes(txBlob),
          metaBlob: bytes(metaBlob),
          ledgerIndex: header.ledgerIndex,
          txIndex: meta.TransactionIndex,
          ledgerHash,
          closeTimeRippleEpoch: header.closeTime,
        };
      });
      transactions.sort((a, b) => a.txIndex - b.txIndex);
      const state = ledger.accountState
        ? new Map<string, Buffer>(
            (ledger.accountState as Record<string, any>[]).map((entry) => {
              const { index, blob } = stateEntryFromLedgerJson(entry, profile);
              return [index, bytes(blob)];
            }),
          )
        : undefined;
      this.ledgers.set(header.ledgerIndex, {
        record: {
          ledgerIndex: header.ledgerIndex,
          ledgerHash,
          headerBlob: encodeLedgerHeader(header),
          transactionCount: transactions.length,
          transactionHashes: transactions.map((tx) => tx.hash),
          transactions,
        },
        state: options.stateHeld && !options.stateHeld(header.ledgerIndex) ? undefined : state,
      });
    }
    this.context = this.makeContext();
  }

  private find(selector: LedgerSelector): StoredLedger | undefined {
    const chosen = selector.selector;
    if (!chosen) throw new InvalidParams('a selector is required', 'ledger');
    if (chosen.$case === 'index') return this.ledgers.get(chosen.index);
    if (chosen.$case === 'hash') return [...this.ledgers.values()].find((stored) => stored.record.ledgerHash.equals(chosen.hash));
    const indexes = [...this.ledgers.keys()].sort((a, b) => a - b);
    const index = chosen.tag === LedgerTag.EARLIEST ? indexes[0] : indexes.at(-1);
    return index === undefined ? undefined : this.ledgers.get(index);
  }

  private stateOf(selector: LedgerSelector): { stored: StoredLedger; state: Map<string, Buffer> } {
    const stored = this.find(selector);
    if (!stored) throw new OutOfRange('the ledger asked for is not stored');
    if (!stored.state) throw new OutOfRange(`ledger ${stored.record.ledgerIndex} is outside the ledgers whose account state is stored`, { ledger_index: stored.record.ledgerIndex });
    return { stored, state: stored.state };
  }

  private sortedKeys(state: Map<string, Buffer>): string[] {
    return [...state.keys()].sort();
  }

  private allTransactions(): TransactionRecord[] {
    return [...this.ledgers.values()].flatMap((stored) => stored.record.transactions);
  }

  private makeContext(): RippledContext {
    const chain = this;
    const { profile } = this.options;
    const withDetail = (record: LedgerRecord, detail: TxDetail): LedgerRecord => ({
      ...record,
      transactionHashes: detail === TxDetail.HASHES || detail === TxDetail.FULL ? record.transactionHashes : [],
      transactions: detail === TxDetail.FULL ? record.transactions : [],
    });
    const list = (request: { ledgerIndex: number; afterKey?: Buffer; beforeKey?: Buffer; limit: number }) => {
      const { state } = chain.stateOf({ selector: { $case: 'index', index: request.ledgerIndex } });
      const after = request.afterKey && request.afterKey.length > 0 ? hexOf(request.afterKey) : undefined;
      const before = request.beforeKey && request.beforeKey.length > 0 ? hexOf(request.beforeKey) : undefined;
      const keys = chain.sortedKeys(state).filter((key) => (after === undefined || key > after) && (before === undefined || key < before));
      const limit = request.limit === 0 ? 4096 : request.limit;
      const page = keys.slice(0, limit);
      return {
        objects: page.map((key) => ({ key: bytes(key), blob: state.get(key)!, ledgerEntryType: '', ownerAccountIds: [] })),
        nextAfterKey: keys.length > limit ? bytes(page.at(-1)!) : Buffer.alloc(0),
      };
    };
    const queries: Record<string, unknown> = {
      async ledger(selector: LedgerSelector, detail: TxDetail) {
        const stored = chain.find(selector);
        return stored && withDetail(stored.record, detail);
      },
      async wholeLedger(ledgerIndex: number) {
        return chain.find({ selector: { $case: 'index', index: ledgerIndex } })?.record;
      },
      async transaction(hash: Buffer) {
        return chain.allTransactions().find((tx) => tx.hash.equals(hash));
      },
      async transactionAt(selector: LedgerSelector, txIndex: number) {
        return chain.find(selector)?.record.transactions.find((tx) => tx.txIndex === txIndex);
      },
      async accountState(accountId: Buffer, selector: LedgerSelector) {
        const { stored, state } = chain.stateOf(selector);
        const address = profile.codec.encodeAccountId(accountId);
        const trustLineBlobs = chain
          .sortedKeys(state)
          .map((key) => state.get(key)!)
          .filter((blob) => {
            const json = profile.codec.decode(hexOf(blob));
            return json.LedgerEntryType === profile.trustLineEntryType && (json.LowLimit.issuer === address || json.HighLimit.issuer === address);
          });
        return {
          accountRootBlob: state.get(keylet.account(accountId)),
          trustLineBlobs,
          ledgerIndex: stored.record.ledgerIndex,
          ledgerHash: stored.record.ledgerHash,
        };
      },
      async accountTransactions(request: GetAccountTransactionsRequest) {
        const address = profile.codec.encodeAccountId(request.accountId);
        const range = request.ledgerRange;
        const matching = chain
          .allTransactions()
          .filter((tx) => !range || (tx.ledgerIndex >= range.first && tx.ledgerIndex <= range.last))
          .filter((tx) => JSON.stringify([profile.codec.decode(hexOf(tx.txBlob)), profile.codec.decode(hexOf(tx.metaBlob))]).includes(`"${address}"`))
          .filter((tx) => request.transactionType === '' || profile.codec.decode(hexOf(tx.txBlob)).TransactionType === request.transactionType)
          .sort((a, b) => a.ledgerIndex - b.ledgerIndex || a.txIndex - b.txIndex);
        return historyPage(matching, request.forward, request.position?.$case === 'marker' ? request.position.marker : undefined, request.limit);
      },
      // The NFT index as the store keeps it: each transaction's NFT data derived from its bytes.
      async nft(request: GetNftRequest) {
        const stored = chain.find(request.ledger ?? { selector: { $case: 'tag', tag: LedgerTag.VALIDATED } });
        if (!stored) throw new OutOfRange('the ledger asked for is not stored');
        const changes = chain
          .allTransactions()
          .filter((tx) => tx.ledgerIndex <= stored.record.ledgerIndex)
          .sort((a, b) => b.ledgerIndex - a.ledgerIndex || b.txIndex - a.txIndex)
          .map((tx) => ({ tx, change: indexTransaction(tx.txBlob, tx.metaBlob, profile).nftChange }));
        const newest = changes.find(({ change }) => change?.nftId.equals(request.nftId));
        if (!newest) throw new NotFound('no stored ledger changed the NFToken');
        return { nft: newest.change, changedLedgerIndex: newest.tx.ledgerIndex, ledgerIndex: stored.record.ledgerIndex };
      },
      async nftTransactions(request: GetNftTransactionsRequest) {
        const range = request.ledgerRange;
        const matching = chain
          .allTransactions()
          .filter((tx) => !range || (tx.ledgerIndex >= range.first && tx.ledgerIndex <= range.last))
          .filter((tx) => indexTransaction(tx.txBlob, tx.metaBlob, profile).nftIds.some((nftId) => nftId.equals(request.nftId)))
          .sort((a, b) => a.ledgerIndex - b.ledgerIndex || a.txIndex - b.txIndex);
        return historyPage(matching, request.forward, request.marker.length > 0 ? request.marker : undefined, request.limit);
      },
      async status() {
        const indexes = [...chain.ledgers.keys()].sort((a, b) => a - b);
        return {
          completeRanges: indexes.length ? [{ first: indexes[0], last: indexes.at(-1)! }] : [],
          lowestLedgerIndex: indexes[0],
          highestLedgerIndex: indexes.at(-1),
          ledgerCount: BigInt(indexes.length),
        };
      },
      async highestLedgerIndex() {
        return Math.max(0, ...chain.ledgers.keys());
      },
    };
    queries.stateObjects = async (keys: Buffer[], selector: LedgerSelector) => {
      const { stored, state } = chain.stateOf(selector);
      return {
        ledgerIndex: stored.record.ledgerIndex,
        ledgerHash: stored.record.ledgerHash,
        objects: keys.map((key) => ({ key, blob: state.get(hexOf(key)) })),
      };
    };
    queries.listState = async (request: { ledgerIndex: number; afterKey?: Buffer; beforeKey?: Buffer; limit: number }) => list(request);
    // The answer cache as the facade keeps it (Queries.kept over a real AnswerCache).
    const answers = new AnswerCache(1 << 20);
    queries.kept = (...args: Parameters<Queries['kept']>) => Queries.prototype.kept.apply({ answers } as unknown as Queries, args);
    const sync: GetSyncStatusResponse = {
      syncing: false,
      startingLedgerIndex: 0,
      currentLedgerIndex: 0,
      highestLedgerIndex: 0,
      upstreamUrl: 'ws://127.0.0.1:1',
      upstreamConnected: true,
      lagLedgers: 0,
      liveLedgersPerSecond: 0,
      backfillLedgersPerSecond: 0,
      backfillRemainingLedgers: 0n,
      verificationFailureCount: 0n,
      completeRanges: [],
      stateReady: true,
      indexFailureCount: 0n,
      anchorProof: '',
      verificationFailuresByReason: {},
      ...this.options.sync,
    };
    const clients = {
      submission: {
        submitSigned: async ({ signedBlob }: { signedBlob: Buffer }) => {
          chain.submittedBlobs.push(signedBlob);
          const answer = chain.options.submitted ?? { engineResult: 'tesSUCCESS', engineResultMessage: 'The transaction was applied. Only final in a validated ledger.', accepted: true };
          if (answer instanceof Error) throw answer;
          return { hash: bytes(hashTransaction(hexOf(signedBlob))), submissionId: 'test', ...answer };
        },
        forward: async (forward: { command: string; paramsJson: string; apiVersion: number }) => {
          chain.forwards.push(forward);
          const answer = chain.options.forwarded ?? { answerJson: '{}', error: false };
          if (answer instanceof Error) throw answer;
          return answer;
        },
      },
      sync: {
        getManifest: async ({ publicKey }: { publicKey: Buffer }) => ({
          manifest: (chain.options.manifests ?? []).find((manifest) => manifest.masterKey.equals(publicKey) || manifest.signingKey?.equals(publicKey)),
        }),
      },
    };
    return {
      clients,
      profile,
      syncEnabled: true,
      syncStatus: { status: async () => sync },
      maxPageSize: 200,
      queries,
      sends: {
        take: async () => {
          chain.sendsTaken++;
        },
      },
      networkId: this.options.networkId,
    } as unknown as RippledContext;
  }
}

export function request(params: Record<string, unknown>, apiVersion: ApiVersion = 1): RippledRequest {
  return { params, apiVersion };
}

/** Mainnet ledger 38129 with its whole state (261 objects) and its one transaction. */
export const STATE_LEDGER = 'xrpl/ledgers/mainnet/38129-full-state.json';
/** Mainnet ledgers 11119599 to 11119604 with their transactions (no state). */
/**
 * Ledgers holding recorded NFToken transactions (fixtures/xrpl/corpus/transactions), one each at
 * its real ledger index, on the header fields of a recorded ledger (the method tests read no
 * header hash): token 0008000083CD…0000099B00000000 offered at 1104 and sold at 1197, token
 * 000800006203…0000000D sold at 1799495 and burned at 1799496.
 */
export function nftLedgers(): FixtureLedger[] {
  const { ledger: base } = readFixture<FixtureLedger>(HISTORY_LEDGERS[0]!);
  const at = (ledgerIndex: number, name: string): FixtureLedger => {
    const { meta, metaData, tx: nested, ...flat } = readFixture<Record<string, any>>(`xrpl/corpus/transactions/${name}.json`);
    // rippled's synthetic metadata fields (nftoken_id, offer_id…) are no part of the serialized metadata.
    const serializedMeta = Object.fromEntries(Object.entries((meta ?? metaData) as Record<string, unknown>).filter(([field]) => /^[A-Z]/.test(field)));
    const hash = createHash('sha256').update(`ledger ${ledgerIndex}`).digest('hex').toUpperCase();
    return { ledger: { ...base, ledger_index: String(ledgerIndex), ledger_hash: hash, hash, transactions: [{ ...(nested ?? flat), metaData: serializedMeta }], accountState: undefined } };
  };
  return [at(1104, 'NFTokenCreateOffer-37DD2EC6'), at(1197, 'NFTokenAcceptOffer-00769286'), at(1799495, 'NFTokenAcceptOffer-21C60F25'), at(1799496, 'NFTokenBurn-0804FB2E')];
}

export const HISTORY_LEDGERS = [11119599, 11119600, 11119601, 11119602, 11119603, 11119604].map((index) => `xrpl/ledgers/mainnet/${index}.json`);

/** The fixture ledger with a FeeSettings object of the XRPFees amendment stating `fees` (in drops). */
export function withFeeSettings(ledger: FixtureLedger, fees: FeeSchedule): FixtureLedger {
  const settings = {
    LedgerEntryType: 'FeeSettings',
    Flags: 0,
    BaseFeeDrops: String(fees.baseFee),
    ReserveBaseDrops: String(fees.reserveBase),
    ReserveIncrementDrops: String(fees.reserveIncrement),
    index: keylet.feeSettings(),
  };
  return { ledger: { ...ledger.ledger, accountState: [...ledger.ledger.accountState, settings] } };
}

/** A recorded object as today's rippled prints it (the fixtures' older servers printed UInt64 as 16 upper-case digits). */
export function asRippledPrints<T extends Record<string, unknown>>(json: T, profile = getProfile('xrpl')): T {
  return rippledNotation(json, notationOf(profile)) as T;
}
