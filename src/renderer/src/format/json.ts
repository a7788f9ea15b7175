/**
 * Plain data from the engine as lossless JSON. The wire turns small integers into JS numbers, so a JSON object
 * that crossed it may hold numbers where the core codecs expect bigints: `toJson` puts them back.
 */
import { bytesToHex } from '../../../core/bytes'
import { JsonDecimal, setJsonKey, stringifyJson, type JsonObject, type JsonValue } from '../../../core/json/lossless'

export function toJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : new JsonDecimal(String(value))
  if (typeof value === 'bigint' || typeof value === 'string' || typeof value === 'boolean') return value
  if (value instanceof JsonDecimal) return value
  if (value instanceof Uint8Array) return bytesToHex(value)
  if (Array.isArray(value)) return value.map(toJson)
  if (typeof value === 'object') {
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) setJsonKey(out, k, toJson(v))
    return out
  }
  return String(value)
}

/** Indented JSON text, integers exact. */
export function jsonText(value: unknown): string {
  return stringifyJson(toJson(value), { indent: 2 })
}
