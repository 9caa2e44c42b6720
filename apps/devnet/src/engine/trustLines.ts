/**
 * Trust lines (RippleState; SkywellState on Jingtum) and the ledger operations on them, after
 * rippled View.cpp: `trustCreate`, `trustDelete`, `rippleCredit`, `adjustOwnerCount`.
 *
 * A line joins a low and a high account (by AccountID). `Balance` is from the low account's side:
 * positive means the high account owes the low one. Its issuer is the "no account" (AccountID 1).
 */
import { dirInsert, dirRemove, u64Hex, u64Of } from './directory';
import { IouValue } from './iou';
import type { LedgerKeys } from './keys';
import { AccountRootFlag, TrustLineFlag } from './protocol';
import type { LedgerEntry, Sandbox } from './state';

export interface IssuedJson {
  currency: string;
  issuer: string;
  value: string;
}

/** What an operation on the ledger needs besides the sandbox. */
export interface LedgerScope {
  sandbox: Sandbox;
  keys: LedgerKeys;
  trustLineType: string;
  /** Issuer written in a line's Balance (rippled `noAccount()`, AccountID 1). */
  noAccount: string;
}

export function valueOf(amount: unknown): IouValue {
  return IouValue.parse((amount as IssuedJson).value);
}

export function issuerOf(amount: unknown): string {
  return (amount as IssuedJson).issuer;
}

export function flagsOf(entry: Readonly<LedgerEntry>): number {
  return Number(entry.Flags ?? 0) >>> 0;
}

/** One side of a trust line, seen from `account`. */
export interface LineSide {
  isHigh: boolean;
  /** What `account` holds of the peer's currency (negative: what it owes the peer). */
  balance: IouValue;
  limit: IouValue;
  peerLimit: IouValue;
  noRipple: boolean;
  peerNoRipple: boolean;
}

export function lineSide(line: Readonly<LedgerEntry>, account: string): LineSide {
  const isHigh = issuerOf(line.HighLimit) === account;
  const lowBalance = valueOf(line.Balance);
  const flags = flagsOf(line);
  return {
    isHigh,
    balance: isHigh ? lowBalance.negate() : lowBalance,
    limit: valueOf(isHigh ? line.HighLimit : line.LowLimit),
    peerLimit: valueOf(isHigh ? line.LowLimit : line.HighLimit),
    noRipple: (flags & (isHigh ? TrustLineFlag.highNoRipple : TrustLineFlag.lowNoRipple)) !== 0,
    peerNoRipple: (flags & (isHigh ? TrustLineFlag.lowNoRipple : TrustLineFlag.highNoRipple)) !== 0,
  };
}

/** rippled `adjustOwnerCount`. */
export function adjustOwnerCount(scope: LedgerScope, address: string, delta: number): void {
  const index = scope.keys.account(address);
  const account = scope.sandbox.peek(index);
  if (account === undefined) return;
  const current = Number(account.OwnerCount ?? 0);
  account.OwnerCount = Math.max(0, current + delta);
  scope.sandbox.update(index, account);
}

export interface TrustCreateParams {
  /** The account whose side is being set (the TrustSet sender, or the receiver of a payment). */
  setter: string;
  peer: string;
  currency: string;
  lineIndex: string;
  noRipple: boolean;
  freeze: boolean;
  auth: boolean;
  /** Balance from the setter's side. */
  balance: IouValue;
  /** The setter's limit. */
  limit: IouValue;
  qualityIn: number;
  qualityOut: number;
}

/**
 * rippled `trustCreate`: inserts the line into both owner directories, sets the setter's reserve
 * flag and owner count, and — when the peer lacks DefaultRipple — the peer's NoRipple flag.
 * Returns false when a directory is full.
 */
