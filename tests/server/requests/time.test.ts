/** ISO-8601 → POSIX milliseconds, as Runtime reads UTCTime. */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseIsoTime } from '../../../src/server/requests'

describe('ISO-8601 times', () => {
  test.each([
    ['the epoch', '1970-01-01T00:00:00Z', 0n],
    ['Runtime’s example', '2016-07-22T00:00:00Z', 1469145600000n],
    ['milliseconds', '2024-01-31T12:00:00.123Z', 1706702400123n],
    ['a fraction below a millisecond is floored', '2024-01-31T12:00:00.1239Z', 1706702400123n],
    ['one fractional digit', '2024-01-31T12:00:00.5Z', 1706702400500n],
    ['no seconds', '2024-01-31T12:00Z', 1706702400000n],
    ['a positive offset', '2024-01-31T13:30:00+01:30', 1706702400000n],
    ['a negative offset without colon', '2024-01-31T07:00:00-0500', 1706702400000n],
    ['a space for T and lower-case z', '2024-01-31 12:00:00z', 1706702400000n],
    ['29 February of a leap year', '2024-02-29T00:00:00Z', 1709164800000n],
    ['before the epoch', '1969-12-31T23:59:59.999Z', -1n],
    ['year 0', '0000-01-01T00:00:00Z', -62167219200000n],
    ['year 9999', '9999-12-31T23:59:59.999Z', 253402300799999n]
  ])('%s', (_name, text, ms) => {
    expect(parseIsoTime(text)).toBe(ms)
  })

  test.each([
    ['a date only', '2024-01-31', 'expected an ISO-8601 time such as "2024-01-31T12:00:00Z", got "2024-01-31"'],
    ['no zone', '2024-01-31T12:00:00', /^expected an ISO-8601 time/],
    ['POSIX ms', '1706702400000', /^expected an ISO-8601 time/],
    ['month 0', '2024-00-10T00:00:00Z', 'month 0 is not between 1 and 12'],
    ['29 February of a common year', '2023-02-29T00:00:00Z', 'day 29 does not exist in 2023-02'],
    ['31 April', '2024-04-31T00:00:00Z', 'day 31 does not exist in 2024-04'],
    ['day 0', '2024-04-00T00:00:00Z', 'day 0 does not exist in 2024-04'],
    ['minute 60', '2024-04-01T00:60:00Z', 'time of day 00:60:00 is not valid'],
    ['second 60', '2024-04-01T00:00:60Z', 'time of day 00:00:60 is not valid'],
    ['an offset of 24 hours', '2024-04-01T00:00:00+24:00', 'offset +24:00 is not valid'],
    ['a five-digit year', '12024-04-01T00:00:00Z', /^expected an ISO-8601 time/],
    ['surrounding spaces', ' 2024-04-01T00:00:00Z', /^expected an ISO-8601 time/]
  ])('%s', (_name, text, reason) => {
    const result = parseIsoTime(text)
    expect(typeof result).toBe('string')
    if (typeof reason === 'string') expect(result).toBe(reason)
    else expect(result).toMatch(reason)
  })

  test('agrees with Date for every millisecond of years 0000 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62167219200000, max: 253402300799999 }), (ms) => {
        expect(parseIsoTime(new Date(ms).toISOString())).toBe(BigInt(ms))
      })
    )
  })
})
