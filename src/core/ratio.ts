/** Exact ratios: protocol prices arrive as decimals, and going through a double would change fees by rounding. */

export interface Ratio {
  readonly numerator: bigint
  readonly denominator: bigint
}

/** The greatest common divisor of |a| and |b|. */
export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a
  let y = b < 0n ? -b : b
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

/** numerator/denominator in lowest terms (0/d becomes 0/1). */
export function reduceRatio(numerator: bigint, denominator: bigint): Ratio {
  const d = numerator === 0n ? denominator : gcd(numerator, denominator)
  return d === 0n ? { numerator, denominator } : { numerator: numerator / d, denominator: denominator / d }
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,4}))?$/
/** Beyond 10^±1000 no protocol parameter is meant: refused rather than allocating huge powers of ten. */
const MAX_SCALE = 1000

/**
 * The exact ratio a decimal was written as, in lowest terms (0.0577 → 577/10000, 7.21e-5 → 721/10000000);
 * undefined when `text` is not such a decimal (a negative one only when `signed`) or is out of range.
 */
export function decimalRatio(text: string, signed = false): Ratio | undefined {
  const m = DECIMAL.exec(text)
  if (m === null) return undefined
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m
  if (sign !== '' && !signed) return undefined
  const scale = fraction.length - Number(exponent)
  if (Math.abs(scale) > MAX_SCALE) return undefined
  const digits = BigInt(sign + whole + fraction)
  return scale > 0
    ? reduceRatio(digits, 10n ** BigInt(scale))
    : { numerator: digits * 10n ** BigInt(-scale), denominator: 1n }
}
