/** POSIX milliseconds (bigints) shown as local time, and the `datetime-local` inputs that edit them. */
import { isoUtc, MAX_DATE_MS } from '../../../core/time'

// The zone is always written: a deadline read on one machine may be acted on from another.
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short'
})
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

function asDate(ms: bigint): Date | undefined {
  return ms > MAX_DATE_MS || ms < -MAX_DATE_MS ? undefined : new Date(Number(ms))
}

export function formatTime(ms: bigint): string {
  const date = asDate(ms)
  // Past a Date's range (±275,000 years) no local calendar applies: the UTC date, whatever the year.
  return date === undefined ? `${isoUtc(ms)} (UTC)` : dateTime.format(date)
}

/** A slot's POSIX ms from the chain's tip: every era since Shelley, on every network, has one-second slots. */
export function slotTime(slot: bigint, tip: { readonly slot: bigint; readonly time: bigint }): bigint {
  return tip.time + (slot - tip.slot) * 1000n
}

const ISO_UTC = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z\b/g

/** Text from the engine with its ISO-8601 UTC times ("2026-11-28T22:12:00.000Z") rewritten as local times. */
export function localizeIsoTimes(text: string): string {
  return text.replace(ISO_UTC, (iso) => {
    const ms = Date.parse(iso)
    return Number.isNaN(ms) ? iso : formatTime(BigInt(ms))
  })
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
