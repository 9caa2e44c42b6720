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

/** Significant digits of an issued amount's mantissa (rippled STAmount). */
const MANTISSA_DIGITS = 16;

/**
 * The sum of issued amounts as rippled's STAmount holds it (the Number arithmetic of
 * fixUniversalNumber): the exact sum rounded to 16 significant digits, halves to even, printed as
 * STAmount::getText prints it.
 */
export function sumDecimal(values: readonly string[]): string {
  const terms = values.map(parse).filter((term) => term.digits !== '');
  if (terms.length === 0) return '0';
  const exponent = Math.min(...terms.map((term) => term.exponent));
  let total = 0n;
  for (const term of terms) total += (term.negative ? -1n : 1n) * BigInt(term.digits) * 10n ** BigInt(term.exponent - exponent);
  if (total === 0n) return '0';
  const negative = total < 0n;
  let mantissa = negative ? -total : total;
  let scale = exponent;
  const excess = mantissa.toString().length - MANTISSA_DIGITS;
  if (excess > 0) {
    const divisor = 10n ** BigInt(excess);
    const [quotient, remainder] = [mantissa / divisor, mantissa % divisor];
    const twice = remainder * 2n;
    mantissa = twice > divisor || (twice === divisor && quotient % 2n === 1n) ? quotient + 1n : quotient;
    scale += excess;
    if (mantissa.toString().length > MANTISSA_DIGITS) {
      mantissa /= 10n;
      scale += 1;
    }
  } else if (excess < 0) {
    mantissa *= 10n ** BigInt(-excess);
    scale += excess;
  }
  return amountText(negative ? -mantissa : mantissa, scale);
}
