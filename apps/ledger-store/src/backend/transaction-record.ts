/**
 * A transaction as PostgreSQL keeps it in one column (pg/003_compact_transactions.sql): a codec
 * byte, then — deflated (raw DEFLATE, RFC 1951) unless that saves nothing — its engine result and
 * transaction type (each a u16 length, big-endian, and its UTF-8), its signed blob (a u32 length and
 * the bytes) and its metadata (the rest). PostgreSQL compresses only rows over about 2 kB; a
 * transaction's blob and metadata, some 700 bytes, take about two thirds deflated together (the
 * accounts the blob names recur in the metadata).
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

/** The codec byte: the rest as it is, or deflated. */
const STORED = 0;
const DEFLATED = 1;
/** A record inflates to no more than this (the gRPC message limit bounds a transaction far below). */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** What a record holds: all of a stored transaction but where it is and its hash (columns of their own). */
export type TransactionRecordFields = Pick<StoredTransaction, 'engineResult' | 'transactionType' | 'txBlob' | 'metaBlob'>;

function text(value: string, what: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > 0xffff) throw new Internal(`a transaction's ${what} of ${bytes.length} bytes does not fit its record`);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** The record of a transaction (deflated on libuv's thread pool: four at a time, off the event loop). */
export async function encodeTransactionRecord(tx: { engineResult: string; transactionType: string; txBlob: Uint8Array; metaBlob: Uint8Array }): Promise<Buffer> {
  const txLength = Buffer.alloc(4);
  txLength.writeUInt32BE(tx.txBlob.length);
  const plain = Buffer.concat([text(tx.engineResult, 'engine result'), text(tx.transactionType, 'transaction type'), txLength, tx.txBlob, tx.metaBlob]);
  const deflated = await deflate(plain);
  return deflated.length < plain.length ? Buffer.concat([Buffer.of(DEFLATED), deflated]) : Buffer.concat([Buffer.of(STORED), plain]);
}

/** What a record holds; a record that is not one (damaged) is refused, saying where it was read. */
export function decodeTransactionRecord(record: Buffer, where: string): TransactionRecordFields {
  try {
    let plain: Buffer;
    if (record[0] === STORED) plain = record.subarray(1);
    else if (record[0] === DEFLATED) plain = inflateRawSync(record.subarray(1), { maxOutputLength: MAX_RECORD_BYTES });
    else throw new Error(`codec ${record[0] ?? '(none: the record is empty)'} is none this release reads`);
    let offset = 0;
    const take = (length: number, what: string): Buffer => {
      if (length > plain.length - offset) throw new Error(`its ${what} of ${length} bytes runs past its end (${plain.length - offset} bytes left)`);
      offset += length;
      return plain.subarray(offset - length, offset);
    };
    const engineResult = take(take(2, 'engine result length').readUInt16BE(0), 'engine result').toString('utf8');
    const transactionType = take(take(2, 'transaction type length').readUInt16BE(0), 'transaction type').toString('utf8');
    const txBlob = take(take(4, 'blob length').readUInt32BE(0), 'blob');
    return { engineResult, transactionType, txBlob, metaBlob: plain.subarray(offset) };
  } catch (error) {
    throw new Internal(`the transaction record of ${where} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
