/**
 * What the template forms edit (text, as typed) and its conversion into the core builders' typed parameters.
 * A conversion error names its field with the same dotted path the core's `ExampleParameterError` uses, so the
 * form shows either kind of error beside the field at fault.
 */
import { ExampleParameterError, type ExampleContract } from '../../../core/marlowe/examples'
import type { Party, Token } from '../../../core/marlowe/types'
import { AmountError, parseAda, parseInteger } from '../format/amounts'
import { formatTime, fromDateTimeLocal, toDateTimeLocal } from '../format/time'
import { plainAddressReason } from '../model/address'

export interface PartyDraft {
  kind: 'role' | 'address'
  text: string
}

export interface TokenDraft {
  kind: 'ada' | 'token'
  policyId: string
  name: string
}

export type DurationUnit = 'minutes' | 'hours' | 'days'

export interface DurationDraft {
  amount: string
  unit: DurationUnit
}

export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string
  ) {
    super(message)
    this.name = 'FieldError'
  }
}

export const roleDraft = (role: string): PartyDraft => ({ kind: 'role', text: role })
export const adaDraft = (): TokenDraft => ({ kind: 'ada', policyId: '', name: '' })
export const durationDraft = (amount: string, unit: DurationUnit): DurationDraft => ({ amount, unit })

const HOUR_MS = 3_600_000n
export const DAY_MS = 24n * HOUR_MS
const UNIT_MS: Record<DurationUnit, bigint> = { minutes: 60_000n, hours: HOUR_MS, days: DAY_MS }

/** A deadline `offset` after `now`, as a datetime-local value (to the minute). */
export const deadlineDraft = (now: bigint, offset: bigint): string => toDateTimeLocal(now + offset)

export function toParty(d: PartyDraft): Party {
  const text = d.text.trim()
  return d.kind === 'role' ? { type: 'Role', role: text } : { type: 'Address', address: text }
}

/** "Another token" needs its policy id: left blank it would be read as ada (a swap of ada for ada). */
export function toToken(field: string, d: TokenDraft): Token {
  if (d.kind === 'ada') return { currencySymbol: '', tokenName: '' }
  const currencySymbol = d.policyId.trim()
  if (currencySymbol === '') throw new FieldError(field, 'Enter the token’s policy id, or choose Ada.')
  return { currencySymbol, tokenName: d.name }
}

/** Ada amounts are typed in ada (decimals allowed) and become lovelace; other tokens are whole units. */
export function toAmount(field: string, text: string, token: Token): bigint {
  try {
    return token.currencySymbol === '' ? parseAda(text) : parseInteger(text)
  } catch (e) {
    if (e instanceof AmountError) throw new FieldError(field, e.message)
    throw e
  }
}

/** Under an amount field: the unit it is typed in. */
export function amountHint(token: TokenDraft): string {
  return token.kind === 'ada' ? 'In ada, up to six decimals.' : 'In whole units of the token.'
}

export function toCount(field: string, text: string): bigint {
  try {
    return parseInteger(text)
  } catch (e) {
    if (e instanceof AmountError) throw new FieldError(field, e.message)
    throw e
  }
}

export function toTime(field: string, text: string): bigint {
  const ms = fromDateTimeLocal(text)
  if (ms === undefined) throw new FieldError(field, 'Choose a date and time.')
  return ms
}

export function toDuration(field: string, d: DurationDraft): bigint {
  const match = /^(\d+)(?:\.(\d{1,3}))?$/.exec(d.amount.trim())
  if (match === null) throw new FieldError(field, `Enter a number of ${d.unit}.`)
  const thousandths = BigInt(match[1] ?? '0') * 1000n + BigInt((match[2] ?? '').padEnd(3, '0'))
  return (thousandths * UNIT_MS[d.unit]) / 1000n
}

export type BuildResult =
  | { readonly ok: true; readonly built: ExampleContract }
  | { readonly ok: false; readonly field: string; readonly label: string; readonly message: string }

/** A template's parameters (dotted paths, as the core's errors name them) → the labels its form shows. */
export type FieldLabels = Readonly<Record<string, string>>

/** Runs a builder, turning a field's error (ours or the core's) into a result for the form, in the form's words. */
export function tryBuild(build: () => ExampleContract, labels: FieldLabels): BuildResult {
  const failed = (field: string, message: string): BuildResult => ({
    ok: false,
    field,
    label: labels[field] ?? field,
    message
  })
  try {
    return { ok: true, built: build() }
  } catch (e) {
    if (e instanceof FieldError) return failed(e.field, e.message)
    if (e instanceof ExampleParameterError) {
      const reason = e.message.startsWith(`${e.parameter}: `) ? e.message.slice(e.parameter.length + 2) : e.message
      return failed(e.parameter, plainReason(reason, labels))
    }
    throw e
  }
}

const quoted = (labels: FieldLabels, parameter: string): string => `“${labels[parameter] ?? parameter}”`

/** A deadline the core compared with, as local time (the core writes POSIX milliseconds). */
const timeOf = (ms: string): string => formatTime(BigInt(ms))

/**
 * The core's reasons (src/core/marlowe/examples/parameters.ts, worded for the command line: parameter names,
 * raw milliseconds and base units) in the form's words; any other reason is shown as the core wrote it.
 */
const REASONS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray, labels: FieldLabels) => string]> = [
  [/^must be after (\S+) \(-?\d+ <= (-?\d+)\)$/, (m, l) => `Must be after ${quoted(l, m[1]!)} (${timeOf(m[2]!)}).`],
  [
    /^must not be before (\S+) \(-?\d+ < (-?\d+)\)$/,
    (m, l) => `Must not be before ${quoted(l, m[1]!)} (${timeOf(m[2]!)}).`
  ],
  [/^must differ from (\S+)$/, (m, l) => `Must differ from ${quoted(l, m[1]!)}.`],
  [/^must be positive, got -?\d+$/, () => 'Must be more than zero.'],
  [/^must not be negative, got -?\d+$/, () => 'Must not be negative.'],
  [/^must be between 1 and (\d+), got -?\d+$/, (m) => `Must be between 1 and ${m[1]!}.`],
  [/^must be a POSIX time in milliseconds/, () => 'Choose a date and time after 1 January 1970.'],
  [/^role name must not be empty$/, () => 'Enter the role’s name.'],
  [
    /^(role name|token name) is (\d+) bytes of UTF-8, at most (\d+) allowed$/,
    (m) => `The ${m[1]!} is too long: ${m[2]!} bytes, at most ${m[3]!}.`
  ],
  [/^currency symbol must be/, () => 'A policy id is 56 characters, 0–9 and a–f.'],
  [/^address must be written as (\S+)$/, (m) => `Write the address in lower case: ${m[1]!}.`],
  [
    /^must be at least \S+ \((\d+)\) so every tranche is positive$/,
    (m) => `Must be large enough to vest some in each of the ${m[1]!} periods.`
  ]
]

function plainReason(reason: string, labels: FieldLabels): string {
  for (const [pattern, say] of REASONS) {
    const m = pattern.exec(reason)
    if (m !== null) return say(m, labels)
  }
  const plain = plainAddressReason(reason)
  return plain !== reason ? plain : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`
}
