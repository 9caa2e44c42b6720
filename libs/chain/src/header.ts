import { InvalidParams } from '@ledger-node/errors';
import { HashPrefix, sha512Half } from './hash';
import { hash256Bytes, toBytes, toHex } from './hex';
import { closeTimeHuman } from './time';

export interface LedgerHeader {
  ledgerIndex: number;
  totalCoins: bigint;
  parentHash: string;
  transactionHash: string;
  accountHash: string;
  parentCloseTime: number;
  closeTime: number;
  closeTimeResolution: number;
  closeFlags: number;
}

/** rippled `addRaw(LedgerInfo)`: u32 seq, u64 drops, 3 × 256-bit hashes, u32, u32, u8, u8. */
export const LEDGER_HEADER_LENGTH = 4 + 8 + 32 * 3 + 4 + 4 + 1 + 1;

const MAX_U64 = (1n << 64n) - 1n;

function checkUint(value: number, bits: 8 | 32, what: string): number {
  const max = bits === 8 ? 0xff : 0xffffffff;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new InvalidParams(`${what} must be an unsigned ${bits}-bit integer, got ${value}`, what);
  }
  return value;
}

export function encodeLedgerHeader(header: LedgerHeader): Buffer {
  if (typeof header.totalCoins !== 'bigint' || header.totalCoins < 0n || header.totalCoins > MAX_U64) {
    throw new InvalidParams('totalCoins must be a u64 bigint', 'totalCoins');
  }
  const bytes = Buffer.alloc(LEDGER_HEADER_LENGTH);
  let offset = 0;
  offset = bytes.writeUInt32BE(checkUint(header.ledgerIndex, 32, 'ledgerIndex'), offset);
  offset = bytes.writeBigUInt64BE(header.totalCoins, offset);
  for (const [hash, what] of [
    [header.parentHash, 'parentHash'],
    [header.transactionHash, 'transactionHash'],
    [header.accountHash, 'accountHash'],
  ] as const) {
    offset += hash256Bytes(hash, what).copy(bytes, offset);
  }
  offset = bytes.writeUInt32BE(checkUint(header.parentCloseTime, 32, 'parentCloseTime'), offset);
  offset = bytes.writeUInt32BE(checkUint(header.closeTime, 32, 'closeTime'), offset);
  offset = bytes.writeUInt8(checkUint(header.closeTimeResolution, 8, 'closeTimeResolution'), offset);
  bytes.writeUInt8(checkUint(header.closeFlags, 8, 'closeFlags'), offset);
  return bytes;
}

export function decodeLedgerHeader(input: Uint8Array | string): LedgerHeader {
  const bytes = Buffer.from(toBytes(input, 'ledgerHeader'));
  if (bytes.length !== LEDGER_HEADER_LENGTH) {
    throw new InvalidParams(`a ledger header is ${LEDGER_HEADER_LENGTH} bytes, got ${bytes.length}`, 'ledgerHeader');
  }
  const hashAt = (offset: number) => toHex(bytes.subarray(offset, offset + 32));
  return {
    ledgerIndex: bytes.readUInt32BE(0),
    totalCoins: bytes.readBigUInt64BE(4),
    parentHash: hashAt(12),
    transactionHash: hashAt(44),
    accountHash: hashAt(76),
    parentCloseTime: bytes.readUInt32BE(108),
    closeTime: bytes.readUInt32BE(112),
    closeTimeResolution: bytes.readUInt8(116),
    closeFlags: bytes.readUInt8(117),
  };
}

/** Ledger hash: SHA512Half('LWR\0' + header fields), rippled `calculateLedgerHash`. */
export function hashLedgerHeader(header: LedgerHeader): string {
  return toHex(sha512Half(HashPrefix.ledgerMaster, encodeLedgerHeader(header)));
}

function integerField(ledger: Record<string, unknown>, names: string[], required = true): number {
  for (const name of names) {
    const value = ledger[name];
    if (value === undefined || value === null) continue;
    const parsed = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof parsed === 'number' && Number.isSafeInteger(parsed) && parsed >= 0) return parsed;
    throw new InvalidParams(`ledger.${name} must be a non-negative integer, got ${JSON.stringify(value)}`, name);
  }
  if (!required) return 0;
  throw new InvalidParams(`ledger.${names[0]} is missing`, names[0]);
}

function hashField(ledger: Record<string, unknown>, name: string): string {
  const value = ledger[name];
  if (typeof value !== 'string') throw new InvalidParams(`ledger.${name} is missing`, name);
  return toHex(hash256Bytes(value, name));
}

/**
 * Header from rippled's `ledger` JSON. Accepts string or number integers and the legacy names
 * (`seqNum`, `totalCoins`); a missing `close_flags` is 0 as rippled omits it when no flag is set.
 */
export function ledgerHeaderFromJson(ledger: Record<string, unknown>): LedgerHeader {
  const totalCoinsText = ledger.total_coins ?? ledger.totalCoins;
  if (typeof totalCoinsText !== 'string' && typeof totalCoinsText !== 'number') {
    throw new InvalidParams('ledger.total_coins is missing', 'total_coins');
  }
  if (!/^\d+$/.test(String(totalCoinsText))) {
    throw new InvalidParams(`ledger.total_coins must be a decimal integer, got ${String(totalCoinsText)}`, 'total_coins');
  }
  return {
    ledgerIndex: integerField(ledger, ['ledger_index', 'seqNum']),
    totalCoins: BigInt(String(totalCoinsText)),
    parentHash: hashField(ledger, 'parent_hash'),
    transactionHash: hashField(ledger, 'transaction_hash'),
    accountHash: hashField(ledger, 'account_hash'),
    parentCloseTime: integerField(ledger, ['parent_close_time']),
    closeTime: integerField(ledger, ['close_time']),
    closeTimeResolution: integerField(ledger, ['close_time_resolution']),
    closeFlags: integerField(ledger, ['close_flags'], false),
  };
}

/** rippled's `ledger` object (API v1 field set) for a closed ledger with the given hash. */
export function ledgerHeaderToJson(header: LedgerHeader, hash: string): Record<string, unknown> {
  return {
    account_hash: header.accountHash,
    close_flags: header.closeFlags,
    close_time: header.closeTime,
    close_time_human: `${closeTimeHuman(header.closeTime)}.000000000 UTC`,
    close_time_resolution: header.closeTimeResolution,
    closed: true,
    ledger_hash: toHex(hash256Bytes(hash, 'hash')),
    ledger_index: String(header.ledgerIndex),
    parent_close_time: header.parentCloseTime,
    parent_hash: header.parentHash,
    total_coins: header.totalCoins.toString(),
    transaction_hash: header.transactionHash,
  };
}
