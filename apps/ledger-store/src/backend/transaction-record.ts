/**
 * Transactions as PostgreSQL keeps them (pg/006_transaction_groups.sql): a ledger's transactions in
 * runs of consecutive tx indexes, each run (a group) one row of at most one heap page, with two
 * columns beside its ledger and first tx index:
 *
 * - `hashes`: for each transaction of the group in tx index order, its offset from the group's
 *   first tx index (one byte) and its hash (32 bytes); read without inflating anything.
 * - `record`: a codec byte, then — deflated (raw DEFLATE, RFC 1951) unless that saves nothing — each
 *   transaction in the same order: its engine result and transaction type (each a u16 length,
 *   big-endian, and its UTF-8), its signed blob and its metadata (each a u32 length and the bytes).
 *
 * Deflated together, neighbouring transactions share their field codes, metadata layout and
 * accounts, and a group's row header and key are paid once: on the bench's history the groups take
 * 414 bytes a transaction, hashes and rows included, where a row per transaction deflated alone took
 * 665. A group holds as many
 * transactions as fit GROUP_ROW_BYTES: a row of one page is read whole with one page, and rows that
 * fill their pages leave none of the space that larger values split into TOAST chunks leave.
 *
 * Rows written between pg/003_compact_transactions.sql and pg/006 keep one transaction each in the
 * same codec without the metadata's length (the metadata is the rest): decodeTransactionRecord.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import pLimit from 'p-limit';
import { Internal } from '@ledger-node/errors';
import type { StoredTransaction } from './records';

const deflateNow = promisify(deflateRaw);
/**
 * Compressions under way at once: libuv's thread pool runs four, and each waiting one holds its
 * own zlib stream (some 300 kB), so a batch of thousands started together took 900 MB.
 */
export const compressing = pLimit(4);
const deflate = (plain: Buffer) => compressing(() => deflateNow(plain));

/**
 * Bytes of hashes and record a group's row holds at most (unless one transaction alone is larger):
 * with its tuple header, key and length words, one 8 kB heap page, and under the partitions'
 * toast_tuple_target (8160), so that PostgreSQL keeps it inline, uncompressed again.
 */
export const GROUP_ROW_BYTES = 8100;
/** Transactions a group names at most: an offset from its first tx index is one byte. */
const MAX_OFFSET = 255;
/** Bytes of one transaction in a group's `hashes`: its offset, then its hash. */
const HASH_ENTRY_BYTES = 33;
/** Deflations tried at most to find how many transactions fill a group. */
const MAX_TRIES = 6;

/** The codec byte: the rest as it is, or deflated. */
const STORED = 0;
const DEFLATED = 1;
/** A record inflates to no more than this (the gRPC message limit bounds a ledger's transactions far below). */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** What a record holds of a transaction: all of it but where it is and its hash (in `hashes`). */
export type TransactionRecordFields = Pick<StoredTransaction, 'engineResult' | 'transactionType' | 'txBlob' | 'metaBlob'>;
type GroupedTransaction = TransactionRecordFields & { txIndex: number; hash: Uint8Array };

/** One group's row. */
export interface TransactionGroupRow {
  firstTxIndex: number;
  hashes: Buffer;
  record: Buffer;
}

function lengthPrefixed(bytes: Uint8Array, lengthBytes: 2 | 4, what: string): Buffer[] {
  if (lengthBytes === 2 && bytes.length > 0xffff) throw new Internal(`a transaction's ${what} of ${bytes.length} bytes does not fit its record`);
  const length = Buffer.alloc(lengthBytes);
  if (lengthBytes === 2) length.writeUInt16BE(bytes.length);
  else length.writeUInt32BE(bytes.length);
  return [length, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)];
}

/**
 * A ledger's transactions as the rows of their groups, in tx index order: each group the most
 * consecutive transactions whose row fits GROUP_ROW_BYTES, found by deflating candidates (on
 * libuv's thread pool, four at a time, off the event loop; about two a group, each guess sized by
 * the bytes a transaction took in the one before).
 */
