/**
 * Ledger entry indexes (keylets) from addresses in the chain's alphabet, with the AccountID
 * decoding cached: every rule needs them and base58 decoding is not free.
 */
import { currencyToBytes, keylet, sha512Half, toHex, type ChainProfile } from '@ledger-node/chain';

export class LedgerKeys {
  private readonly accountIds = new Map<string, Buffer>();
  private readonly accountIndexes = new Map<string, string>();

  constructor(private readonly profile: ChainProfile) {}

  /** 20-byte AccountID; throws for a malformed address. */
  accountId(address: string): Buffer {
    let id = this.accountIds.get(address);
    if (id === undefined) {
      id = Buffer.from(this.profile.codec.decodeAccountId(address));
      this.accountIds.set(address, id);
    }
    return id;
  }

  isValidAddress(address: unknown): address is string {
    return typeof address === 'string' && this.profile.codec.isValidAddress(address);
  }

  /** rippled orders the two sides of a trust line by AccountID: the lower one is "low". */
  compareAccounts(left: string, right: string): number {
    return Buffer.compare(this.accountId(left), this.accountId(right));
  }

  account(address: string): string {
    let index = this.accountIndexes.get(address);
    if (index === undefined) {
      index = keylet.account(this.accountId(address));
      this.accountIndexes.set(address, index);
    }
    return index;
  }

  /** The account's signer list (rippled `keylet::signers`). */
  signers(address: string): string {
    return keylet.signers(this.accountId(address));
  }

  ownerDir(address: string): string {
    return keylet.ownerDir(this.accountId(address));
  }

  dirPage(rootIndex: string, page: bigint): string {
    return keylet.dirPage(rootIndex, page);
  }

  trustLine(left: string, right: string, currency: string): string {
    return keylet.rippleState(this.accountId(left), this.accountId(right), currencyToBytes(currency, this.profile.nativeCurrency));
  }

  /** rippled `keylet::skip()`: hashes of the last 256 ledgers. */
  recentLedgerHashes(): string {
    return keylet.ledgerHashes();
  }

  /** rippled `keylet::skip(ledgerIndex)`: every 256th ledger hash, one entry per 65536 ledgers. */
  historicLedgerHashes(ledgerIndex: number): string {
    const group = Buffer.alloc(4);
    group.writeUInt32BE(ledgerIndex >>> 16);
    return toHex(sha512Half(Buffer.from([0x00, 0x73]), group));
  }

  feeSettings(): string {
    return keylet.feeSettings();
  }
}
