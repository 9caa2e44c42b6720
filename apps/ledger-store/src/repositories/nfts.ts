import type { KeyValue, KvOperation } from '../storage/kv';
import { Keys } from '../storage/buckets';
import type { HistoryPosition, NftStateEntry } from '../backend/records';
import type { AccountHistoryScan } from '../backend/backend';

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
    const positionKey = (ledgerIndex: number, txIndex: number) => Keys.nftTransaction.encode({ nftId, ledgerIndex, txIndex });
    const low = positionKey(scan.firstLedger ?? 0, 0);
    const high = positionKey(scan.lastLedger ?? 0xffffffff, 0xffffffff);
    const after = scan.after && positionKey(scan.after.ledgerIndex, scan.after.txIndex);
    const range = scan.reverse
      ? { gte: low, ...(after && Buffer.compare(after, high) <= 0 ? { lt: after } : { lte: high }), reverse: true }
      : { ...(after && Buffer.compare(after, low) >= 0 ? { gt: after } : { gte: low }), lte: high };
    for await (const [entryKey] of this.kv.entries({ ...range, limit: scan.limit })) {
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
