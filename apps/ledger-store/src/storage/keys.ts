/**
 * Typed key codecs: each bucket's key is its id byte followed by fixed-width named parts, encoded
 * and decoded here only, so that no repository reads a key at a byte offset. Numbers are
 * big-endian u32 so that key order is numeric order (buckets.ts).
 */
import { Internal } from '@ledger-node/errors';
import type { BucketId } from './buckets';

/** One fixed-width part of a key. */
export interface KeyPart<T> {
  readonly width: number;
  write(value: T, into: Buffer, offset: number): void;
  read(from: Buffer, offset: number): T;
}

/** A big-endian u32: a ledger index, a transaction index, a block number. */
export const u32Part: KeyPart<number> = {
  width: 4,
  write: (value, into, offset) => void into.writeUInt32BE(value, offset),
  read: (from, offset) => from.readUInt32BE(offset),
};

/** Bytes of one exact length: a 32-byte hash or object key, a 20-byte account id. */
export function bytesPart(width: number): KeyPart<Buffer> {
  return {
    width,
    write(value, into, offset) {
      // A key of another width would sort among other keys' parts: it is a bug, never stored.
      if (value.length !== width) throw new Internal(`a key part of ${width} bytes was given ${value.length} bytes`);
      value.copy(into, offset);
    },
    read: (from, offset) => Buffer.from(from.subarray(offset, offset + width)),
  };
}

export const hashPart = bytesPart(32);
export const accountIdPart = bytesPart(20);
/** A 33-byte public key of a validator or list publisher (secp256k1 compressed, or 0xED and ed25519). */
export const nodeKeyPart = bytesPart(33);

type Parts = Record<string, KeyPart<unknown>>;
export type KeyValues<P extends Parts> = { [Name in keyof P]: P[Name] extends KeyPart<infer T> ? T : never };

export class KeyCodec<P extends Parts> {
  private readonly names: (keyof P & string)[];
  readonly width: number;

  constructor(
    readonly bucket: BucketId,
    private readonly parts: P,
  ) {
    this.names = Object.keys(parts) as (keyof P & string)[];
    this.width = 1 + this.names.reduce((sum, name) => sum + parts[name]!.width, 0);
  }

  /** The whole key (every part given); each ledger's write encodes hundreds, so this path allocates the key alone. */
  encode(values: KeyValues<P>): Buffer {
    // Every byte is written below: the bucket byte, then each part at its full width.
    const key = Buffer.allocUnsafe(this.width);
    key[0] = this.bucket;
    let offset = 1;
    for (const name of this.names) {
      const part = this.parts[name]!;
      const value = values[name];
      if (value === undefined) throw new Internal(`a key of bucket ${this.bucket} needs its part ${name}`);
      part.write(value, key, offset);
      offset += part.width;
    }
    return key;
  }

  decode(key: Buffer): KeyValues<P> {
    if (key.length !== this.width || key[0] !== this.bucket) throw new Internal(`a key of bucket ${this.bucket} read as ${key.length} bytes of bucket ${key[0]}`);
    const values: Partial<Record<keyof P, unknown>> = {};
    let offset = 1;
    for (const name of this.names) {
      values[name] = this.parts[name]!.read(key, offset);
      offset += this.parts[name]!.width;
    }
    return values as KeyValues<P>;
  }

  /** The bucket byte and the leading parts given, in order (a part after a missing one is a bug). */
  prefix(values: Partial<KeyValues<P>>): Buffer {
    const given = this.names.filter((name) => values[name] !== undefined);
    if (given.some((name, position) => name !== this.names[position])) {
      throw new Internal(`a key prefix of bucket ${this.bucket} must give leading parts (${this.names.join(', ')}), got ${given.join(', ')}`);
    }
    const key = Buffer.alloc(1 + given.reduce((sum, name) => sum + this.parts[name]!.width, 0));
    key[0] = this.bucket;
    let offset = 1;
    for (const name of given) {
      this.parts[name]!.write(values[name], key, offset);
      offset += this.parts[name]!.width;
    }
    return key;
  }
}
