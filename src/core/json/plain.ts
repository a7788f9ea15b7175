/**
 * Plain data (records, arrays, strings, bigints, booleans, null; `undefined` fields left out) as a
 * `JsonValue`, checked as it goes: anything else — numbers that are not integers, functions, class
 * instances — is a programming error reported with its path. Byte arrays become hex.
 */
import { bytesToHex } from '../bytes'
import type { JsonObject, JsonValue } from './lossless'

export function toJsonValue(value: unknown, path = '$'): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'string')
    return value
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new TypeError(`${path}: ${value} is not an integer`)
    return BigInt(value)
  }
  if (value instanceof Uint8Array) return bytesToHex(value)
  if (Array.isArray(value)) return value.map((v, i) => toJsonValue(v, `${path}[${i}]`))
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toJsonValue(v, `${path}.${k}`)
    return out
  }
  throw new TypeError(`${path}: ${typeof value} is not plain data`)
}
