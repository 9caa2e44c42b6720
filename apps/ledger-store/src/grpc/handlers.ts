import { RangesChange, StoreRole, type AccountStateResult, type GetAccountStateResponse, type GetStatusResponse, type LedgerStoreServiceService, type WatchRangesResponse } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError } from '@ledger-node/errors';
import { toItemError, type Handlers } from '@ledger-node/grpc';
import { histogram } from '@ledger-node/telemetry';
import type { RangesEvent } from '../ledgers/events';
import type { LedgerStore, StoreRole as Role } from '../store';
import { accountTransactionCount, accountTransactions } from '../accounts/history';
import { nftAt, nftTransactions } from '../nfts/reads';
import { inOrder } from './in-order';
import { accountState, listedLedger, listStateObjects, stateObjects, type AccountState } from '../state/reads';

/** PutLedgersStream holds at most this many batches: the one written and the next, checked (ledgerstore.proto). */
const BATCHES_HELD = 2;

/** GetAccountStates answers at most this many reads per call (ledgerstore.proto). */
const MAX_ACCOUNT_STATES_PER_CALL = 1000;

const ROLES: Record<Role, StoreRole> = { writer: StoreRole.WRITER, standby: StoreRole.STANDBY, reader: StoreRole.READER };

function accountStateResponse(state: AccountState): GetAccountStateResponse {
  return {
    accountRootBlob: state.accountRootBlob,
    trustLineBlobs: state.trustLineBlobs,
    ledgerIndex: state.header.ledgerIndex,
    ledgerHash: state.header.ledgerHash,
  };
}

/** From a small ledger written alone (~1 ms) to a large one behind a queue of writes (seconds). */
const WRITE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * Seconds per write inside the store, from the handler's call until the write is durable (its turn
 * in the writer queue included): `ledger` per ledger of PutLedgers (a call's batch counts as that
 * many ledgers, each its share), `state_changes` per PutStateChanges. Sync's `grpc` stage minus the
 * `ledger` writes is the gRPC overhead.
 */
function storeWriteSeconds() {
  return histogram('ledger_node_store_write_seconds', 'Seconds per write inside the store: a ledger of PutLedgers, or one PutStateChanges', ['write'], WRITE_BUCKETS);
}

async function timedWrite<T>(write: 'ledger' | 'state_changes', run: () => Promise<T>, count = 1): Promise<T> {
  const startedAtNs = process.hrtime.bigint();
  try {
    return await run();
  } finally {
    const share = Number(process.hrtime.bigint() - startedAtNs) / 1e9 / Math.max(1, count);
    for (let written = 0; written < count; written++) storeWriteSeconds().observe({ write }, share);
  }
}

/** The store's status as GetStatus answers it. */
export async function statusResponse(store: LedgerStore): Promise<GetStatusResponse> {
  const status = await store.status();
  return {
    completeRanges: status.completeRanges,
    unprovenRanges: status.unprovenRanges,
    lowestLedgerIndex: status.lowestLedgerIndex,
    highestLedgerIndex: status.highestLedgerIndex,
    ledgerCount: status.counters.ledgerCount,
    transactionCount: status.counters.transactionCount,
    stateObjectVersionCount: status.counters.stateObjectVersionCount,
    evidenceLedgerCount: status.counters.evidenceLedgerCount,
    dbSizeBytes: BigInt(status.dbSizeBytes),
    stateDownload: status.stateDownload,
    stateRange: status.stateRange,
    role: ROLES[status.role],
    roleDetail: status.roleDetail,
    chainIdentity: status.chainIdentity,
    retentionFloor: status.retentionFloor,
  };
}

const RANGES_CHANGES: Record<RangesEvent['change'], RangesChange> = {
  current: RangesChange.CURRENT,
  retention: RangesChange.RETENTION,
  ledger_deleted: RangesChange.LEDGER_DELETED,
  state_set_aside: RangesChange.STATE_SET_ASIDE,
  stored_below_tip: RangesChange.STORED_BELOW_TIP,
  state_changes_added: RangesChange.STATE_CHANGES_ADDED,
  state_download_completed: RangesChange.STATE_DOWNLOAD_COMPLETED,
  followed: RangesChange.FOLLOWED,
};

/** A change of what the store holds as one WatchRanges message. */
export function rangesResponse(event: RangesEvent): WatchRangesResponse {
  return {
    change: RANGES_CHANGES[event.change],
    completeRanges: event.completeRanges,
    stateRange: event.stateRange,
    retentionFloor: event.retentionFloor,
    removedRanges: event.removed,
  };
}

