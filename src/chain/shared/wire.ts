/**
 * The plain data a ChainProvider speaks (bigints, bytes, numbers, strings, arrays, records) as JSON text and back:
 * a bigint travels as {"$big": "…"} and bytes as {"$bytes": "hex"}, so that neither is confused with a number.
 */
import { bytesToHex, hexToBytes } from '../../core/bytes'
import { isJsonObject, JsonDecimal, parseJson, stringifyJson, type JsonValue } from '../../core/json/lossless'

/** What crosses the wire: a ChainProvider's arguments and answers. */
export type WireValue =
  | null
  | undefined
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | readonly WireValue[]
  | { readonly [key: string]: WireValue }

function toJson(value: WireValue): JsonValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return { $big: value.toString() }
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`only whole numbers cross the chain wire, not ${value}`)
    return BigInt(value)
  }
  if (typeof value === 'boolean' || typeof value === 'string') return value
  if (value instanceof Uint8Array) return { $bytes: bytesToHex(value) }
  if (Array.isArray(value)) return (value as readonly WireValue[]).map(toJson)
  const out: { [key: string]: JsonValue } = {}
  for (const [key, item] of Object.entries(value as { readonly [key: string]: WireValue })) {
    // An absent optional field stays absent (undefined is not null to the provider's types).
    if (item !== undefined) out[key] = toJson(item)
  }
  return out
}

function fromJson(value: JsonValue): WireValue {
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof JsonDecimal) throw new TypeError('only whole numbers cross the chain wire')
  if (Array.isArray(value)) return value.map(fromJson)
  if (!isJsonObject(value)) return value
  const big = value['$big']
  if (typeof big === 'string' && Object.keys(value).length === 1) return BigInt(big)
  const bytes = value['$bytes']
  if (typeof bytes === 'string' && Object.keys(value).length === 1) return hexToBytes(bytes)
  const out: { [key: string]: WireValue } = {}
  for (const [key, item] of Object.entries(value)) out[key] = fromJson(item)
  return out
}

export function encodeWire(value: WireValue): string {
  return stringifyJson(toJson(value))
}

export function decodeWire(text: string): WireValue {
  return fromJson(parseJson(text))
}
