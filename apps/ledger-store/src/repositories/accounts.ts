import type { KeyValue, KvOperation } from '../storage/kv';
import { Keys, prefixRange, u32 } from '../storage/buckets';
import { IndexDirection, type AccountTransactionEntry, type HistoryPosition } from '../backend/records';

/**
 * The key range of one history scan over keys that end in (ledger index, tx index), big-endian:
 * inside [firstLedger, lastLedger], in order or reverse, strictly after `after` in the direction of
 * travel, at most `limit` entries. `positionKey` encodes a position of the history scanned.
 */
export function historyKeyRange(
  positionKey: (ledgerIndex: number, txIndex: number) => Buffer,
  scan: { reverse?: boolean; limit?: number; firstLedger?: number; lastLedger?: number; after?: HistoryPosition },
) {
  const low = positionKey(scan.firstLedger ?? 0, 0);
  const high = positionKey(scan.lastLedger ?? 0xffffffff, 0xffffffff);
  const after = scan.after && positionKey(scan.after.ledgerIndex, scan.after.txIndex);
  const bounds = scan.reverse
    ? { gte: low, ...(after && Buffer.compare(after, high) <= 0 ? { lt: after } : { lte: high }), reverse: true }
    : { ...(after && Buffer.compare(after, low) >= 0 ? { gt: after } : { gte: low }), lte: high };
  return { ...bounds, limit: scan.limit };
}

/**
 * The transactions that touch each account: (account, ledger index, tx index) → direction (u8)
 * followed by the transaction type (ASCII), so that direction and type filters page through the
 * index alone and transaction records are read only for the page returned.
 */
/** An account index entry's value: the direction byte, then the transaction type (ASCII), in one allocation. */
function directionAndType(direction: number, transactionType: string): Buffer {
  const value = Buffer.allocUnsafe(1 + transactionType.length);
  value[0] = direction;
  value.write(transactionType, 1, 'ascii');
  return value;
}

export class AccountTransactionRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(entry: AccountTransactionEntry): KvOperation {
    return {
      type: 'put',
      key: Keys.accountTransaction.encode(entry),
      value: directionAndType(entry.direction, entry.transactionType ?? ''),
    };
  }

  deleteOperation(accountId: Buffer, ledgerIndex: number, txIndex: number): KvOperation {
    return { type: 'del', key: Keys.accountTransaction.encode({ accountId, ledgerIndex, txIndex }) };
  }

  /**
   * The account's entries in (ledger, tx index) order, or reverse, inside [firstLedger, lastLedger],
   * strictly after `after` in the direction of travel; `limit` bounds the read.
   */
  async *entries(
    accountId: Buffer,
    options: { reverse?: boolean; limit?: number; firstLedger?: number; lastLedger?: number; after?: HistoryPosition } = {},
  ): AsyncIterable<AccountTransactionEntry> {
    const range = historyKeyRange((ledgerIndex, txIndex) => Keys.accountTransaction.encode({ accountId, ledgerIndex, txIndex }), options);
    for await (const [entryKey, value] of this.kv.entries(range)) {
      const { ledgerIndex, txIndex } = Keys.accountTransaction.decode(entryKey);
      yield {
        accountId,
        ledgerIndex,
        txIndex,
        direction: value[0] as IndexDirection,
        transactionType: value.length > 1 ? value.toString('ascii', 1) : undefined,
      };
    }
  }
}

/** Ledgers that created each account's AccountRoot: (account, ledger index) → nothing. */
export class AccountCreationRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(accountId: Buffer, ledgerIndex: number): KvOperation {
    return { type: 'put', key: Keys.accountCreation.encode({ accountId, ledgerIndex }), value: Buffer.alloc(0) };
  }

  /** The newest stored creation of the account at or below `ledgerIndex`. */
  async latestAtOrBelow(accountId: Buffer, ledgerIndex: number): Promise<number | undefined> {
    const entries = this.kv.entries({
      gte: Keys.accountCreation.encode({ accountId, ledgerIndex: 0 }),
      lte: Keys.accountCreation.encode({ accountId, ledgerIndex }),
      reverse: true,
      limit: 1,
    });
    for await (const [entryKey] of entries) return Keys.accountCreation.decode(entryKey).ledgerIndex;
    return undefined;
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

/** The lowest ledger of a block. */
export function firstLedgerOfBlock(block: number): number {
  return (block << BLOCK_SHIFT) >>> 0;
}

/**
 * Transactions sent per account: (account, ledger) → sent in that ledger, and
 * (account, block) → sent in that block, both updated in the ledger's batch.
 */
export class AccountSentCountRepository {
  constructor(private readonly kv: KeyValue) {}

  static blockKey(accountId: Buffer, block: number): Buffer {
    return Keys.accountSentBlock.encode({ accountId, block });
  }

  /**
   * Operations recording that `accountId` sent `sentInLedger` transactions in a ledger not stored
   * before; `blockTotalBefore` is the block's stored total (read by the caller under the writer lock).
   */
  putOperations(accountId: Buffer, ledgerIndex: number, sentInLedger: number, blockTotalBefore: number): KvOperation[] {
    return [
      { type: 'put', key: Keys.accountSentCount.encode({ accountId, ledgerIndex }), value: u32(sentInLedger) },
      { type: 'put', key: AccountSentCountRepository.blockKey(accountId, blockOf(ledgerIndex)), value: u32(blockTotalBefore + sentInLedger) },
    ];
  }

  /** Undoes putOperations: the ledger's entry goes, the block total drops by what it added. */
  deleteOperations(accountId: Buffer, ledgerIndex: number, sentInLedger: number, blockTotal: number): KvOperation[] {
    return [
      { type: 'del', key: Keys.accountSentCount.encode({ accountId, ledgerIndex }) },
      { type: 'put', key: AccountSentCountRepository.blockKey(accountId, blockOf(ledgerIndex)), value: u32(Math.max(0, blockTotal - sentInLedger)) },
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
      gte: Keys.accountSentCount.encode({ accountId, ledgerIndex: firstLedgerOfBlock(block) }),
      lte: Keys.accountSentCount.encode({ accountId, ledgerIndex }),
    })) {
      total += BigInt(value.readUInt32BE(0));
    }
    return total;
  }

  /** Stored per-ledger counts of the account, ascending (for checks). */
  async *perLedger(accountId: Buffer): AsyncIterable<{ ledgerIndex: number; sent: number }> {
    for await (const [entryKey, value] of this.kv.entries(prefixRange(Keys.accountSentCount.prefix({ accountId })))) {
      yield { ledgerIndex: Keys.accountSentCount.decode(entryKey).ledgerIndex, sent: value.readUInt32BE(0) };
    }
  }
}
