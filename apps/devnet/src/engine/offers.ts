/**
 * Offers and order books, after rippled View.cpp / Indexes.cpp: an offer's book directory (the
 * book's base key with the offer's quality in its last 8 bytes), `offerDelete`, `accountFunds`,
 * and moving an asset between two accounts the way offer crossing does (native drops directly,
 * an issued currency over the trust lines to and from its issuer).
 */
import { currencyToBytes, keylet } from '@ledger-node/chain';
import type { Amount, IssuedAmount } from './amounts';
import { dirRemove, u64Hex, u64Of } from './directory';
import { IouValue } from './iou';
import { AccountRootFlag } from './protocol';
import { accountReserve, nativeBalance, type ChainSettings } from './rules/context';
import type { LedgerEntry, Sandbox } from './state';
import { adjustOwnerCount, flagsOf, lineSide, rippleCredit, trustCreate, type LedgerScope } from './trustLines';
import type { FeeSettings } from './types';

/** A non-negative quantity as an exact fraction, for crossing arithmetic. */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

const TEN = 10n;
const MANTISSA_LIMIT = 10n ** 16n;

export function ratioOf(amount: Amount): Ratio {
  if (amount.native) return { numerator: amount.drops, denominator: 1n };
  const { mantissa, exponent } = amount.value;
  return exponent >= 0 ? { numerator: mantissa * TEN ** BigInt(exponent), denominator: 1n } : { numerator: mantissa, denominator: TEN ** BigInt(-exponent) };
}

