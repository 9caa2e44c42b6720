/**
 * One byte per column at the front of every key; numbers in keys are big-endian so that
 * key order is numeric order. A retired id stays listed (commented) and is never reused.
 */
export const Bucket = {
  /** ledger index (u32) → header (118 bytes) + ledger hash (32) */
  ledgerHeader: 0x01,
  /** ledger hash (32) → ledger index (u32) */
  ledgerHashIndex: 0x02,
  /** tx hash (32) → ledger index, tx index, blob, meta */
  transaction: 0x03,
  /** ledger index (u32) + tx index (u32) → tx hash */
  ledgerTransaction: 0x04,
  /** account id (20) + ledger index + tx index → direction flags */
  accountTransaction: 0x05,
  /** account id (20) + ledger index → number of transactions sent up to and including it */
  accountSentCount: 0x06,
  /** object key (32) + ledger index → object bytes, or a tombstone */
  stateObjectVersion: 0x07,
  /** account id (20) + trust line key (32) → nothing (membership) */
  accountTrustLine: 0x08,
  /** sync metadata name → bytes */
  syncMeta: 0x09,
} as const;

export type BucketId = (typeof Bucket)[keyof typeof Bucket];

export function key(bucket: BucketId, ...parts: (Buffer | Uint8Array)[]): Buffer {
  return Buffer.concat([Buffer.of(bucket), ...parts]);
}

export function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

/** The range covering every key of one bucket. */
export function bucketRange(bucket: BucketId): { gte: Buffer; lt: Buffer } {
  return { gte: Buffer.of(bucket), lt: Buffer.of(bucket + 1) };
}
