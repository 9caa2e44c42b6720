/** Exact comparison and sums of the decimal texts rippled prints for issued amounts ("-1.5", "1e-5", "12300"). */
import { amountText } from '@ledger-node/rippled-api';

interface Decimal {
  readonly negative: boolean;
  /** Digits without leading zeros ('' for zero). */
  readonly digits: string;
  /** Value = digits × 10^exponent. */
  readonly exponent: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function parse(text: string): Decimal {
  const match = DECIMAL.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new Error(`not a decimal amount: ${text}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let scale = Number(exponent) - fraction.length;
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  scale += trailing;
  return { negative: sign === '-' && digits !== '', digits, exponent: digits === '' ? 0 : scale };
}

function compareMagnitude(a: Decimal, b: Decimal): number {
  if (a.digits === '' || b.digits === '') return (a.digits === '' ? 0 : 1) - (b.digits === '' ? 0 : 1);
  const orderA = a.digits.length + a.exponent;
  const orderB = b.digits.length + b.exponent;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  const width = Math.max(a.digits.length, b.digits.length);
  const left = a.digits.padEnd(width, '0');
  const right = b.digits.padEnd(width, '0');
  return left < right ? -1 : left > right ? 1 : 0;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`. */
export function compareDecimal(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (left.negative !== right.negative) return left.negative ? -1 : 1;
  const magnitude = compareMagnitude(left, right);
  return left.negative ? -magnitude : magnitude;
}

export function negateDecimal(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('-')) return trimmed.slice(1);
  return trimmed.startsWith('+') ? `-${trimmed.slice(1)}` : `-${trimmed}`;
}

/** A decimal value: `value` × 10^`exponent`. */
export interface ExactDecimal {
  readonly value: bigint;
  readonly exponent: number;
}

/** Significant digits of an issued amount's mantissa (rippled STAmount). */
export const AMOUNT_DIGITS = 16;

export function exactOf(text: string): ExactDecimal {
  const { negative, digits, exponent } = parse(text);
  return digits === '' ? { value: 0n, exponent: 0 } : { value: (negative ? -1n : 1n) * BigInt(digits), exponent };
}

/** `a` and `b` on their common exponent. */
function aligned(a: ExactDecimal, b: ExactDecimal): [bigint, bigint, number] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [a.value * 10n ** BigInt(a.exponent - exponent), b.value * 10n ** BigInt(b.exponent - exponent), exponent];
}

export function addExact(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const [left, right, exponent] = aligned(a, b);
  return { value: left + right, exponent };
}

export function subtractExact(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return addExact(a, { value: -b.value, exponent: b.exponent });
}

export function multiplyExact(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return { value: a.value * b.value, exponent: a.exponent + b.exponent };
}

/**
 * `value` × 10^`exponent` held with `digits` significant digits, as rippled's Number normalizes:
 * to nearest, a half to the even neighbour; `inexact` marks a value already cut below its last
 * digit (a quotient's or root's remainder), which breaks a tie upwards.
 */
export function roundExact(exact: ExactDecimal, digits: number, inexact = false): ExactDecimal {
  if (exact.value === 0n) return { value: 0n, exponent: 0 };
  const negative = exact.value < 0n;
  let mantissa = negative ? -exact.value : exact.value;
  let exponent = exact.exponent;
  const excess = mantissa.toString().length - digits;
  if (excess > 0) {
    const divisor = 10n ** BigInt(excess);
    const [quotient, remainder] = [mantissa / divisor, mantissa % divisor];
    const twice = remainder * 2n;
    const up = twice > divisor || (twice === divisor && (inexact || quotient % 2n === 1n));
    mantissa = up ? quotient + 1n : quotient;
    exponent += excess;
    if (mantissa.toString().length > digits) {
      mantissa /= 10n;
      exponent += 1;
    }
  } else if (excess < 0) {
    mantissa *= 10n ** BigInt(-excess);
    exponent += excess;
  }
  return { value: negative ? -mantissa : mantissa, exponent };
}

/** `a` / `b` with `digits` significant digits. */
export function divideExact(a: ExactDecimal, b: ExactDecimal, digits: number): ExactDecimal {
  if (b.value === 0n) throw new RangeError('division by zero');
  // Enough digits past the last one kept to round from, the remainder marking what lies below.
  const scale = BigInt(digits + 3 + Math.max(0, b.value.toString().length - a.value.toString().length));
  const numerator = a.value * 10n ** scale;
  return roundExact({ value: numerator / b.value, exponent: a.exponent - b.exponent - Number(scale) }, digits, numerator % b.value !== 0n);
}

/**
 * The square root as rippled's Number root2 takes it, each step held with `digits` significant
 * digits: the value scaled into (0, 1) by an even power of ten, a quadratic first guess, then
 * Newton's steps r ← (r + f/r) / 2 until r repeats. (Its last digit can differ from the exactly
 * rounded root: rippled's is the answer.)
 */
export function squareRootExact(a: ExactDecimal, digits: number): ExactDecimal {
  if (a.value < 0n) throw new RangeError('square root of a negative value');
  const f0 = roundExact(a, digits);
  if (f0.value === 0n) return f0;
  const one = roundExact({ value: 1n, exponent: 0 }, digits);
  if (f0.value === one.value && f0.exponent === one.exponent) return f0;
  const round = (value: ExactDecimal) => roundExact(value, digits);
  const number = (value: number) => round({ value: BigInt(value), exponent: 0 });
  // rippled: e = exponent + log10(minimum mantissa) + 1, made even; f /= 10^e.
  let scale = f0.exponent + digits;
  if (scale % 2 !== 0) scale += 1;
  const f = { value: f0.value, exponent: f0.exponent - scale };
  let root = divideExact(round(addExact(round(multiplyExact(round(addExact(round(multiplyExact(number(-60), f)), number(144))), f)), number(18))), number(105), digits);
  const same = (x: ExactDecimal | undefined, y: ExactDecimal) => x !== undefined && x.value === y.value && x.exponent === y.exponent;
  let previous: ExactDecimal | undefined;
  let beforePrevious: ExactDecimal | undefined;
  do {
    beforePrevious = previous;
    previous = root;
    root = divideExact(round(addExact(root, divideExact(f, root, digits))), number(2), digits);
  } while (!same(previous, root) && !same(beforePrevious, root));
  return { value: root.value, exponent: root.exponent + scale / 2 };
}

/** rippled STAmount::getText / to_string(Number) of a normalized value. */
export function exactText(exact: ExactDecimal): string {
  return amountText(exact.value, exact.exponent);
}

/**
 * The sum of issued amounts as rippled's STAmount holds it (the Number arithmetic of
 * fixUniversalNumber): the exact sum rounded to 16 significant digits, halves to even, printed as
 * STAmount::getText prints it.
 */
export function sumDecimal(values: readonly string[]): string {
  const total = values.map(exactOf).reduce(addExact, { value: 0n, exponent: 0 });
  return exactText(roundExact(total, AMOUNT_DIGITS));
}
