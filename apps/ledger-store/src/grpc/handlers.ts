import { StoreRole, type AccountStateResult, type GetAccountStateResponse, type LedgerStoreServiceService } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError } from '@ledger-node/errors';
import { toItemError, type Handlers } from '@ledger-node/grpc';
import type { LedgerStore, StoreRole as Role } from '../store';
import { accountTransactionCount, accountTransactions } from '../accounts/history';
import { accountState, listStateObjects, type AccountState } from '../state/reads';

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

/** gRPC handlers: translate contract messages into store calls. `stopping` ends open watch streams. */
export function ledgerStoreHandlers(store: LedgerStore, stopping: AbortSignal): Handlers<typeof LedgerStoreServiceService> {
  return {
    async putLedgers(request) {
      let storedCount = 0;
      for (const [position, ledger] of request.ledgers.entries()) {
        if (await store.putLedger(ledger, `ledgers[${position}]`)) storedCount++;
      }
      return { storedCount, completeRanges: [...store.ranges] };
    },
    async getLedger(request) {
      return { ledger: await store.getLedger(request.ledger, request.txDetail) };
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
    async getStatus() {
      const status = await store.status();
      return {
        completeRanges: status.completeRanges,
        lowestLedgerIndex: status.lowestLedgerIndex,
        highestLedgerIndex: status.highestLedgerIndex,
        ledgerCount: status.counters.ledgerCount,
        transactionCount: status.counters.transactionCount,
        stateObjectVersionCount: status.counters.stateObjectVersionCount,
        dbSizeBytes: BigInt(status.dbSizeBytes),
        stateDownload: status.stateDownload,
        stateRange: status.stateRange,
        role: ROLES[status.role],
        roleDetail: status.roleDetail,
      };
    },
    async deleteLedger(request) {
      await store.deleteLedger(request.ledger);
      return {};
    },
    async putStateChanges(request) {
      return { stateRange: await store.putStateChanges(request) };
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
    async listStateObjects(request) {
      const page = await listStateObjects(store, request.ledgerIndex, request.afterKey, request.limit);
      return {
        objects: page.objects.map((object) => ({ key: object.key, blob: object.blob, ledgerEntryType: '', ownerAccountIds: [] })),
        nextAfterKey: page.nextAfterKey ?? Buffer.alloc(0),
      };
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
  };
}