/** gRPC handlers: translate contract messages into store calls. `stopping` ends open watch streams. */
export function ledgerStoreHandlers(store: LedgerStore, stopping: AbortSignal): Handlers<typeof LedgerStoreServiceService> {
  return {
    async putLedgers(request) {
      const storedCount = await timedWrite('ledger', () => store.putLedgers(request.ledgers), request.ledgers.length);
      return { storedCount, completeRanges: [...store.ranges] };
    },
    putLedgersStream(requests) {
      // Each batch is checked as it is read, while the batch before is written (ledgerstore.proto).
      return inOrder(requests, BATCHES_HELD, stopping, (request) => {
        const write = store.checkLedgers(request.ledgers);
        return async () => ({ storedCount: await timedWrite('ledger', write, request.ledgers.length), completeRanges: [...store.ranges] });
      });
    },
    async getLedger(request) {
      return { ledger: await store.getLedger(request.ledger, request.txDetail) };
    },
    async getLedgerRange(request) {
      return store.getLedgerRange(request.first, request.last, request.txDetail);
    },
    async getTransaction(request) {
      return { transaction: await store.getTransaction(request.hash) };
    },
    async getTransactions(request) {
      return { transactions: await store.getTransactions(request.hashes) };
    },
    async getTransactionByIndex(request) {
      return { transaction: await store.getTransactionByIndex(request.ledger, request.txIndex) };
    },
    getStatus() {
      return statusResponse(store);
    },
    async deleteLedger(request) {
      return { stateSetAside: await store.deleteLedger(request.ledger) };
    },
    async putStateChanges(request) {
      return { stateRange: await timedWrite('state_changes', () => store.putStateChanges(request)) };
    },
    async putStateObjects(request) {
      return { stateDownload: await store.putStateObjects(request) };
    },
    async getAccountStates(request) {
      if (request.requests.length > MAX_ACCOUNT_STATES_PER_CALL) {
        throw new InvalidParams(`requests holds more than ${MAX_ACCOUNT_STATES_PER_CALL} reads`, 'requests');
      }
      // Each read is answered or refused on its own; an unexpected failure fails the call (and is logged).
      const results = await Promise.all(
        request.requests.map(async (read): Promise<AccountStateResult> => {
          try {
            return { result: { $case: 'state', state: accountStateResponse(await accountState(store, read.accountId, read.ledger)) } };
          } catch (error) {
            if (!isLedgerNodeError(error)) throw error;
            return { result: { $case: 'error', error: toItemError(error) } };
          }
        }),
      );
      return { results };
    },
    async getAccountTransactions(request, { signal }) {
      return accountTransactions(store, request, signal);
    },
    async getAccountTransactionCount(request) {
      const count = await accountTransactionCount(store, request.accountId, request.ledger);
      return {
        sentCount: count.sentCount,
        ledgerIndex: count.header.ledgerIndex,
        coversAccountLifetime: count.coversAccountLifetime,
        earliestStoredLedgerIndex: count.earliestStoredLedgerIndex,
      };
    },
    async getNft(request) {
      return nftAt(store, request);
    },
    async getNftTransactions(request, { signal }) {
      return nftTransactions(store, request, signal);
    },
    async listStateObjects(request) {
      const page = await listStateObjects(store, listedLedger(request), request.afterKey, request.limit, request.beforeKey);
      return {
        objects: page.objects.map((object) => ({ key: object.key, blob: object.blob, ledgerEntryType: '', ownerAccountIds: [] })),
        nextAfterKey: page.nextAfterKey ?? Buffer.alloc(0),
        ledgerIndex: page.ledgerIndex,
        ledgerHash: page.ledgerHash,
      };
    },
    async getStateObjects(request) {
      const { header, blobs } = await stateObjects(store, request.keys, request.ledger);
      return {
        objects: request.keys.map((key, position) => ({ key, blob: blobs[position] })),
        ledgerIndex: header.ledgerIndex,
        ledgerHash: header.ledgerHash,
      };
    },
    async getLedgerEvidence(request) {
      const { header, evidence } = await store.getLedgerEvidence(request.ledger);
      return { ledgerIndex: header.ledgerIndex, ledgerHash: header.ledgerHash, evidence };
    },
    async *watchLedgers(request, context) {
      const signal = AbortSignal.any([context.signal, stopping]);
      const events = store.watch({ fromLedgerIndex: request.fromLedgerIndex, includeBackfill: request.includeBackfill }, signal);
      for await (const event of events) {
        yield {
          ledgerIndex: event.ledgerIndex,
          ledgerHash: event.ledgerHash,
          closeTimeRippleEpoch: event.closeTime,
          transactions: event.transactions,
        };
      }
    },
    async *watchRanges(_request, context) {
      const signal = AbortSignal.any([context.signal, stopping]);
      for await (const event of store.watchRanges(signal)) yield rangesResponse(event);
    },
  };
}
