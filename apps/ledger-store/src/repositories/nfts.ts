import type { KeyValue, KvOperation } from '../storage/kv';
import { Keys } from '../storage/buckets';
import type { HistoryPosition, NftStateEntry } from '../backend/records';
import type { AccountHistoryScan } from '../backend/backend';
import { historyKeyRange } from './accounts';

const BURNED = 1;

/**
 * The transactions that touched each NFToken: (NFTokenID, ledger index, tx index) → nothing, paged
 * as the account transaction index is (repositories/accounts.ts).
 */
export class NftTransactionRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(nftId: Buffer, ledgerIndex: number, txIndex: number): KvOperation {
    return { type: 'put', key: Keys.nftTransaction.encode({ nftId, ledgerIndex, txIndex }), value: Buffer.alloc(0) };
  }

  deleteOperation(nftId: Buffer, ledgerIndex: number, txIndex: number): KvOperation {
    return { type: 'del', key: Keys.nftTransaction.encode({ nftId, ledgerIndex, txIndex }) };
  }

  /** The token's positions in (ledger, tx index) order, or reverse, inside [firstLedger, lastLedger], strictly after `after` in the direction of travel. */
  async *entries(nftId: Buffer, scan: AccountHistoryScan = {}): AsyncIterable<HistoryPosition> {
    const range = historyKeyRange((ledgerIndex, txIndex) => Keys.nftTransaction.encode({ nftId, ledgerIndex, txIndex }), scan);
    for await (const [entryKey] of this.kv.entries(range)) {
      const { ledgerIndex, txIndex } = Keys.nftTransaction.decode(entryKey);
      yield { ledgerIndex, txIndex };
    }
  }
}

/** Each NFToken as each ledger that changed it left it: (NFTokenID, ledger index) → owner (20) + flags (u8) + URI. */
export class NftStateRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(entry: NftStateEntry): KvOperation {
    return {
      type: 'put',
      key: Keys.nftState.encode({ nftId: entry.nftId, ledgerIndex: entry.ledgerIndex }),
      value: Buffer.concat([entry.ownerAccountId, Buffer.of(entry.burned ? BURNED : 0), entry.uri]),
    };
  }

  deleteOperation(nftId: Buffer, ledgerIndex: number): KvOperation {
    return { type: 'del', key: Keys.nftState.encode({ nftId, ledgerIndex }) };
  }

  /** The token's states at or below `ledgerIndex`, newest first. */
  async *atOrBelow(nftId: Buffer, ledgerIndex: number): AsyncIterable<NftStateEntry> {
    const entries = this.kv.entries({ gte: Keys.nftState.encode({ nftId, ledgerIndex: 0 }), lte: Keys.nftState.encode({ nftId, ledgerIndex }), reverse: true });
    for await (const [entryKey, value] of entries) {
      yield {
        nftId,
        ledgerIndex: Keys.nftState.decode(entryKey).ledgerIndex,
        ownerAccountId: Buffer.from(value.subarray(0, 20)),
        burned: (value[20]! & BURNED) !== 0,
        uri: Buffer.from(value.subarray(21)),
      };
    }
  }
}
