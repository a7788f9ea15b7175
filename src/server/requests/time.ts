/**
 * ISO-8601 date-times → POSIX milliseconds, as Runtime reads `UTCTime` (aeson / http-api-data): a date, a
 * time with optional seconds and fraction, and `Z` or a `±hh:mm` offset. Fractions below a millisecond are
 * floored, as Runtime's `utcToPOSIXTime` does.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,12}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

export const ISO_TIME_EXPECTED = 'an ISO-8601 time such as "2024-01-31T12:00:00Z"'

/** POSIX milliseconds, or the reason the text is not an ISO-8601 time. */
export function parseIsoTime(text: string): bigint | string {
  const m = ISO.exec(text)
  if (m === null) return `expected ${ISO_TIME_EXPECTED}, got ${JSON.stringify(text.slice(0, 60))}`
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number
  ]
  const second = Number(m[6] ?? '0')
  if (month < 1 || month > 12) return `month ${month} is not between 1 and 12`
  if (day < 1 || day > daysInMonth(year, month)) return `day ${day} does not exist in ${m[1]}-${m[2]}`
  if (hour > 23 || minute > 59 || second > 59) return `time of day ${m[4]}:${m[5]}:${m[6] ?? '00'} is not valid`
  let offsetMinutes = 0
  if (m[8] === undefined) {
    const offsetHours = Number(m[10])
    const offsetMins = Number(m[11])
    if (offsetHours > 23 || offsetMins > 59) return `offset ${m[9]}${m[10]}:${m[11]} is not valid`
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(hour * 3600 + minute * 60 + second)
  const millis = BigInt((m[7] ?? '').padEnd(3, '0').slice(0, 3))
  return (seconds - BigInt(offsetMinutes * 60)) * 1000n + millis
}
