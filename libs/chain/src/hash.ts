import { createHash } from 'node:crypto';
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

/** First half of SHA-512 over the concatenated parts (rippled `sha512Half`). */
export function sha512Half(...parts: Uint8Array[]): Buffer {
  const hasher = createHash('sha512');
  for (const part of parts) hasher.update(part);
  return hasher.digest().subarray(0, 32);
}

/** Transaction id: SHA512Half('TXN\0' + signed blob), uppercase hex. */
export function hashTransaction(txBlob: Uint8Array | string): string {
  return toHex(sha512Half(HashPrefix.transactionId, toBytes(txBlob, 'txBlob')));
}

export const ZERO_HASH = '0'.repeat(64);
