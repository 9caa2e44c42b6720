import type { KeyValue, KvOperation } from '../storage/kv';
import { Keys, prefixRange } from '../storage/buckets';
import type { StoredTransaction } from '../backend/records';


/**
 * Value layout: u32 ledger index, u32 tx index, u8 length + engine result (ASCII), u8 length +
 * transaction type (ASCII), u32 blob length, blob, meta (the rest). The blob and meta are stored
 * here only, once.
 */
function encodeTransaction(tx: StoredTransaction): Buffer {
  // Names are printable ASCII of at most 255 characters (ledgers/validate.ts): a character a byte.
  const headerLength = 4 + 4 + 1 + tx.engineResult.length + 1 + tx.transactionType.length + 4;
  const value = Buffer.allocUnsafe(headerLength + tx.txBlob.length + tx.metaBlob.length);
  let offset = value.writeUInt32BE(tx.ledgerIndex, 0);
  offset = value.writeUInt32BE(tx.txIndex, offset);
  offset = value.writeUInt8(tx.engineResult.length, offset);
  offset += value.write(tx.engineResult, offset, 'ascii');
  offset = value.writeUInt8(tx.transactionType.length, offset);
  offset += value.write(tx.transactionType, offset, 'ascii');
  offset = value.writeUInt32BE(tx.txBlob.length, offset);
  offset += tx.txBlob.copy(value, offset);
  tx.metaBlob.copy(value, offset);
  return value;
}

function decodeTransaction(hash: Buffer, value: Buffer): StoredTransaction {
  const ledgerIndex = value.readUInt32BE(0);
  const txIndex = value.readUInt32BE(4);
  let offset = 8;
  const engineResultLength = value.readUInt8(offset++);
  const engineResult = value.toString('ascii', offset, offset + engineResultLength);
  offset += engineResultLength;
  const transactionTypeLength = value.readUInt8(offset++);
  const transactionType = value.toString('ascii', offset, offset + transactionTypeLength);
  offset += transactionTypeLength;
  const blobLength = value.readUInt32BE(offset);
  offset += 4;
  return {
    hash,
    ledgerIndex,
    txIndex,
    engineResult,
    transactionType,
    txBlob: value.subarray(offset, offset + blobLength),
    metaBlob: value.subarray(offset + blobLength),
  };
}

/** Transactions by hash. */
export class TransactionRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(tx: StoredTransaction): KvOperation {
    return { type: 'put', key: Keys.transaction.encode({ hash: tx.hash }), value: encodeTransaction(tx) };
  }

  deleteOperation(hash: Buffer): KvOperation {
    return { type: 'del', key: Keys.transaction.encode({ hash }) };
  }

  async get(hash: Buffer): Promise<StoredTransaction | undefined> {
    const value = await this.kv.get(Keys.transaction.encode({ hash }));
    return value && decodeTransaction(hash, value);
  }

  /** Several transactions in one read; absent ones are undefined, in the order asked. */
  async getMany(hashes: Buffer[]): Promise<(StoredTransaction | undefined)[]> {
    if (hashes.length === 0) return [];
    const values = await this.kv.getMany(hashes.map((hash) => Keys.transaction.encode({ hash })));
    return values.map((value, position) => value && decodeTransaction(hashes[position], value));
  }
}

/** The transactions of each ledger in order: (ledger index, tx index) → tx hash. */
export class LedgerTransactionRepository {
  constructor(private readonly kv: KeyValue) {}

  putOperation(ledgerIndex: number, txIndex: number, hash: Buffer): KvOperation {
    return { type: 'put', key: Keys.ledgerTransaction.encode({ ledgerIndex, txIndex }), value: hash };
  }

  deleteOperation(ledgerIndex: number, txIndex: number): KvOperation {
    return { type: 'del', key: Keys.ledgerTransaction.encode({ ledgerIndex, txIndex }) };
  }

  async hashAt(ledgerIndex: number, txIndex: number): Promise<Buffer | undefined> {
    return this.kv.get(Keys.ledgerTransaction.encode({ ledgerIndex, txIndex }));
  }

  /** The ledger's transactions as [tx index, hash], in tx index order. */
  async ofLedger(ledgerIndex: number): Promise<{ txIndex: number; hash: Buffer }[]> {
    const rows: { txIndex: number; hash: Buffer }[] = [];
    for await (const [entryKey, hash] of this.kv.entries(prefixRange(Keys.ledgerTransaction.prefix({ ledgerIndex })))) {
      rows.push({ txIndex: Keys.ledgerTransaction.decode(entryKey).txIndex, hash });
    }
    return rows;
  }
}