export async function encodeTransactionGroups(transactions: readonly GroupedTransaction[]): Promise<TransactionGroupRow[]> {
  const sorted = [...transactions].sort((a, b) => a.txIndex - b.txIndex);
  const plain = sorted.map((tx) =>
    Buffer.concat([
      ...lengthPrefixed(Buffer.from(tx.engineResult, 'utf8'), 2, 'engine result'),
      ...lengthPrefixed(Buffer.from(tx.transactionType, 'utf8'), 2, 'transaction type'),
      ...lengthPrefixed(tx.txBlob, 4, 'blob'),
      ...lengthPrefixed(tx.metaBlob, 4, 'metadata'),
    ]),
  );
  const recordOf = async (start: number, count: number) => {
    const joined = Buffer.concat(plain.slice(start, start + count));
    const deflated = await deflate(joined);
    return deflated.length < joined.length ? Buffer.concat([Buffer.of(DEFLATED), deflated]) : Buffer.concat([Buffer.of(STORED), joined]);
  };
  const groups: TransactionGroupRow[] = [];
  // Row bytes a transaction took in the group before (none yet: the first guess is 16 transactions).
  let perTransaction: number | undefined;
  for (let start = 0; start < sorted.length; ) {
    const firstTxIndex = sorted[start]!.txIndex;
    let most = 0;
    while (start + most < sorted.length && sorted[start + most]!.txIndex - firstTxIndex <= MAX_OFFSET) most++;
    // The largest count known to fit (with its record), and the smallest known not to.
    let fits: { count: number; record: Buffer } | undefined;
    let fails = most + 1;
    let guess = Math.min(most, perTransaction === undefined ? 16 : Math.max(1, Math.floor(GROUP_ROW_BYTES / perTransaction)));
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const record = await recordOf(start, guess);
      const bytes = record.length + guess * HASH_ENTRY_BYTES;
      if (bytes <= GROUP_ROW_BYTES) fits = { count: guess, record };
      else if (guess === 1) {
        // One transaction larger than a page: a group of its own (PostgreSQL moves its row to TOAST).
        fits = { count: 1, record };
        break;
      } else fails = guess;
      const low = fits?.count ?? 0;
      if (low + 1 >= fails) break;
      guess = Math.min(fails - 1, Math.max(low + 1, Math.floor((GROUP_ROW_BYTES * guess) / bytes)));
    }
    // Out of tries with no count found to fit: one transaction.
    fits ??= { count: 1, record: await recordOf(start, 1) };
    perTransaction = (fits.record.length + fits.count * HASH_ENTRY_BYTES) / fits.count;
    const members = sorted.slice(start, start + fits.count);
    groups.push({
      firstTxIndex,
      hashes: Buffer.concat(members.map((tx) => Buffer.concat([Buffer.of(tx.txIndex - firstTxIndex), tx.hash]))),
      record: fits.record,
    });
    start += fits.count;
  }
  return groups;
}

/** The tx indexes and hashes of a group's `hashes`, in tx index order; a damaged column is refused, saying where it was read. */
export function groupHashes(firstTxIndex: number, hashes: Buffer, where: string): { txIndex: number; hash: Buffer }[] {
  if (hashes.length % HASH_ENTRY_BYTES !== 0) {
    throw new Internal(`the transaction hashes of ${where} cannot be read: ${hashes.length} bytes are not whole entries of ${HASH_ENTRY_BYTES}`);
  }
  const entries: { txIndex: number; hash: Buffer }[] = [];
  for (let offset = 0; offset < hashes.length; offset += HASH_ENTRY_BYTES) {
    entries.push({ txIndex: firstTxIndex + hashes[offset]!, hash: hashes.subarray(offset + 1, offset + HASH_ENTRY_BYTES) });
  }
  return entries;
}

/** What a group's record holds, one entry per transaction in tx index order; a damaged record is refused, saying where it was read. */
export function decodeTransactionGroup(record: Buffer, count: number, where: string): TransactionRecordFields[] {
  return readRecord(record, `the transaction group of ${where}`, (take, left) => {
    const transactions: TransactionRecordFields[] = [];
    while (left() > 0) transactions.push({ ...resultAndType(take), txBlob: take(take(4, 'blob length').readUInt32BE(0), 'blob'), metaBlob: take(take(4, 'metadata length').readUInt32BE(0), 'metadata') });
    if (transactions.length !== count) throw new Error(`it holds ${transactions.length} transactions where its hashes name ${count}`);
    return transactions;
  });
}

/** A transaction's record as written between pg/003 and pg/006 (the metadata is the rest); a damaged one is refused, saying where it was read. */
export function decodeTransactionRecord(record: Buffer, where: string): TransactionRecordFields {
  return readRecord(record, `the transaction record of ${where}`, (take, left) => {
    const head = resultAndType(take);
    const txBlob = take(take(4, 'blob length').readUInt32BE(0), 'blob');
    return { ...head, txBlob, metaBlob: take(left(), 'metadata') };
  });
}

type Take = (length: number, what: string) => Buffer;

function resultAndType(take: Take): Pick<TransactionRecordFields, 'engineResult' | 'transactionType'> {
  const engineResult = take(take(2, 'engine result length').readUInt16BE(0), 'engine result').toString('utf8');
  const transactionType = take(take(2, 'transaction type length').readUInt16BE(0), 'transaction type').toString('utf8');
  return { engineResult, transactionType };
}

function readRecord<T>(record: Buffer, what: string, read: (take: Take, left: () => number) => T): T {
  try {
    let plain: Buffer;
    if (record[0] === STORED) plain = record.subarray(1);
    else if (record[0] === DEFLATED) plain = inflateRawSync(record.subarray(1), { maxOutputLength: MAX_RECORD_BYTES });
    else throw new Error(`codec ${record[0] ?? '(none: the record is empty)'} is none this release reads`);
    let offset = 0;
    const take: Take = (length, field) => {
      if (length > plain.length - offset) throw new Error(`its ${field} of ${length} bytes runs past its end (${plain.length - offset} bytes left)`);
      offset += length;
      return plain.subarray(offset - length, offset);
    };
    return read(take, () => plain.length - offset);
  } catch (error) {
    throw new Internal(`${what} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
