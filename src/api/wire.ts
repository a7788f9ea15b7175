/**
 * How API values travel (IPC between renderer and main, and HTTP for the browser UI): JSON text in which a
 * bigint is `{"$bigint":"<decimal>"}` and bytes are `{"$bytes":"<hex>"}`, so every other number stays a JS
 * number and amounts never pass through a double. Both ends use these two functions and nothing else.
 */
import { bytesToHex, hexToBytes } from '../core/bytes'
import { isJsonObject, JsonDecimal, parseJson, type JsonValue } from '../core/json/lossless'

export class WireError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WireError'
  }
}

function encodeValue(value: unknown, path: string): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() }
  if (value instanceof Uint8Array) return { $bytes: bytesToHex(value) }
  if (Array.isArray(value)) return value.map((v, i) => encodeValue(v, `${path}[${i}]`))
  if (value !== null && typeof value === 'object') {
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new WireError(`${path} is not plain data`)
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeValue(v, `${path}.${k}`)
    return out
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new WireError(`${path} is not a finite number`)
  if (typeof value === 'function' || typeof value === 'symbol') throw new WireError(`${path} cannot be sent`)
  return value
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(encodeValue(value, '$'))
}

function decodeValue(value: JsonValue): unknown {
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new WireError(`the plain number ${value} is too large: amounts travel as {"$bigint": …}`)
    }
    return Number(value)
  }
  if (value instanceof JsonDecimal) return Number(value.text)
  if (Array.isArray(value)) return value.map(decodeValue)
  if (isJsonObject(value)) {
    const keys = Object.keys(value)
    if (keys.length === 1 && keys[0] === '$bigint' && typeof value.$bigint === 'string') {
      if (!/^-?\d+$/.test(value.$bigint)) throw new WireError(`bad $bigint ${JSON.stringify(value.$bigint)}`)
      return BigInt(value.$bigint)
    }
    if (keys.length === 1 && keys[0] === '$bytes' && typeof value.$bytes === 'string') return hexToBytes(value.$bytes)
    const out: Record<string, unknown> = {}
    // Defined, not assigned: assigning "__proto__" would replace the object's prototype, and a field hidden in
    // it (a password, say) would then read as the object's own to whatever checks the request.
    for (const k of keys) {
      Object.defineProperty(out, k, {
        value: decodeValue(value[k] as JsonValue),
        enumerable: true,
        writable: true,
        configurable: true
      })
    }
    return out
  }
  return value
}

/** Parses wire text (limits as the lossless parser's); the caller validates the shape. */
export function decodeWire(text: string): unknown {
  try {
    return decodeValue(parseJson(text))
  } catch (e) {
    if (e instanceof WireError) throw e
    throw new WireError(e instanceof Error ? e.message : String(e))
  }
}
