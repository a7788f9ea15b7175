/** POSIX milliseconds (bigints) shown as local time, and the `datetime-local` inputs that edit them. */
import { isoUtc, MAX_DATE_MS } from '../../../core/time'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

function asDate(ms: bigint): Date | undefined {
  return ms > MAX_DATE_MS || ms < -MAX_DATE_MS ? undefined : new Date(Number(ms))
}

export function formatTime(ms: bigint): string {
  const date = asDate(ms)
  // Past a Date's range (±275,000 years) no local calendar applies: the UTC date, whatever the year.
  return date === undefined ? `${isoUtc(ms)} (UTC)` : dateTime.format(date)
}

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000]
]

/** "in 3 days", "2 hours ago" — from `now`, which is the chain's clock (the sandbox's may run ahead). */
export function formatRelative(ms: bigint, now: bigint): string {
  const delta = Number(ms - now)
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size) return relative.format(Math.trunc(delta / size), unit)
  }
  return relative.format(0, 'second')
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** The value of an `<input type="datetime-local">` (local time, to the minute). */
export function toDateTimeLocal(ms: bigint): string {
  const d = asDate(ms) ?? new Date(0)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** Undefined when the text is not a date and time. */
export function fromDateTimeLocal(text: string): bigint | undefined {
  const ms = new Date(text).getTime()
  return text === '' || Number.isNaN(ms) ? undefined : BigInt(ms)
}
