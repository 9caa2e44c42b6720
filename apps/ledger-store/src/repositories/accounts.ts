import type { KeyValue, KvOperation } from '../storage/kv';
import { Bucket, key, prefixRange, u32 } from '../storage/buckets';

/** Side of a transaction an index entry records; the numbers are common.v1.Direction's. */
export const IndexDirection = { in: 1, out: 2 } as const;
export type IndexDirection = (typeof IndexDirection)[keyof typeof IndexDirection];

export interface AccountTransactionEntry {
  accountId: Buffer;
  ledgerIndex: number;
  txIndex: number;
  direction: IndexDirection;
}

/** The transactions that touch each account: (account, ledger index, tx index) → direction. */
export class AccountTransactionRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(entry: AccountTransactionEntry): KvOperation {
    return {
      type: 'put',
      key: key(Bucket.accountTransaction, entry.accountId, u32(entry.ledgerIndex), u32(entry.txIndex)),
      value: Buffer.of(entry.direction),
    };
  }

  /** The account's entries in (ledger, tx index) order, or reverse; `limit` bounds the read. */
  async *entries(accountId: Buffer, options: { reverse?: boolean; limit?: number } = {}): AsyncIterable<AccountTransactionEntry> {
    for await (const [entryKey, value] of this.kv.entries({ ...prefixRange(key(Bucket.accountTransaction, accountId)), ...options })) {
      yield { accountId, ledgerIndex: entryKey.readUInt32BE(21), txIndex: entryKey.readUInt32BE(25), direction: value[0] as IndexDirection };
    }
  }
}

/**
 * A block groups 2^16 ledgers (about three days of closes). Counts per ledger stay exact whatever
 * order ledgers are written in (backfill writes downward, sync upward), and the per-block totals
 * keep a count "up to ledger L" to one scan of the account's blocks plus one scan inside a block.
 */
const BLOCK_SHIFT = 16;

export function blockOf(ledgerIndex: number): number {
  return ledgerIndex >>> BLOCK_SHIFT;
}

/**
 * Transactions sent per account: (account, ledger) → sent in that ledger, and
 * (account, block) → sent in that block, both updated in the ledger's batch.
 */
export class AccountSentCountRepository {
  constructor(private readonly kv: KeyValue) {}

  static blockKey(accountId: Buffer, block: number): Buffer {
    return key(Bucket.accountSentBlock, accountId, u32(block));
  }

  /**
   * Operations recording that `accountId` sent `sentInLedger` transactions in a ledger not stored
   * before; `blockTotalBefore` is the block's stored total (read by the caller under the writer lock).
   */
  putOperations(accountId: Buffer, ledgerIndex: number, sentInLedger: number, blockTotalBefore: number): KvOperation[] {
    return [
      { type: 'put', key: key(Bucket.accountSentCount, accountId, u32(ledgerIndex)), value: u32(sentInLedger) },
      { type: 'put', key: AccountSentCountRepository.blockKey(accountId, blockOf(ledgerIndex)), value: u32(blockTotalBefore + sentInLedger) },
    ];
  }

  static decodeBlockTotal(value: Buffer | undefined): number {
    return value === undefined ? 0 : value.readUInt32BE(0);
  }

  /** Transactions the account sent in stored ledgers up to and including `ledgerIndex`. */
  async sentUpTo(accountId: Buffer, ledgerIndex: number): Promise<bigint> {
    const block = blockOf(ledgerIndex);
    let total = 0n;
    for await (const [, value] of this.kv.entries({
      gte: AccountSentCountRepository.blockKey(accountId, 0),
      lt: AccountSentCountRepository.blockKey(accountId, block),
    })) {
      total += BigInt(value.readUInt32BE(0));
    }
    for await (const [, value] of this.kv.entries({
      gte: key(Bucket.accountSentCount, accountId, u32((block << BLOCK_SHIFT) >>> 0)),
      lte: key(Bucket.accountSentCount, accountId, u32(ledgerIndex)),
    })) {
      total += BigInt(value.readUInt32BE(0));
    }
    return total;
  }

  /** Stored per-ledger counts of the account, ascending (for checks). */
  async *perLedger(accountId: Buffer): AsyncIterable<{ ledgerIndex: number; sent: number }> {
    for await (const [entryKey, value] of this.kv.entries(prefixRange(key(Bucket.accountSentCount, accountId)))) {
      yield { ledgerIndex: entryKey.readUInt32BE(21), sent: value.readUInt32BE(0) };
    }
  }
}
