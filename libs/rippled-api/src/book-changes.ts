/**
 * rippled `book_changes` (BookChanges.h computeBookChanges; Clio's is the same): what a ledger's
 * transactions traded, per order book, from their metadata alone. Every Offer that a transaction
 * modified or deleted with both TakerGets and TakerPays among its PreviousFields was consumed by
 * (final − previous); an offer deleted by the OfferCancel or OfferCreate that names it in
 * `OfferSequence` traded nothing and is skipped. Per book (side A the native asset when one side is
 * native, else the issue that sorts first): the volumes of both sides, and the rate A/B of each
 * trade as its `open`, `close`, `high` and `low`.
 *
 * Transactions are read in the order of the ledger's transaction tree (by hash), as rippled walks
 * `ledger->txs`; books come out in the byte order of their `A|B` key (rippled's std::map).
 */
import { IouValue } from '@ledger-node/chain';
import { affectedNodes } from './affected-nodes';
import { amountText } from './book';
import type { JsonObject } from './protocol';

/** An amount in STAmount's terms: native drops, or an issued value with its issue `issuer/currency`. */
type Amount = { native: true; drops: bigint } | { native: false; issue: string; value: IouValue };

const DROPS = /^-?\d+$/;

function amountOf(json: unknown): Amount | undefined {
  if (typeof json === 'string') return DROPS.test(json) ? { native: true, drops: BigInt(json) } : undefined;
  if (json === null || typeof json !== 'object') return undefined;
  const { currency, issuer, value } = json as Record<string, unknown>;
  // MPT amounts (mpt_issuance_id) are no currency/issuer pair: rippled's offers hold none.
  if (typeof currency !== 'string' || typeof issuer !== 'string' || typeof value !== 'string') return undefined;
  try {
    return { native: false, issue: `${issuer}/${currency}`, value: IouValue.parse(value) };
  } catch {
    return undefined;
  }
}

/** rippled `to_string(Issue)`: "XRP" for the native asset, else `account/currency`. */
function issueText(amount: Amount): string {
  return amount.native ? 'XRP' : amount.issue;
}

/**
 * A mantissa and exponent rounded to 16 digits to nearest, ties to even: rippled's `Number`, which
 * STAmount's issued arithmetic uses outside transaction processing (the switchover is on by default).
 */
function rounded(mantissa: bigint, exponent: number): IouValue {
  const negative = mantissa < 0n;
  let magnitude = negative ? -mantissa : mantissa;
  let scaled = exponent;
  const excess = magnitude.toString().length - 16;
  if (excess > 0) {
    const divisor = 10n ** BigInt(excess);
    const remainder = magnitude % divisor;
    magnitude /= divisor;
    scaled += excess;
    if (remainder * 2n > divisor || (remainder * 2n === divisor && magnitude % 2n === 1n)) magnitude += 1n;
  }
  return IouValue.of(negative ? -magnitude : magnitude, scaled);
}

/** The exact sum of two issued values, rounded as `Number` rounds it. */
function sum(left: IouValue, right: IouValue): IouValue {
  if (left.isZero()) return right;
  if (right.isZero()) return left;
  const common = Math.min(left.exponent, right.exponent);
  const exact = left.mantissa * 10n ** BigInt(left.exponent - common) + right.mantissa * 10n ** BigInt(right.exponent - common);
  return rounded(exact, common);
}

function subtract(left: Amount, right: Amount): Amount | undefined {
  if (left.native && right.native) return { native: true, drops: left.drops - right.drops };
  if (!left.native && !right.native && left.issue === right.issue) return { ...left, value: sum(left.value, right.value.negate()) };
  return undefined;
}

function add(left: Amount, right: Amount): Amount {
  if (left.native && right.native) return { native: true, drops: left.drops + right.drops };
  if (!left.native && !right.native) return { ...left, value: sum(left.value, right.value) };
  // A book's side is one asset throughout: its key names it.
  throw new Error('book_changes: one side of a book holds two assets');
}

function isZero(amount: Amount): boolean {
  return amount.native ? amount.drops === 0n : amount.value.isZero();
}

function negate(amount: Amount): Amount {
  return amount.native ? { native: true, drops: -amount.drops } : { ...amount, value: amount.value.negate() };
}

function isNegative(amount: Amount): boolean {
  return amount.native ? amount.drops < 0n : amount.value.signum() < 0;
}

/** Mantissa and exponent as STAmount's `divide` reads them: a native amount's drops scaled up to 16 digits. */
function divisionOperand(amount: Amount): { magnitude: bigint; exponent: number } {
  if (!amount.native) return { magnitude: amount.value.abs().mantissa, exponent: amount.value.exponent };
  let magnitude = amount.drops < 0n ? -amount.drops : amount.drops;
  let exponent = 0;
  while (magnitude < 10n ** 15n) {
    magnitude *= 10n;
    exponent -= 1;
  }
  return { magnitude, exponent };
}

