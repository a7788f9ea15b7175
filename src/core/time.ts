/**
 * Times as text, for every POSIX millisecond count a contract or transaction can carry. JavaScript's Date
 * covers only ±8.64e15 ms (about ±275,000 years) and throws past it, while a Marlowe timeout or a validity
 * bound is any integer: a hostile one must still read as a time, not stop the review.
 */

/** The range of a JavaScript Date, in milliseconds either side of the epoch. */
export const MAX_DATE_MS = 8_640_000_000_000_000n

const DAY_MS = 86_400_000n

/** Floor division, as bigint division truncates towards zero. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

/** The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's civil_from_days, exact). */
function civil(days: bigint): { year: bigint; month: bigint; day: bigint } {
  const z = days + 719_468n
  const era = floorDiv(z, 146_097n)
  const doe = z - era * 146_097n
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n)
  const mp = (5n * doy + 2n) / 153n
  const day = doy - (153n * mp + 2n) / 5n + 1n
  const month = mp < 10n ? mp + 3n : mp - 9n
  return { year: yoe + era * 400n + (month <= 2n ? 1n : 0n), month, day }
}

const pad = (n: bigint, width: number): string => n.toString().padStart(width, '0')

/**
 * ISO-8601 UTC with milliseconds (`2026-11-26T02:41:12.000Z`), the same text as `Date.toISOString` within its
 * range; beyond it the year simply has more digits (a minus sign before year 0 counts astronomically).
 */
export function isoUtc(ms: bigint): string {
  const days = floorDiv(ms, DAY_MS)
  const inDay = ms - days * DAY_MS
  const { year, month, day } = civil(days)
  const yearText = year < 0n ? `-${pad(-year, 6)}` : year > 9999n ? `+${pad(year, 6)}` : pad(year, 4)
  const time = `${pad(inDay / 3_600_000n, 2)}:${pad((inDay / 60_000n) % 60n, 2)}:${pad((inDay / 1000n) % 60n, 2)}`
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}T${time}.${pad(inDay % 1000n, 3)}Z`
}
