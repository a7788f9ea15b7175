import { describe, expect, test } from 'vitest'
import { decimalRatio, gcd, reduceRatio } from '../../src/core/ratio'

describe('exact ratios', () => {
  test('gcd of any signs, and ratios in lowest terms', () => {
    expect(gcd(-12n, 18n)).toBe(6n)
    expect(gcd(0n, 7n)).toBe(7n)
    expect(reduceRatio(0n, 10_000n)).toEqual({ numerator: 0n, denominator: 1n })
    expect(reduceRatio(-6n, 4n)).toEqual({ numerator: -3n, denominator: 2n })
  })

  test('a decimal as the exact ratio it was written as', () => {
    expect(decimalRatio('0.0577')).toEqual({ numerator: 577n, denominator: 10_000n })
    expect(decimalRatio('7.21e-5')).toEqual({ numerator: 721n, denominator: 10_000_000n })
    expect(decimalRatio('1.5E3')).toEqual({ numerator: 1500n, denominator: 1n })
    expect(decimalRatio('-0.5', true)).toEqual({ numerator: -1n, denominator: 2n })
  })

  test('refuses what is not such a decimal, a sign unless allowed, and absurd scales', () => {
    for (const text of ['', '.5', '1.', '0x10', '1e', 'NaN', '1e99999']) expect(decimalRatio(text)).toBeUndefined()
    expect(decimalRatio('-1')).toBeUndefined()
    expect(decimalRatio('1e-1001')).toBeUndefined()
    expect(decimalRatio('1e-1000')).toEqual({ numerator: 1n, denominator: 10n ** 1000n })
  })
})
