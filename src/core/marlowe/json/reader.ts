/** Path-aware accessors for decoding JSON values into the model, with errors that say where and why. */
import { isJsonObject, JsonDecimal, type JsonObject, type JsonValue } from '../../json/lossless'

export class MarloweJsonError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string
  ) {
    super(`${path}: ${reason}`)
    this.name = 'MarloweJsonError'
  }
}

export function fail(path: string, reason: string): never {
  throw new MarloweJsonError(path, reason)
}

export function describe(v: JsonValue | undefined): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (typeof v === 'boolean') return `${v}`
  if (typeof v === 'bigint') return `the integer ${v}`
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
  if (v instanceof JsonDecimal) return `the number ${v.text}`
  if (Array.isArray(v)) return `an array of ${v.length}`
  const keys = Object.keys(v)
  return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.slice(0, 6).join(', ')}`
}

export function child(path: string, key: string): string {
  return `${path}.${key}`
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`
}

export function asObject(v: JsonValue | undefined, path: string, what: string): JsonObject {
  if (v === undefined || !isJsonObject(v)) fail(path, `expected ${what}, got ${describe(v)}`)
  return v
}

export function asArray(v: JsonValue | undefined, path: string, what = 'an array'): JsonValue[] {
  if (!Array.isArray(v)) fail(path, `expected ${what}, got ${describe(v)}`)
  return v
}

export function asInteger(v: JsonValue | undefined, path: string): bigint {
  if (typeof v === 'bigint') return v
  fail(path, `expected an integer, got ${describe(v)}`)
}

export function asString(v: JsonValue | undefined, path: string): string {
  if (typeof v === 'string') return v
  fail(path, `expected a string, got ${describe(v)}`)
}

/** Callers pass the fixed key names of the Marlowe JSON form, none of which an object inherits. */
export function field(obj: JsonObject, key: string, path: string): JsonValue {
  const v = obj[key]
  if (v === undefined) fail(path, `missing key "${key}"`)
  return v
}

export function has(obj: JsonObject, key: string): boolean {
  return obj[key] !== undefined
}

/** A two-element array, as used for association-list entries. */
export function asPair(v: JsonValue | undefined, path: string): readonly [JsonValue, JsonValue] {
  const arr = asArray(v, path, 'a pair [key, value]')
  const [a, b] = arr
  if (arr.length !== 2 || a === undefined || b === undefined)
    fail(path, `expected a pair [key, value], got ${describe(v)}`)
  return [a, b]
}
