import { InvalidParams } from '@ledger-node/errors';

const CURRENCY_LENGTH = 20;
/** rippled `isoCharSet`: characters allowed in a three-character currency code. */
const STANDARD_CODE = /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/;
const CURRENCY_HEX = /^[0-9A-Fa-f]{40}$/;

function standardBytes(code: string): Buffer {
  // rippled `to_currency`: 12 zero bytes, the three ASCII characters, 5 zero bytes.
  const bytes = Buffer.alloc(CURRENCY_LENGTH);
  bytes.write(code, 12, 'ascii');
  return bytes;
}

/**
 * 20-byte currency of an issued asset from a three-character code ('USD') or 40 hex characters.
 * The native code (and its all-zero form) is refused: rippled's `badCurrency` rule.
 */
export function currencyToBytes(code: string, nativeCurrency = 'XRP'): Uint8Array {
  if (typeof code !== 'string') throw new InvalidParams('currency must be a string', 'currency');
  let bytes: Buffer;
  if (STANDARD_CODE.test(code)) {
    bytes = standardBytes(code);
  } else if (CURRENCY_HEX.test(code)) {
    bytes = Buffer.from(code, 'hex');
  } else {
    throw new InvalidParams(`currency '${code}' must be a three-character code or 40 hex characters`, 'currency');
  }
  if (bytes.every((byte) => byte === 0) || bytes.equals(standardBytes(nativeCurrency))) {
    throw new InvalidParams(`${nativeCurrency} is the native currency, not an issued currency code`, 'currency');
  }
  return bytes;
}

/** Three-character code when the bytes are in standard form, else 40 uppercase hex; all zeros is the native code. */
export function currencyFromBytes(bytes: Uint8Array, nativeCurrency = 'XRP'): string {
  if (bytes.length !== CURRENCY_LENGTH) throw new InvalidParams(`a currency is 20 bytes, got ${bytes.length}`, 'currency');
  const buffer = Buffer.from(bytes);
  if (buffer.every((byte) => byte === 0)) return nativeCurrency;
  const isStandardLayout = buffer.subarray(0, 12).every((byte) => byte === 0) && buffer.subarray(15).every((byte) => byte === 0);
  const code = buffer.subarray(12, 15).toString('latin1');
  if (isStandardLayout && STANDARD_CODE.test(code)) return code;
  return buffer.toString('hex').toUpperCase();
}

/** Jingtum's longer currency codes: four to six letters or digits (swtclib, skywelld). */
const LONG_CODE = /^[A-Za-z0-9]{4,6}$/;
/** Where a code's last character sits: byte 14, as in the three-character layout. */
const CODE_END = 15;

/**
 * The 40 hex of a four-to-six-character Jingtum code: its ASCII right-aligned to end where a
 * three-character code ends (byte 14), every other byte zero; undefined for any other text.
 */
export function longCurrencyHex(code: string): string | undefined {
  if (!LONG_CODE.test(code)) return undefined;
  const bytes = Buffer.alloc(CURRENCY_LENGTH);
  bytes.write(code, CODE_END - code.length, 'ascii');
  return bytes.toString('hex').toUpperCase();
}

/** The four-to-six-character Jingtum code 20 bytes hold in that layout, or undefined. */
export function longCurrencyCode(bytes: Uint8Array): string | undefined {
  if (bytes.length !== CURRENCY_LENGTH || bytes.subarray(CODE_END).some((byte) => byte !== 0)) return undefined;
  let start = 0;
  while (start < CODE_END && bytes[start] === 0) start++;
  const code = Buffer.from(bytes.subarray(start, CODE_END)).toString('latin1');
  return code.length > 3 && LONG_CODE.test(code) ? code : undefined;
}
