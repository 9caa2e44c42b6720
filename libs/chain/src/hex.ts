import { InvalidParams } from '@ledger-node/errors';

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

/** Bytes from hex text (either case) or passes bytes through; throws InvalidParams on odd or non-hex text. */
export function toBytes(value: Uint8Array | string, what = 'hex'): Uint8Array {
  if (typeof value !== 'string') return value;
  if (!HEX_PATTERN.test(value)) throw new InvalidParams(`${what} must be an even-length hex string`, what);
  return Buffer.from(value, 'hex');
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
