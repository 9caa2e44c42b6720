import { createHash } from 'node:crypto';
import { InvalidParams } from '@ledger-node/errors';
import baseX from 'base-x';

/** XRP Ledger base58 alphabet (rippled `ripple_alphabet`). */
export const XRPL_ALPHABET = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';
/** Jingtum alphabet: XRPL's with 'r' and 'j' swapped (skywelld `jingtum_alphabet`). */
export const JINGTUM_ALPHABET = 'jpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65rkm8oFqi1tuvAxyz';

/** Version byte of an account address (rippled TokenType::AccountID). */
export const ACCOUNT_ID_VERSION = 0x00;
const CHECKSUM_LENGTH = 4;

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

/**
 * Base58 with checksum over one alphabet (rippled `encodeBase58Token` / `decodeBase58Token`); the
 * base conversion is base-x's, which takes any alphabet.
 */
export class Base58Check {
  private readonly digitOf = new Map<string, number>();
  private readonly digits: baseX.BaseConverter;

  constructor(readonly alphabet: string) {
    if (alphabet.length !== 58 || new Set(alphabet).size !== 58) {
      throw new Error('a base58 alphabet needs 58 distinct characters');
    }
    for (let index = 0; index < 58; index++) this.digitOf.set(alphabet[index]!, index);
    this.digits = baseX(alphabet);
  }

  encode(payload: Uint8Array): string {
    const checksum = doubleSha256(payload).subarray(0, CHECKSUM_LENGTH);
    return this.digits.encode(Buffer.concat([payload, checksum]));
  }

  /** Returns the payload (version bytes included) or null when the text or checksum is wrong. */
  decode(text: string): Uint8Array | null {
    const digits = this.digits.decodeUnsafe(text);
    if (digits === undefined || digits.length <= CHECKSUM_LENGTH) return null;
    // A Buffer over the same bytes, as callers had before.
    const raw = Buffer.from(digits.buffer, digits.byteOffset, digits.length);
    const payload = raw.subarray(0, raw.length - CHECKSUM_LENGTH);
    const expected = doubleSha256(payload).subarray(0, CHECKSUM_LENGTH);
    return Buffer.compare(expected, raw.subarray(raw.length - CHECKSUM_LENGTH)) === 0 ? payload : null;
  }

  /** Same digits written in another alphabet (both alphabets are 58 symbols for the digits 0..57). */
  translate(text: string, target: Base58Check): string {
    let translated = '';
    for (const character of text) {
      const digit = this.digitOf.get(character);
      if (digit === undefined) throw new InvalidParams(`'${character}' is not a base58 character`);
      translated += target.alphabet[digit];
    }
    return translated;
  }
}

/** Encodes and decodes account addresses (version 0x00 + 20-byte AccountID) in one alphabet. */
export class AddressCodec {
  readonly base58: Base58Check;

  constructor(alphabet: string) {
    this.base58 = new Base58Check(alphabet);
  }

  encodeAccountId(accountId: Uint8Array): string {
    if (accountId.length !== 20) throw new InvalidParams(`an AccountID is 20 bytes, got ${accountId.length}`, 'accountId');
    return this.base58.encode(Buffer.concat([Buffer.from([ACCOUNT_ID_VERSION]), accountId]));
  }

  /** Returns the 20-byte AccountID, or null for a malformed address. */
  tryDecodeAccountId(address: string): Uint8Array | null {
    if (typeof address !== 'string' || address.length < 25 || address.length > 35) return null;
    const payload = this.base58.decode(address);
    if (payload === null || payload.length !== 21 || payload[0] !== ACCOUNT_ID_VERSION) return null;
    return payload.subarray(1);
  }

  decodeAccountId(address: string): Uint8Array {
    const accountId = this.tryDecodeAccountId(address);
    if (accountId === null) {
      throw new InvalidParams(
        `'${String(address)}' is not a valid address: expected base58check of a 20-byte AccountID starting with '${this.base58.alphabet[0]}'`,
        'address',
      );
    }
    return accountId;
  }

  isValidAddress(address: string): boolean {
    return this.tryDecodeAccountId(address) !== null;
  }
}
