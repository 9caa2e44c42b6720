/**
 * Issued-currency values with rippled's STAmount arithmetic: a signed 16-digit mantissa in
 * [10^15, 10^16) and a decimal exponent in [-96, 80]. Addition truncates the smaller operand
 * to the larger exponent, as rippled's `operator+(STAmount, STAmount)` does, so balances
 * computed here match what rippled would store.
 */
const MIN_MANTISSA = 10n ** 15n;
const MAX_MANTISSA = 10n ** 16n - 1n;
const MIN_EXPONENT = -96;
const MAX_EXPONENT = 80;
const TEN_TO_14 = 10n ** 14n;
const TEN_TO_17 = 10n ** 17n;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export class IouValueError extends Error {}

export class IouValue {
  static readonly ZERO = new IouValue(0n, 0);

  /** Signed mantissa; zero or with 16 digits. */
  readonly mantissa: bigint;
  readonly exponent: number;

  private constructor(mantissa: bigint, exponent: number) {
    this.mantissa = mantissa;
    this.exponent = exponent;
  }

  /** rippled `STAmount::canonicalize` for issued values: scale the mantissa into 16 digits. */
  static of(mantissa: bigint, exponent: number): IouValue {
    if (mantissa === 0n) return IouValue.ZERO;
    const negative = mantissa < 0n;
    let magnitude = negative ? -mantissa : mantissa;
    let scaled = exponent;
    while (magnitude < MIN_MANTISSA && scaled > MIN_EXPONENT) {
      magnitude *= 10n;
      scaled -= 1;
    }
    while (magnitude > MAX_MANTISSA) {
      if (scaled >= MAX_EXPONENT) throw new IouValueError('issued amount overflow');
      magnitude /= 10n;
      scaled += 1;
    }
    // rippled: a value too small to represent becomes zero.
    if (magnitude < MIN_MANTISSA || scaled < MIN_EXPONENT) return IouValue.ZERO;
    if (scaled > MAX_EXPONENT) throw new IouValueError('issued amount overflow');
    return new IouValue(negative ? -magnitude : magnitude, scaled);
  }

  /** Parses the decimal text of an issued amount's `value` ("12.5", "-3", "1e-20"). */
  static parse(text: string): IouValue {
    const match = typeof text === 'string' ? DECIMAL.exec(text.trim()) : null;
    if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
      throw new IouValueError(`'${String(text)}' is not a decimal number`);
    }
    const [, sign, whole, fraction = '', exponentText = '0'] = match;
    const digits = `${whole}${fraction}`.replace(/^0+/, '');
    if (digits === '') return IouValue.ZERO;
    // Trailing zeros carry no precision; dropping them keeps the mantissa within bigint reach.
    const trimmed = digits.replace(/0+$/, '');
    const exponent = Number(exponentText) - fraction.length + (digits.length - trimmed.length);
    if (trimmed.length > 16) throw new IouValueError(`'${text}' has more than 16 significant digits`);
    const mantissa = BigInt(trimmed);
    return IouValue.of(sign === '-' ? -mantissa : mantissa, exponent);
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  signum(): -1 | 0 | 1 {
    return this.mantissa === 0n ? 0 : this.mantissa < 0n ? -1 : 1;
  }

  negate(): IouValue {
    return this.mantissa === 0n ? this : new IouValue(-this.mantissa, this.exponent);
  }

  abs(): IouValue {
    return this.mantissa < 0n ? this.negate() : this;
  }

  /** rippled `operator+`: align to the larger exponent by truncating, then canonicalize. */
  add(other: IouValue): IouValue {
    if (this.isZero()) return other;
    if (other.isZero()) return this;
    let left = this.mantissa;
    let right = other.mantissa;
    let leftExponent = this.exponent;
    let rightExponent = other.exponent;
    while (leftExponent < rightExponent) {
      left /= 10n;
      leftExponent += 1;
    }
    while (rightExponent < leftExponent) {
      right /= 10n;
      rightExponent += 1;
    }
    const sum = left + right;
    // rippled treats a sum within ±10 ulps of zero as zero.
    if (sum >= -10n && sum <= 10n) return IouValue.ZERO;
    return IouValue.of(sum, leftExponent);
  }

  subtract(other: IouValue): IouValue {
    return this.add(other.negate());
  }

  compare(other: IouValue): -1 | 0 | 1 {
    const difference = this.exactDifferenceSign(other);
    return difference;
  }

  lessThan(other: IouValue): boolean {
    return this.compare(other) < 0;
  }

  greaterThan(other: IouValue): boolean {
    return this.compare(other) > 0;
  }

  min(other: IouValue): IouValue {
    return this.compare(other) <= 0 ? this : other;
  }

  /** rippled `multiply(STAmount, STAmount)`: truncating product with a +7 bias before canonicalizing. */
  multiply(other: IouValue): IouValue {
    if (this.isZero() || other.isZero()) return IouValue.ZERO;
    const negative = this.signum() !== other.signum();
    const product = (this.abs().mantissa * other.abs().mantissa) / TEN_TO_14 + 7n;
    return IouValue.of(negative ? -product : product, this.exponent + other.exponent + 14);
  }

  /** rippled `divide(STAmount, STAmount)`: quotient scaled by 10^17 with a +5 bias. */
  divide(other: IouValue): IouValue {
    if (other.isZero()) throw new IouValueError('division by zero');
    if (this.isZero()) return IouValue.ZERO;
    const negative = this.signum() !== other.signum();
    const quotient = (this.abs().mantissa * TEN_TO_17) / other.abs().mantissa + 5n;
    return IouValue.of(negative ? -quotient : quotient, this.exponent - other.exponent - 17);
  }

  /** Plain decimal text, as ripple-binary-codec prints an issued amount's value. */
  toString(): string {
    if (this.isZero()) return '0';
    const negative = this.mantissa < 0n;
    const digits = (negative ? -this.mantissa : this.mantissa).toString().replace(/0+$/, '');
    const exponent = this.exponent + (16 - digits.length);
    let text: string;
    if (exponent >= 0) {
      text = digits + '0'.repeat(exponent);
    } else if (-exponent < digits.length) {
      text = `${digits.slice(0, digits.length + exponent)}.${digits.slice(digits.length + exponent)}`;
    } else {
      text = `0.${'0'.repeat(-exponent - digits.length)}${digits}`;
    }
    return negative ? `-${text}` : text;
  }

  private exactDifferenceSign(other: IouValue): -1 | 0 | 1 {
    // Compare exactly on a common exponent (both mantissas are bounded, so this stays small).
    const common = Math.min(this.exponent, other.exponent);
    const left = this.mantissa * 10n ** BigInt(this.exponent - common);
    const right = other.mantissa * 10n ** BigInt(other.exponent - common);
    return left === right ? 0 : left < right ? -1 : 1;
  }
}

