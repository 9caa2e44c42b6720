import { InvalidParams } from '@ledger-node/errors';

/*
 * Node stops decoding hex at the first character that is not a hex digit and drops an odd last
 * one, so text is whole hex bytes exactly when it decodes to half its length: checked that way,
 * megabytes of blobs take a fraction of a pattern match's time.
 */

/** Bytes of hex text (either case); undefined when the text is not whole hex bytes. */
export function decodeHex(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'hex');
  return bytes.length * 2 === text.length ? bytes : undefined;
}

/** Where isHex decodes into; grown to the longest text seen. */
let scratch = Buffer.alloc(64 * 1024);

/** Whether text is whole hex bytes (either case), decoded into a reused buffer: for text only checked, not kept. */
export function isHex(text: string): boolean {
  if (text.length % 2 !== 0) return false;
  if (scratch.length < text.length / 2) scratch = Buffer.alloc(text.length);
  return scratch.write(text, 0, 'hex') * 2 === text.length;
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
