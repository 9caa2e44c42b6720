import { createHash, hash } from 'node:crypto';
import { toBytes, toHex } from './hex';

function prefix(ascii: string): Buffer {
  return Buffer.concat([Buffer.from(ascii, 'ascii'), Buffer.from([0])]);
}

/** rippled HashPrefix: three ASCII letters and a zero byte, prepended before hashing. */
export const HashPrefix = {
  /** Signed transaction id. */
  transactionId: prefix('TXN'),
  /** Transaction-tree leaf: transaction plus metadata. */
  txNode: prefix('SND'),
  /** State-tree leaf. */
  leafNode: prefix('MLN'),
  /** SHAMap inner node. */
  innerNode: prefix('MIN'),
  /** Ledger header. */
  ledgerMaster: prefix('LWR'),
  /** Single-signature signing data. */
  transactionSig: prefix('STX'),
  /** Multi-signature signing data. */
  transactionMultiSig: prefix('SMT'),
} as const;

/*
 * The parts of a hash are gathered into one buffer and hashed in one call: a hash object fed part by
 * part costs more than the hashing itself for the few hundred bytes of a transaction or a tree node,
 * and verification hashes every one of them. Longer inputs than the limit (4 MiB: more than a
 * transaction and its metadata at their largest) are fed part by part.
 */
const GATHERED_LIMIT = 4 << 20;
let gathered = Buffer.allocUnsafe(64 * 1024);

/**
 * The buffer to write a hash's input into, from offset 0, for `sha512HalfGathered(length)`: a
 * caller that builds its input from small pieces writes them in place instead of allocating each.
 * Valid until the next hash (of any kind) is computed; at most GATHERED_LIMIT bytes.
 */
export function gatherInto(length: number): Buffer {
  if (length > GATHERED_LIMIT) throw new RangeError(`a gathered hash input holds at most ${GATHERED_LIMIT} bytes, got ${length}`);
  if (gathered.length < length) gathered = Buffer.allocUnsafe(Math.max(length, gathered.length * 2));
  return gathered;
}

/** SHA512Half of the first `length` bytes written into `gatherInto(length)`. */
export function sha512HalfGathered(length: number): Buffer {
  return hash('sha512', gathered.subarray(0, length), 'buffer').subarray(0, 32);
}

/** First half of SHA-512 over the concatenated parts (rippled `sha512Half`). */
export function sha512Half(...parts: Uint8Array[]): Buffer {
  if (parts.length === 1) return hash('sha512', parts[0]!, 'buffer').subarray(0, 32);
  let length = 0;
  for (const part of parts) length += part.length;
  if (length > GATHERED_LIMIT) {
    const hasher = createHash('sha512');
    for (const part of parts) hasher.update(part);
    return hasher.digest().subarray(0, 32);
  }
  const input = gatherInto(length);
  let offset = 0;
  for (const part of parts) {
    input.set(part, offset);
    offset += part.length;
  }
  return sha512HalfGathered(length);
}

/** Transaction id: SHA512Half('TXN\0' + signed blob), uppercase hex. */
export function hashTransaction(txBlob: Uint8Array | string): string {
  return toHex(sha512Half(HashPrefix.transactionId, toBytes(txBlob, 'txBlob')));
}

export const ZERO_HASH = '0'.repeat(64);