/** left < right, left = right, left > right for non-negative fractions. */
export function compareRatios(left: Ratio, right: Ratio): number {
  const difference = left.numerator * right.denominator - right.numerator * left.denominator;
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

/** An issued value from a non-negative fraction, 16 digits, rounded up or down (rippled mulRound/divRound). */
function iouFromRatio(ratio: Ratio, roundUp: boolean): IouValue {
  if (ratio.numerator === 0n) return IouValue.ZERO;
  let numerator = ratio.numerator;
  let denominator = ratio.denominator;
  const shift = 17 - (numerator.toString().length - denominator.toString().length);
  if (shift > 0) numerator *= TEN ** BigInt(shift);
  else denominator *= TEN ** BigInt(-shift);
  let exponent = -shift;
  let quotient = numerator / denominator;
  let exact = quotient * denominator === numerator;
  while (quotient >= MANTISSA_LIMIT) {
    if (quotient % TEN !== 0n) exact = false;
    quotient /= TEN;
    exponent += 1;
  }
  if (!exact && roundUp) quotient += 1n;
  return IouValue.of(quotient, exponent);
}

/** An amount of `like`'s asset holding `ratio`, rounded up or down to what the asset can hold. */
export function amountFromRatio(ratio: Ratio, like: Amount, roundUp: boolean): Amount {
  if (like.native) {
    const drops = ratio.numerator / ratio.denominator;
    const exact = drops * ratio.denominator === ratio.numerator;
    return { native: true, drops: roundUp && !exact ? drops + 1n : drops };
  }
  return { ...like, value: iouFromRatio(ratio, roundUp) };
}

export function isPositiveAmount(amount: Amount): boolean {
  return amount.native ? amount.drops > 0n : amount.value.signum() > 0;
}

export function subtractAmounts(left: Amount, right: Amount): Amount {
  if (left.native && right.native) return { native: true, drops: left.drops - right.drops };
  if (!left.native && !right.native) return { ...left, value: left.value.subtract(right.value) };
  throw new Error('subtracting amounts of two assets');
}

export function minAmount(left: Amount, right: Amount): Amount {
  return compareRatios(ratioOf(left), ratioOf(right)) <= 0 ? left : right;
}

/** Same asset: both native, or the same currency and issuer. */
export function sameIssue(left: Amount, right: Amount): boolean {
  if (left.native || right.native) return left.native === right.native;
  return left.currency === right.currency && left.issuer === right.issuer;
}

/**
 * rippled `getRate(offerOut, offerIn)`: the quality an offer is filed under, in/out as an STAmount
 * packed into 64 bits — the exponent (biased by 100) in the top byte, the 16-digit mantissa below.
 */
export function offerQuality(takerPays: Amount, takerGets: Amount, rounding: DivisionRounding = 'nearest'): bigint {
  const rate = divideAmounts(takerPays, takerGets, rounding);
  if (rate.isZero()) return 0n;
  return (BigInt(rate.exponent + 100) << 56n) | rate.mantissa;
}

/** Mantissa and exponent as STAmount's `divide` reads them: native drops scaled up to 16 digits. */
function divisionOperand(amount: Amount): { magnitude: bigint; exponent: number } {
  if (!amount.native) return { magnitude: amount.value.abs().mantissa, exponent: amount.value.exponent };
  let magnitude = amount.drops < 0n ? -amount.drops : amount.drops;
  let exponent = 0;
  while (magnitude > 0n && magnitude < 10n ** 15n) {
    magnitude *= TEN;
    exponent -= 1;
  }
  return { magnitude, exponent };
}

/**
 * How a quotient comes to 16 digits: rippled's Number, to nearest with ties to even (rippled since
 * fixUniversalNumber), or truncated, as STAmount did before (the ledgers of those years show it).
 */
export type DivisionRounding = 'nearest' | 'truncate';

/**
 * rippled `divide(num, den, noIssue())` for positive amounts: the mantissas' quotient scaled by
 * 10^17 and biased by 5, then brought to 16 digits.
 */
export function divideAmounts(numerator: Amount, denominator: Amount, rounding: DivisionRounding = 'nearest'): IouValue {
  const top = divisionOperand(numerator);
  const bottom = divisionOperand(denominator);
  if (top.magnitude === 0n || bottom.magnitude === 0n) return IouValue.ZERO;
  let quotient = (top.magnitude * 10n ** 17n) / bottom.magnitude + 5n;
  let exponent = top.exponent - bottom.exponent - 17;
  const excess = quotient.toString().length - 16;
  if (excess > 0) {
    const divisor = TEN ** BigInt(excess);
    const remainder = quotient % divisor;
    quotient /= divisor;
    exponent += excess;
    if (rounding === 'nearest' && (remainder * 2n > divisor || (remainder * 2n === divisor && quotient % 2n === 1n))) quotient += 1n;
  }
  return IouValue.of(quotient, exponent);
}

/** in/out of a quality (rippled `amountFromQuality`), as an exact fraction. */
export function qualityRatio(quality: bigint): Ratio {
  const exponent = Number(quality >> 56n) - 100;
  const mantissa = quality & 0x00ffffffffffffffn;
  return exponent >= 0 ? { numerator: mantissa * TEN ** BigInt(exponent), denominator: 1n } : { numerator: mantissa, denominator: TEN ** BigInt(-exponent) };
}

export function divideRatios(left: Ratio, right: Ratio): Ratio {
  return { numerator: left.numerator * right.denominator, denominator: left.denominator * right.numerator };
}

export function multiplyRatios(left: Ratio, right: Ratio): Ratio {
  return { numerator: left.numerator * right.numerator, denominator: left.denominator * right.denominator };
}

/** The currency and issuer bytes of an asset as a book key hashes them (native: all zero). */
export function issueBytes(amount: Amount, settings: ChainSettings): { currency: Uint8Array; issuer: Uint8Array } {
  if (amount.native) return { currency: new Uint8Array(20), issuer: new Uint8Array(20) };
  return { currency: currencyToBytes(amount.currency, settings.profile.nativeCurrency), issuer: settings.keys.accountId(amount.issuer) };
}

/** The book directory key of an offer: the book's base with the quality in its last 8 bytes (rippled `keylet::quality`). */
export function bookDirectoryOf(base: string, quality: bigint): string {
  return `${base.slice(0, 48)}${u64Hex(quality)}`;
}

export function bookBaseOf(takerPays: Amount, takerGets: Amount, settings: ChainSettings): string {
  return keylet.bookBase(issueBytes(takerPays, settings), issueBytes(takerGets, settings));
}

/** The quality of a book directory from its key's last 8 bytes. */
export function directoryQualityOf(directoryIndex: string): bigint {
  return u64Of(directoryIndex.slice(48));
}

/** The fields rippled's `describe` writes on each page of a book directory. */
export function describeBookPage(page: LedgerEntry, takerPays: Amount, takerGets: Amount, quality: bigint, settings: ChainSettings): void {
  const pays = issueBytes(takerPays, settings);
  const gets = issueBytes(takerGets, settings);
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();
  page.TakerPaysCurrency = hex(pays.currency);
  page.TakerPaysIssuer = hex(pays.issuer);
  page.TakerGetsCurrency = hex(gets.currency);
  page.TakerGetsIssuer = hex(gets.issuer);
  page.ExchangeRate = u64Hex(quality);
}

/**
 * rippled `accountFunds` (fhZERO_IF_FROZEN): what `account` can deliver of `amount`'s asset — its
 * native balance above the reserve, its positive balance on the line to the issuer, or, for the
 * issuer itself, `amount` (an issuer is never short of its own currency).
 */
export function accountFunds(scope: LedgerScope, fees: FeeSettings, account: string, amount: Amount): Amount {
  const { sandbox, keys } = scope;
  if (amount.native) {
    const root = sandbox.read(keys.account(account));
    if (root === undefined) return { native: true, drops: 0n };
    const liquid = nativeBalance(root) - accountReserve(fees, Number(root.OwnerCount ?? 0));
    return { native: true, drops: liquid > 0n ? liquid : 0n };
  }
  if (amount.issuer === account) return amount;
  const issuerRoot = sandbox.read(keys.account(amount.issuer));
  if (issuerRoot !== undefined && (flagsOf(issuerRoot) & AccountRootFlag.globalFreeze) !== 0) return { ...amount, value: IouValue.ZERO };
  const line = sandbox.read(keys.trustLine(account, amount.issuer, amount.currency));
  if (line === undefined) return { ...amount, value: IouValue.ZERO };
  const balance = lineSide(line, account).balance;
  return { ...amount, value: balance.signum() > 0 ? balance : IouValue.ZERO };
}

/** rippled `offerDelete`: out of its owner's directory and its book directory, one owned object fewer. */
export function offerDelete(scope: LedgerScope, offerIndex: string): boolean {
  const { sandbox, keys } = scope;
  const offer = sandbox.peek(offerIndex);
  if (offer === undefined) return false;
  const owner = offer.Account as string;
  if (!dirRemove(sandbox, keys, keys.ownerDir(owner), u64Of(offer.OwnerNode), offerIndex, false)) return false;
  if (!dirRemove(sandbox, keys, offer.BookDirectory as string, u64Of(offer.BookNode), offerIndex, false)) return false;
  adjustOwnerCount(scope, owner, -1);
  sandbox.erase(offerIndex);
  return true;
}

function creditNative(sandbox: Sandbox, index: string, drops: bigint): void {
  const root = sandbox.peek(index)!;
  root.Balance = (nativeBalance(root) + drops).toString();
  sandbox.update(index, root);
}

/** The issuer pays `amount` to `holder` on their line, creating it (zero limit) when the holder has none, as rippled's `rippleCredit` does. */
function issue(scope: LedgerScope, holder: string, amount: IssuedAmount): boolean {
  const lineIndex = scope.keys.trustLine(holder, amount.issuer, amount.currency);
  if (scope.sandbox.exists(lineIndex)) return rippleCredit(scope, amount.issuer, holder, lineIndex, amount.value);
  const holderRoot = scope.sandbox.read(scope.keys.account(holder));
  return trustCreate(scope, {
    setter: holder,
    peer: amount.issuer,
    currency: amount.currency,
    lineIndex,
    noRipple: holderRoot === undefined || (flagsOf(holderRoot) & AccountRootFlag.defaultRipple) === 0,
    freeze: false,
    auth: false,
    balance: amount.value,
    limit: IouValue.ZERO,
    qualityIn: 0,
    qualityOut: 0,
  });
}

const QUALITY_ONE = 1_000_000_000n;

/**
 * The issuer's TransferRate on `amount` moving between `from` and `to` (rippled `transferRate`):
 * parts per billion, charged only when neither side is the issuer; 1:1 for the native asset.
 */
export function transferFee(scope: LedgerScope, from: string, to: string, amount: Amount): Ratio {
  if (amount.native || from === amount.issuer || to === amount.issuer) return { numerator: 1n, denominator: 1n };
  const issuerRoot = scope.sandbox.read(scope.keys.account(amount.issuer));
  const rate = BigInt(Number(issuerRoot?.TransferRate ?? 0) || Number(QUALITY_ONE));
  return { numerator: rate, denominator: QUALITY_ONE };
}

/**
 * Moves `amount` from `from` to `to` as a crossing does: drops between the roots, an issued
 * currency through its issuer — to's line credited `amount`, from's line debited `amount` times
 * the issuer's transfer fee (the payer bears it, as the offer owner and the taker do in rippled's
 * offer crossing).
 */
export function transferAsset(scope: LedgerScope, from: string, to: string, amount: Amount): boolean {
  if (amount.native) {
    creditNative(scope.sandbox, scope.keys.account(from), -amount.drops);
    creditNative(scope.sandbox, scope.keys.account(to), amount.drops);
    return true;
  }
  if (from !== amount.issuer) {
    const debit = amountFromRatio(multiplyRatios(ratioOf(amount), transferFee(scope, from, to, amount)), amount, true);
    const lineIndex = scope.keys.trustLine(from, amount.issuer, amount.currency);
    if (!scope.sandbox.exists(lineIndex) || !rippleCredit(scope, from, amount.issuer, lineIndex, (debit as IssuedAmount).value)) return false;
  }
  if (to === amount.issuer) return true;
  return issue(scope, to, amount);
}
