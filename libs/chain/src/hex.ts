import { InvalidParams } from '@ledger-node/errors';

/**
 * Bytes of hex text (either case); undefined when the text is not whole hex bytes. Node stops
 * decoding at the first character that is not a hex digit and drops an odd last one, so the text
 * is hex exactly when it decoded to half its length (no pattern match over megabytes of text).
 */
export function decodeHex(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'hex');
  return bytes.length * 2 === text.length ? bytes : undefined;
}

/** Bytes from hex text (either case) or passes bytes through; throws InvalidParams on odd or non-hex text. */
export function toBytes(value: Uint8Array | string, what = 'hex'): Uint8Array {
  if (typeof value !== 'string') return value;
  const bytes = decodeHex(value);
  if (bytes === undefined) throw new InvalidParams(`${what} must be an even-length hex string`, what);
  return bytes;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').toUpperCase();
}

/** Bytes of a 256-bit hash given as 64 hex characters. */
export function hash256Bytes(hash: string, what = 'hash'): Buffer {
  if (typeof hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hash)) {
    throw new InvalidParams(`${what} must be 64 hex characters`, what);
  }
  return Buffer.from(hash, 'hex');
}