export function trustCreate(scope: LedgerScope, params: TrustCreateParams): boolean {
  const { sandbox, keys } = scope;
  const setterIsHigh = keys.compareAccounts(params.setter, params.peer) > 0;
  const [low, high] = setterIsHigh ? [params.peer, params.setter] : [params.setter, params.peer];
  const line: LedgerEntry = {
    LedgerEntryType: scope.trustLineType,
    Flags: 0,
    Balance: { currency: params.currency, issuer: scope.noAccount, value: '0' },
    LowLimit: { currency: params.currency, issuer: low, value: '0' },
    HighLimit: { currency: params.currency, issuer: high, value: '0' },
    PreviousTxnID: '0'.repeat(64),
    PreviousTxnLgrSeq: 0,
  };
  sandbox.insert(params.lineIndex, line);
  const lowPage = dirInsert(sandbox, keys, keys.ownerDir(low), params.lineIndex, (page) => (page.Owner = low));
  if (lowPage === undefined) return false;
  const highPage = dirInsert(sandbox, keys, keys.ownerDir(high), params.lineIndex, (page) => (page.Owner = high));
  if (highPage === undefined) return false;
  line.LowNode = u64Hex(lowPage);
  line.HighNode = u64Hex(highPage);

  const setterLimitField = setterIsHigh ? 'HighLimit' : 'LowLimit';
  line[setterLimitField] = { currency: params.currency, issuer: params.setter, value: params.limit.toString() };
  if (params.qualityIn !== 0) line[setterIsHigh ? 'HighQualityIn' : 'LowQualityIn'] = params.qualityIn;
  if (params.qualityOut !== 0) line[setterIsHigh ? 'HighQualityOut' : 'LowQualityOut'] = params.qualityOut;

  let flags = setterIsHigh ? TrustLineFlag.highReserve : TrustLineFlag.lowReserve;
  if (params.auth) flags |= setterIsHigh ? TrustLineFlag.highAuth : TrustLineFlag.lowAuth;
  if (params.noRipple) flags |= setterIsHigh ? TrustLineFlag.highNoRipple : TrustLineFlag.lowNoRipple;
  if (params.freeze) flags |= setterIsHigh ? TrustLineFlag.highFreeze : TrustLineFlag.lowFreeze;
  const peerRoot = sandbox.read(keys.account(params.peer));
  if (peerRoot !== undefined && (flagsOf(peerRoot) & AccountRootFlag.defaultRipple) === 0) {
    // rippled: "The other side's default is no rippling".
    flags |= setterIsHigh ? TrustLineFlag.lowNoRipple : TrustLineFlag.highNoRipple;
  }
  line.Flags = flags >>> 0;
  adjustOwnerCount(scope, params.setter, 1);
  const lowBalance = setterIsHigh ? params.balance.negate() : params.balance;
  line.Balance = { currency: params.currency, issuer: scope.noAccount, value: lowBalance.toString() };
  return true;
}

/** rippled `trustDelete`: removes the line from both owner directories and the ledger. */
export function trustDelete(scope: LedgerScope, lineIndex: string): boolean {
  const { sandbox, keys } = scope;
  const line = sandbox.peek(lineIndex);
  if (line === undefined) return false;
  const low = issuerOf(line.LowLimit);
  const high = issuerOf(line.HighLimit);
  if (!dirRemove(sandbox, keys, keys.ownerDir(low), u64Of(line.LowNode), lineIndex, false)) return false;
  if (!dirRemove(sandbox, keys, keys.ownerDir(high), u64Of(line.HighNode), lineIndex, false)) return false;
  sandbox.erase(lineIndex);
  return true;
}

/**
 * rippled `rippleCredit` on an existing line: `sender` pays `amount` of the line's currency to
 * `receiver`. When the sender's balance drops from positive to zero or below and its side is
 * otherwise at defaults, its reserve is released; a line left entirely at defaults is deleted.
 */
export function rippleCredit(scope: LedgerScope, sender: string, receiver: string, lineIndex: string, amount: IouValue): boolean {
  const { sandbox, keys } = scope;
  const line = sandbox.peek(lineIndex);
  if (line === undefined) return false;
  const senderIsHigh = keys.compareAccounts(sender, receiver) > 0;
  const lowBalance = valueOf(line.Balance);
  const before = senderIsHigh ? lowBalance.negate() : lowBalance;
  const after = before.subtract(amount);
  const flags = flagsOf(line);
  const senderRoot = sandbox.read(keys.account(sender));
  const senderDefaultRipple = senderRoot !== undefined && (flagsOf(senderRoot) & AccountRootFlag.defaultRipple) !== 0;
  const senderNoRipple = (flags & (senderIsHigh ? TrustLineFlag.highNoRipple : TrustLineFlag.lowNoRipple)) !== 0;
  let deleteLine = false;
  if (
    before.signum() > 0 &&
    after.signum() <= 0 &&
    (flags & (senderIsHigh ? TrustLineFlag.highReserve : TrustLineFlag.lowReserve)) !== 0 &&
    senderNoRipple !== senderDefaultRipple &&
    (flags & (senderIsHigh ? TrustLineFlag.highFreeze : TrustLineFlag.lowFreeze)) === 0 &&
    valueOf(senderIsHigh ? line.HighLimit : line.LowLimit).isZero() &&
    Number(line[senderIsHigh ? 'HighQualityIn' : 'LowQualityIn'] ?? 0) === 0 &&
    Number(line[senderIsHigh ? 'HighQualityOut' : 'LowQualityOut'] ?? 0) === 0
  ) {
    adjustOwnerCount(scope, sender, -1);
    line.Flags = (flags & ~(senderIsHigh ? TrustLineFlag.highReserve : TrustLineFlag.lowReserve)) >>> 0;
    deleteLine = after.isZero() && (flags & (senderIsHigh ? TrustLineFlag.lowReserve : TrustLineFlag.highReserve)) === 0;
  }
  const currency = (line.Balance as IssuedJson).currency;
  // The balance is set to zero even when the line is deleted, so metadata shows the change.
  line.Balance = { currency, issuer: scope.noAccount, value: (senderIsHigh ? after.negate() : after).toString() };
  sandbox.update(lineIndex, line);
  if (deleteLine) return trustDelete(scope, lineIndex);
  return true;
}
