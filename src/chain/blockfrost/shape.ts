/**
 * Reading provider JSON (parsed losslessly) into plain data. Every accessor names what it was reading, so an
 * answer of an unexpected shape becomes a `BadResponse` that says where, never a `TypeError` from deep inside.
 */
import { BytesError, hexToBytes } from '../../core/bytes'
import { isJsonObject, JsonDecimal, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { decimalRatio } from '../../core/ratio'
import { ChainError, type Ratio } from '../provider'

export function badResponse(what: string, problem: string, details: Record<string, unknown> = {}): ChainError {
  return new ChainError('BadResponse', `${what}: ${problem}`, details)
}

function describe(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (v instanceof JsonDecimal) return `the number ${v.text}`
  if (typeof v === 'bigint') return `the number ${v}`
  if (typeof v === 'string') return 'a string'
  return typeof v === 'boolean' ? 'a boolean' : 'an object'
}

export function asObject(v: JsonValue | undefined, what: string): JsonObject {
  if (v === undefined || !isJsonObject(v)) throw badResponse(what, `expected an object, got ${describe(v)}`)
  return v
}

export function asArray(v: JsonValue | undefined, what: string): JsonValue[] {
  if (!Array.isArray(v)) throw badResponse(what, `expected an array, got ${describe(v)}`)
  return v
}

/** An own property (plain objects also inherit names such as `constructor`). */
export function get(o: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined
}

/** A field that may be missing or null: both read as undefined. */
export function optional(o: JsonObject, key: string): JsonValue | undefined {
  const v = get(o, key)
  return v === null ? undefined : v
}

export function asString(v: JsonValue | undefined, what: string): string {
  if (typeof v !== 'string') throw badResponse(what, `expected a string, got ${describe(v)}`)
  return v
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/

/** Lowercase hex, of exactly `bytes` bytes when given. */
export function asHex(v: JsonValue | undefined, what: string, bytes?: number): string {
  const s = asString(v, what)
  if (!HEX.test(s)) throw badResponse(what, 'expected hex')
  if (bytes !== undefined && s.length !== bytes * 2) throw badResponse(what, `expected ${bytes} bytes of hex`)
  return s.toLowerCase()
}

export function asHexBytes(v: JsonValue | undefined, what: string): Uint8Array {
  try {
    return hexToBytes(asHex(v, what))
  } catch (e) {
    if (e instanceof BytesError) throw badResponse(what, e.message)
    throw e
  }
}

const DIGITS = /^-?\d+$/

/** An integer written as a JSON number or as a decimal string (Blockfrost writes lovelace amounts as strings). */
export function asInteger(v: JsonValue | undefined, what: string): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'string' && DIGITS.test(v) && v.length <= 80) return BigInt(v)
  throw badResponse(what, `expected an integer, got ${describe(v)}`)
}

export function asNatural(v: JsonValue | undefined, what: string): bigint {
  const n = asInteger(v, what)
  if (n < 0n) throw badResponse(what, `expected a non-negative integer, got ${n}`)
  return n
}

/** A non-negative integer that fits a JavaScript number exactly (sizes, counts, indices). */
export function asSmallNatural(v: JsonValue | undefined, what: string): number {
  const n = asNatural(v, what)
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw badResponse(what, `${n} is too large`)
  return Number(n)
}

/**
 * The exact ratio a decimal was written as (0.0577 → 577/10000, 7.21e-5 → 721/10000000): prices arrive as JSON
 * numbers, and going through a double would change the fee by rounding.
 */
function ratioOfText(text: string, what: string): Ratio {
  const ratio = decimalRatio(text, true)
  if (ratio === undefined)
    throw badResponse(what, `expected a decimal number, got ${JSON.stringify(text.slice(0, 40))}`)
  return ratio
}

/** A JSON number (integral or not) or a numeric string as an exact ratio. */
export function asRatio(v: JsonValue | undefined, what: string): Ratio {
  if (typeof v === 'bigint') return { numerator: v, denominator: 1n }
  if (v instanceof JsonDecimal) return ratioOfText(v.text, what)
  if (typeof v === 'string') return ratioOfText(v, what)
  throw badResponse(what, `expected a number, got ${describe(v)}`)
}

/** A number of seconds as whole milliseconds (era bounds and slot lengths; 0.2 s slots exist on test networks). */
export function secondsToMs(v: JsonValue | undefined, what: string): bigint {
  const { numerator, denominator } = asRatio(v, what)
  const ms = numerator * 1000n
  if (ms % denominator !== 0n) throw badResponse(what, 'is not a whole number of milliseconds')
  return ms / denominator
}
