import { InvalidParams } from '@ledger-node/errors';
import { sha512Half } from './hash';
import { hash256Bytes, toHex } from './hex';

/** rippled LedgerNameSpace: the two-byte prefix hashed in front of each entry kind's key material. */
const LedgerSpace = {
  account: 0x0061, // 'a'
  dirNode: 0x0064, // 'd'
  rippleState: 0x0072, // 'r'
  offer: 0x006f, // 'o'
  ownerDir: 0x004f, // 'O'
  skipList: 0x0073, // 's'
  amendments: 0x0066, // 'f'
  feeSettings: 0x0065, // 'e'
} as const;

function space(code: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(code);
  return bytes;
}

function accountBytes(accountId: Uint8Array, what: string): Uint8Array {
  if (!(accountId instanceof Uint8Array) || accountId.length !== 20) throw new InvalidParams(`${what} must be a 20-byte AccountID`, what);
  return accountId;
}

function u64(value: bigint, what: string): Buffer {
  if (value < 0n || value >= 1n << 64n) throw new InvalidParams(`${what} must be a u64`, what);
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(value);
  return bytes;
}

function indexOf(...parts: Uint8Array[]): string {
  return toHex(sha512Half(...parts));
}

/** Ledger entry indexes (uppercase hex), rippled `keylet::*`. */
export const keylet = {
  account(accountId: Uint8Array): string {
    return indexOf(space(LedgerSpace.account), accountBytes(accountId, 'accountId'));
  },
  ownerDir(accountId: Uint8Array): string {
    return indexOf(space(LedgerSpace.ownerDir), accountBytes(accountId, 'accountId'));
  },
  /** Page of a directory; page 0 is the root itself (rippled `keylet::page`). */
  dirPage(rootIndex: string, page: bigint): string {
    const root = hash256Bytes(rootIndex, 'rootIndex');
    if (page === 0n) return toHex(root);
    return indexOf(space(LedgerSpace.dirNode), root, u64(page, 'page'));
  },
  /** Trust line between two accounts in one currency; the lower AccountID comes first (rippled `keylet::line`). */
  rippleState(a: Uint8Array, b: Uint8Array, currency: Uint8Array): string {
    const first = accountBytes(a, 'a');
    const second = accountBytes(b, 'b');
    if (!(currency instanceof Uint8Array) || currency.length !== 20) throw new InvalidParams('currency must be 20 bytes', 'currency');
    if (Buffer.compare(first, second) === 0) throw new InvalidParams('a trust line needs two different accounts', 'b');
    const [low, high] = Buffer.compare(first, second) < 0 ? [first, second] : [second, first];
    return indexOf(space(LedgerSpace.rippleState), low, high, currency);
  },
  offer(accountId: Uint8Array, sequence: number): string {
    if (!Number.isInteger(sequence) || sequence < 0 || sequence > 0xffffffff) throw new InvalidParams('sequence must be a u32', 'sequence');
    const sequenceBytes = Buffer.alloc(4);
    sequenceBytes.writeUInt32BE(sequence);
    return indexOf(space(LedgerSpace.offer), accountBytes(accountId, 'accountId'), sequenceBytes);
  },
  feeSettings(): string {
    return indexOf(space(LedgerSpace.feeSettings));
  },
  amendments(): string {
    return indexOf(space(LedgerSpace.amendments));
  },
  /** The skip list of the last 256 ledger hashes (rippled `keylet::skip()`). */
  ledgerHashes(): string {
    return indexOf(space(LedgerSpace.skipList));
  },
};
