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
  bookDir: 0x0042, // 'B'
  escrow: 0x0075, // 'u'
  ticket: 0x0054, // 'T'
  signerList: 0x0053, // 'S'
  payChannel: 0x0078, // 'x'
  check: 0x0043, // 'C'
  depositPreauth: 0x0070, // 'p'
  negativeUnl: 0x004e, // 'N'
  nftokenOffer: 0x0071, // 'q'
  nftokenBuyOffers: 0x0068, // 'h'
  nftokenSellOffers: 0x0069, // 'i'
  amm: 0x0041, // 'A'
  oracle: 0x0052, // 'R'
  mptokenIssuance: 0x007e, // '~'
  vault: 0x0056, // 'V'
} as const;

/** The low 96 bits of an NFTokenPage key, which order an owner's pages (rippled nft::pageMask). */
const NFT_PAGE_MASK = (1n << 96n) - 1n;

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

function u32(value: number, what: string): Buffer {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new InvalidParams(`${what} must be a u32`, what);
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

function bytes20(value: Uint8Array, what: string): Uint8Array {
  if (!(value instanceof Uint8Array) || value.length !== 20) throw new InvalidParams(`${what} must be 20 bytes`, what);
  return value;
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
    return indexOf(space(LedgerSpace.offer), accountBytes(accountId, 'accountId'), u32(sequence, 'sequence'));
  },
  /** An escrow by its creator and the sequence (or ticket) of its EscrowCreate (rippled `keylet::escrow`). */
  escrow(accountId: Uint8Array, sequence: number): string {
    return indexOf(space(LedgerSpace.escrow), accountBytes(accountId, 'accountId'), u32(sequence, 'sequence'));
  },
  /** A check by its sender and the sequence (or ticket) of its CheckCreate (rippled `keylet::check`). */
  check(accountId: Uint8Array, sequence: number): string {
    return indexOf(space(LedgerSpace.check), accountBytes(accountId, 'accountId'), u32(sequence, 'sequence'));
  },
  /** A ticket by its owner and TicketSequence (rippled `keylet::ticket`). */
  ticket(accountId: Uint8Array, ticketSequence: number): string {
    return indexOf(space(LedgerSpace.ticket), accountBytes(accountId, 'accountId'), u32(ticketSequence, 'ticketSequence'));
  },
  /** The preauthorization `owner` gave `authorized` (rippled `keylet::depositPreauth`). */
  depositPreauth(owner: Uint8Array, authorized: Uint8Array): string {
    return indexOf(space(LedgerSpace.depositPreauth), accountBytes(owner, 'owner'), accountBytes(authorized, 'authorized'));
  },
  /** An account's signer list; rippled has only list 0 (`keylet::signers`). */
  signers(accountId: Uint8Array): string {
    return indexOf(space(LedgerSpace.signerList), accountBytes(accountId, 'accountId'), u32(0, 'signerListId'));
  },
  /** A payment channel by source, destination and the sequence (or ticket) of its creation (rippled `keylet::payChan`). */
  payChannel(source: Uint8Array, destination: Uint8Array, sequence: number): string {
    return indexOf(space(LedgerSpace.payChannel), accountBytes(source, 'source'), accountBytes(destination, 'destination'), u32(sequence, 'sequence'));
  },
  /**
   * The first key of an order book's directories (rippled `getBookBase`): the hash of the book with
   * its last 8 bytes (the quality) zero. The taker pays `pays` and gets `gets`; the native asset is
   * 20 zero bytes of currency and of issuer.
   */
  bookBase(pays: { currency: Uint8Array; issuer: Uint8Array }, gets: { currency: Uint8Array; issuer: Uint8Array }): string {
    const hash = sha512Half(
      space(LedgerSpace.bookDir),
      bytes20(pays.currency, 'pays.currency'),
      bytes20(gets.currency, 'gets.currency'),
      bytes20(pays.issuer, 'pays.issuer'),
      bytes20(gets.issuer, 'gets.issuer'),
    );
    return toHex(Buffer.concat([hash.subarray(0, 24), Buffer.alloc(8)]));
  },
  /** The key past every quality of a book directory (rippled `getQualityNext`: the key plus 2^64). */
  qualityNext(bookKey: string): string {
    const next = (BigInt(`0x${toHex(hash256Bytes(bookKey, 'bookKey'))}`) >> 64n) + 1n;
    if (next >= 1n << 192n) throw new InvalidParams('the book key has no next quality', 'bookKey');
    return (next << 64n).toString(16).toUpperCase().padStart(64, '0');
  },
  /** The lowest key an owner's NFTokenPage can have: its AccountID, then 12 zero bytes (rippled `keylet::nftpage_min`). */
  nftPageMin(owner: Uint8Array): string {
    return toHex(Buffer.concat([accountBytes(owner, 'owner'), Buffer.alloc(12)]));
  },
  /** The owner's last NFTokenPage: its AccountID, then 12 0xFF bytes (rippled `keylet::nftpage_max`). */
  nftPageMax(owner: Uint8Array): string {
    return toHex(Buffer.concat([accountBytes(owner, 'owner'), Buffer.alloc(12, 0xff)]));
  },
  /** The page key of `pageKey`'s owner at a token's low 96 bits (rippled `keylet::nftpage`). */
  nftPage(pageKey: string, tokenId: string): string {
    const page = BigInt(`0x${toHex(hash256Bytes(pageKey, 'pageKey'))}`);
    const token = BigInt(`0x${toHex(hash256Bytes(tokenId, 'tokenId'))}`);
    return ((page & ~NFT_PAGE_MASK) | (token & NFT_PAGE_MASK)).toString(16).toUpperCase().padStart(64, '0');
  },
  /** An NFToken offer by its owner and the sequence (or ticket) of its NFTokenCreateOffer (rippled `keylet::nftoffer`). */
  nftOffer(owner: Uint8Array, sequence: number): string {
    return indexOf(space(LedgerSpace.nftokenOffer), accountBytes(owner, 'owner'), u32(sequence, 'sequence'));
  },
  /** The directory of the buy offers for one token (rippled `keylet::nft_buys`). */
  nftBuyOffers(tokenId: string): string {
    return indexOf(space(LedgerSpace.nftokenBuyOffers), hash256Bytes(tokenId, 'tokenId'));
  },
  /** The directory of the sell offers for one token (rippled `keylet::nft_sells`). */
  nftSellOffers(tokenId: string): string {
    return indexOf(space(LedgerSpace.nftokenSellOffers), hash256Bytes(tokenId, 'tokenId'));
  },
  /**
   * The AMM of two assets (rippled `keylet::amm`): the lesser issue first, issues ordered by
   * currency then issuer, each hashed as issuer then currency; the native asset is 20 zero bytes of both.
   */
  amm(first: { currency: Uint8Array; issuer: Uint8Array }, second: { currency: Uint8Array; issuer: Uint8Array }): string {
    const order = (a: typeof first, b: typeof first) => Buffer.compare(bytes20(a.currency, 'currency'), bytes20(b.currency, 'currency')) || Buffer.compare(bytes20(a.issuer, 'issuer'), bytes20(b.issuer, 'issuer'));
    const [low, high] = order(first, second) <= 0 ? [first, second] : [second, first];
    return indexOf(space(LedgerSpace.amm), low.issuer, low.currency, high.issuer, high.currency);
  },
  /** A price oracle by its owner and OracleDocumentID (rippled `keylet::oracle`). */
  oracle(owner: Uint8Array, documentId: number): string {
    return indexOf(space(LedgerSpace.oracle), accountBytes(owner, 'owner'), u32(documentId, 'documentId'));
  },
  /** An MPTokenIssuance by its 24-byte MPTokenIssuanceID, the issuer's sequence then AccountID (rippled `keylet::mptIssuance`). */
  mptIssuance(issuanceId: string): string {
    if (!/^[0-9A-Fa-f]{48}$/.test(issuanceId)) throw new InvalidParams('an MPTokenIssuanceID is 24 bytes of hex', 'issuanceId');
    return indexOf(space(LedgerSpace.mptokenIssuance), Buffer.from(issuanceId, 'hex'));
  },
  /** A vault by its owner and the sequence (or ticket) of its VaultCreate (rippled `keylet::vault`). */
  vault(owner: Uint8Array, sequence: number): string {
    return indexOf(space(LedgerSpace.vault), accountBytes(owner, 'owner'), u32(sequence, 'sequence'));
  },
  feeSettings(): string {
    return indexOf(space(LedgerSpace.feeSettings));
  },
  amendments(): string {
    return indexOf(space(LedgerSpace.amendments));
  },
  /** The NegativeUNL object (rippled `keylet::negativeUNL()`). */
  negativeUnl(): string {
    return indexOf(space(LedgerSpace.negativeUnl));
  },
  /** The skip list of the last 256 ledger hashes (rippled `keylet::skip()`). */
  ledgerHashes(): string {
    return indexOf(space(LedgerSpace.skipList));
  },
  /**
   * The skip list holding the hash of every 256th ledger of the 65536 that include `ledgerIndex`
   * (rippled `keylet::skip(ledger)`: the index shifted right 16 bits).
   */
  ledgerHashesOf(ledgerIndex: number): string {
    return indexOf(space(LedgerSpace.skipList), u32(Math.floor(ledgerIndex / 65536), 'ledgerIndex'));
  },
};
