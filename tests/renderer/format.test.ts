import { describe, expect, test } from 'vitest'
import { AmountError, formatAda, formatQuantity, parseAda, parseInteger } from '../../src/renderer/src/format/amounts'
import {
  formatTime,
  fromDateTimeLocal,
  localizeIsoTimes,
  slotTime,
  toDateTimeLocal
} from '../../src/renderer/src/format/time'

const TWO_53 = 2n ** 53n

describe('amounts', () => {
  test('ada from lovelace keeps every digit, above 2^53 too', () => {
    expect(formatAda(2_500_000n)).toBe('2.5 ada')
    expect(formatAda(231_137n)).toBe('0.231137 ada')
    expect(formatAda(0n)).toBe('0 ada')
    expect(formatAda(TWO_53 + 1n)).toBe('9,007,199,254.740993 ada')
    expect(formatAda(-(TWO_53 + 1n))).toBe('−9,007,199,254.740993 ada')
    expect(formatAda(1_000_000n, { signed: true })).toBe('+1 ada')
  })

  test('token quantities are grouped exactly', () => {
    expect(formatQuantity(2n ** 64n + 1n)).toBe('18,446,744,073,709,551,617')
    expect(formatQuantity(999n)).toBe('999')
    expect(formatQuantity(-1234n)).toBe('−1,234')
  })

  test('typed ada becomes lovelace without a float', () => {
    expect(parseAda('12.5')).toBe(12_500_000n)
    expect(parseAda('9007199254.740993')).toBe(TWO_53 + 1n)
    expect(parseAda('1,000')).toBe(1_000_000_000n)
    expect(() => parseAda('0.0000001')).toThrow(AmountError)
    expect(() => parseAda('-1')).toThrow(AmountError)
    expect(() => parseAda('1e6')).toThrow(AmountError)
    expect(parseInteger('18446744073709551617')).toBe(2n ** 64n + 1n)
    expect(parseInteger('−3')).toBe(-3n)
    expect(() => parseInteger('1.5')).toThrow(AmountError)
  })
})

describe('datetime-local', () => {
  test('round-trips a time to the minute', () => {
    const ms = BigInt(Date.UTC(2031, 4, 6, 7, 8))
    expect(fromDateTimeLocal(toDateTimeLocal(ms))).toBe(ms)
    expect(fromDateTimeLocal('')).toBeUndefined()
    expect(fromDateTimeLocal('not a date')).toBeUndefined()
  })
})

describe('times', () => {
  // The tests run with TZ unset or set; the zone is whatever this process has, and it is always written.
  const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' })
    .formatToParts(new Date(Date.UTC(2026, 10, 28, 22, 12)))
    .find((p) => p.type === 'timeZoneName')?.value

  test('a time is local, with its zone', () => {
    const text = formatTime(BigInt(Date.UTC(2026, 10, 28, 22, 12)))
    expect(zone).toBeDefined()
    expect(text.endsWith(` ${zone}`)).toBe(true)
    expect(text).toMatch(/2026/)
  })

  test('the engine’s ISO UTC times become local times, the rest of its text stays', () => {
    const ms = BigInt(Date.UTC(2026, 10, 28, 22, 12))
    expect(localizeIsoTimes('The transaction expired at 2026-11-28T22:12:00.000Z: the node will reject it.')).toBe(
      `The transaction expired at ${formatTime(ms)}: the node will reject it.`
    )
    expect(localizeIsoTimes('no time here, slot 123')).toBe('no time here, slot 123')
  })

  test('a slot’s time comes from the tip’s, one second a slot', () => {
    const tip = { slot: 1_000n, time: 1_800_000_000_000n }
    expect(slotTime(940n, tip)).toBe(1_799_999_940_000n)
    expect(slotTime(1_000n, tip)).toBe(tip.time)
  })
})