/** rippled `divide(num, den, noIssue())`: the quotient of the mantissas scaled by 10^17, biased by 5, then rounded. */
function divide(numerator: Amount, denominator: Amount): IouValue {
  if (isZero(numerator)) return IouValue.ZERO;
  const top = divisionOperand(numerator);
  const bottom = divisionOperand(denominator);
  const quotient = (top.magnitude * 10n ** 17n) / bottom.magnitude + 5n;
  const negative = isNegative(numerator) !== isNegative(denominator);
  return rounded(negative ? -quotient : quotient, top.exponent - bottom.exponent - 17);
}

function valueText(value: IouValue): string {
  return amountText(value.mantissa, value.exponent);
}

interface Tally {
  volumeA: Amount;
  volumeB: Amount;
  high: IouValue;
  low: IouValue;
  open: IouValue;
  close: IouValue;
  domain?: string;
}

export interface BookChangesLedger {
  ledgerIndex: number;
  /** Uppercase hex. */
  ledgerHash: string;
  /** Seconds since the ripple epoch. */
  closeTime: number;
  validated: boolean;
}

export interface BookChangesTransaction {
  /** Uppercase hex transaction hash: the order of the ledger's transaction tree. */
  hash: string;
  txJson: JsonObject;
  metaJson: JsonObject;
}

/** The trades of one transaction, in its metadata's order: [book key, side A, side B, rate, domain]. */
function tradesOf(transaction: BookChangesTransaction): Array<{ key: string; first: Amount; second: Amount; rate: IouValue; domain?: string }> {
  const { txJson, metaJson } = transaction;
  const type = txJson.TransactionType;
  const offerCancel = (type === 'OfferCancel' || type === 'OfferCreate') && typeof txJson.OfferSequence === 'number' ? txJson.OfferSequence : undefined;
  const trades: Array<{ key: string; first: Amount; second: Amount; rate: IouValue; domain?: string }> = [];
  for (const { kind, node } of affectedNodes(metaJson)) {
    if (kind === 'CreatedNode' || node.LedgerEntryType !== 'Offer') continue;
    const finals = node.FinalFields as JsonObject | undefined;
    const previous = node.PreviousFields as JsonObject | undefined;
    if (finals === undefined || previous === undefined) continue;
    const [finalGets, finalPays, previousGets, previousPays] = [finals.TakerGets, finals.TakerPays, previous.TakerGets, previous.TakerPays].map(amountOf);
    if (!finalGets || !finalPays || !previousGets || !previousPays) continue;
    if (kind === 'DeletedNode' && offerCancel !== undefined && finals.Sequence === offerCancel) continue;
    const deltaGets = subtract(finalGets, previousGets);
    const deltaPays = subtract(finalPays, previousPays);
    if (!deltaGets || !deltaPays) continue;
    const gets = issueText(deltaGets);
    const pays = issueText(deltaPays);
    // rippled compares the issue texts as std::string: byte order.
    const noSwap = deltaGets.native ? true : deltaPays.native ? false : Buffer.compare(Buffer.from(gets), Buffer.from(pays)) < 0;
    let first = noSwap ? deltaGets : deltaPays;
    let second = noSwap ? deltaPays : deltaGets;
    if (isZero(second)) continue;
    const rate = divide(first, second);
    if (isNegative(first)) first = negate(first);
    if (isNegative(second)) second = negate(second);
    const domain = typeof finals.DomainID === 'string' ? finals.DomainID : undefined;
    trades.push({ key: noSwap ? `${gets}|${pays}` : `${pays}|${gets}`, first, second, rate, domain });
  }
  return trades;
}

export function bookChanges(ledger: BookChangesLedger, transactions: readonly BookChangesTransaction[]): JsonObject {
  const tally = new Map<string, Tally>();
  const inTreeOrder = [...transactions].sort((left, right) => (left.hash < right.hash ? -1 : left.hash > right.hash ? 1 : 0));
  for (const transaction of inTreeOrder) {
    for (const { key, first, second, rate, domain } of tradesOf(transaction)) {
      const book = tally.get(key);
      if (book === undefined) {
        tally.set(key, { volumeA: first, volumeB: second, high: rate, low: rate, open: rate, close: rate, domain });
        continue;
      }
      book.volumeA = add(book.volumeA, first);
      book.volumeB = add(book.volumeB, second);
      if (book.high.lessThan(rate)) book.high = rate;
      if (book.low.greaterThan(rate)) book.low = rate;
      book.close = rate;
      book.domain = domain;
    }
  }
  const keys = [...tally.keys()].sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right)));
  const changes = keys.map((key) => {
    const book = tally.get(key)!;
    const side = (amount: Amount) => (amount.native ? 'XRP_drops' : amount.issue);
    const volume = (amount: Amount) => (amount.native ? amount.drops.toString() : valueText(amount.value));
    const change: JsonObject = {
      currency_a: side(book.volumeA),
      currency_b: side(book.volumeB),
      volume_a: volume(book.volumeA),
      volume_b: volume(book.volumeB),
      high: valueText(book.high),
      low: valueText(book.low),
      open: valueText(book.open),
      close: valueText(book.close),
    };
    if (book.domain !== undefined) change.domain = book.domain;
    return change;
  });
  return {
    type: 'bookChanges',
    validated: ledger.validated,
    ledger_index: ledger.ledgerIndex,
    ledger_hash: ledger.ledgerHash,
    ledger_time: ledger.closeTime,
    changes,
  };
}
