/**
 * The accounts a load or a built history submits from: each signs with its own key and goes
 * through the chain's submit path (signature checked, as a WebSocket `submit` is), keeping its
 * next Sequence in step with the chain. Reads of the open ledger's state that both need live here.
 */
import { currencyToBytes, keylet, type ChainProfile } from '@ledger-node/chain';
import type { JsonObject, SubmitResult } from '../engine/types';
import type { LedgerSource, LedgerWriter } from '../ws/ledger-source';

export type WritableSource = LedgerSource & { writer: LedgerWriter };

export interface LoadAccount {
  address: string;
  publicKey: string;
  /** Signs with the account's key, read once. */
  sign(messageHex: string): string;
  nextSequence: number;
}

/** One side of a trust line as its holder sees it, in IOU units. */
export interface LineView {
  /** What the holder holds of the issuer's currency (negative: owes). */
  balance: number;
  /** The same, exactly as the ledger holds it. */
  balanceText: string;
  /** The holder's own limit. */
  limit: number;
}

export class LoadAccounts {
  private readonly profile: ChainProfile;

  /** `label` names the builder in a failed set-up's error. */
  constructor(
    private readonly source: WritableSource,
    private readonly label: string,
  ) {
    this.profile = source.profile;
  }

  fromSecret(secret: string): LoadAccount {
    const { publicKey, privateKey } = this.profile.keys.deriveKeypair(secret);
    return { address: this.profile.keys.deriveAddress(publicKey), publicKey, sign: this.profile.keys.signer(privateKey), nextSequence: 0 };
  }

  /** Signs with the account's key and submits; keeps the account's next sequence in step with the chain. */
  submit(account: LoadAccount, fields: JsonObject): SubmitResult {
    const unsigned: JsonObject = {
      ...fields,
      Account: account.address,
      Fee: this.source.fees.baseFee.toString(),
      Sequence: account.nextSequence,
      SigningPubKey: account.publicKey,
    };
    const { codec } = this.profile;
    const signature = account.sign(codec.encodeForSigning(unsigned));
    const result = this.source.writer.submit(codec.encode({ ...unsigned, TxnSignature: signature }));
    if (result.applied || result.queued) {
      account.nextSequence += 1;
    } else if (result.engineResult === 'tefPAST_SEQ') {
      account.nextSequence = this.sequenceOf(account.address);
    }
    return result;
  }

  /** Submits a transaction a set-up cannot do without: anything but a tes (or a queue) stops it. */
  submitSetup(account: LoadAccount, fields: JsonObject): void {
    const result = this.submit(account, fields);
    if (result.queued || result.engineResult === 'tesSUCCESS') return;
    throw new Error(`${this.label} setup: ${String(fields.TransactionType)} from ${account.address} failed with ${result.engineResult}`);
  }

  /** The account's AccountRoot in the open ledger, where its next transaction applies. */
  accountRoot(address: string): JsonObject | undefined {
    return this.source.stateEntry(keylet.account(this.profile.codec.decodeAccountId(address)), this.source.writer.openLedgerIndex())?.json;
  }

  /** The account's Sequence in the open ledger. */
  sequenceOf(address: string): number {
    const sequence = this.accountRoot(address)?.Sequence;
    if (typeof sequence !== 'number') throw new Error(`account ${address} not found at ledger ${this.source.writer.openLedgerIndex()}`);
    return sequence;
  }

  /** Native drops the account holds in the open ledger (0 when it does not exist). */
  nativeBalance(address: string): bigint {
    const balance = this.accountRoot(address)?.Balance;
    return typeof balance === 'string' ? BigInt(balance) : 0n;
  }

  /** The holder's side of its line to `issuer` in `currency` in the open ledger; undefined when there is none. */
  line(holder: string, issuer: string, currency: string): LineView | undefined {
    const { codec, nativeCurrency } = this.profile;
    const index = keylet.rippleState(codec.decodeAccountId(holder), codec.decodeAccountId(issuer), currencyToBytes(currency, nativeCurrency));
    const entry = this.source.stateEntry(index, this.source.writer.openLedgerIndex())?.json;
    if (entry === undefined) return undefined;
    const lowLimit = entry.LowLimit as { issuer: string; value: string };
    const highLimit = entry.HighLimit as { value: string };
    // rippled: Balance is the low account's holding of the high account's IOUs.
    const lowBalance = (entry.Balance as { value: string }).value;
    const holderIsLow = lowLimit.issuer === holder;
    const balanceText = holderIsLow ? lowBalance : negated(lowBalance);
    return { balance: Number(balanceText), balanceText, limit: Number(holderIsLow ? lowLimit.value : highLimit.value) };
  }
}

/** A decimal IOU value with its sign turned. */
function negated(value: string): string {
  if (/^-?0*\.?0*$/.test(value)) return '0';
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}
