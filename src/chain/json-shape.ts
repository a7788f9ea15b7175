/**
 * Reading a node interface's answers (Ogmios, Kupo: lossless JSON values) into typed data. Every reader names the path of what it read,
 * so a malformed answer becomes one `ShapeError` saying where and what was expected, never a `TypeError` deep
 * in the conversion. Field names are typed against the interfaces of the answers
 * (`Fields.of<Tip>(v, 'result').natural('height')`, with Ogmios' schema types), so a misspelt key fails the type check instead of reading
 * `undefined` at run time.
 */
import { isJsonObject, JsonDecimal, type JsonObject, type JsonValue } from '../core/json/lossless'

export class ShapeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string
  ) {
    super(`${path}: expected ${expected}`)
    this.name = 'ShapeError'
  }
}

/** Field names of a schema type. */
type KeyOf<T> = Extract<keyof T, string>

export function object(v: JsonValue | undefined, path: string): JsonObject {
  if (v === undefined || !isJsonObject(v)) throw new ShapeError(path, 'an object')
  return v
}

export function array(v: JsonValue | undefined, path: string): JsonValue[] {
  if (!Array.isArray(v)) throw new ShapeError(path, 'an array')
  return v
}

export function string(v: JsonValue | undefined, path: string): string {
  if (typeof v !== 'string') throw new ShapeError(path, 'a string')
  return v
}

const HEX = /^(?:[0-9a-f]{2})*$/

/** Lowercase hex, optionally of an exact byte length. */
export function hex(v: JsonValue | undefined, path: string, bytes?: number): string {
  const s = string(v, path).toLowerCase()
  if (!HEX.test(s)) throw new ShapeError(path, 'hex')
  if (bytes !== undefined && s.length !== bytes * 2) throw new ShapeError(path, `${bytes} bytes of hex`)
  return s
}

export function integer(v: JsonValue | undefined, path: string): bigint {
  if (typeof v !== 'bigint') throw new ShapeError(path, 'an integer')
  return v
}

export function natural(v: JsonValue | undefined, path: string): bigint {
  const n = integer(v, path)
  if (n < 0n) throw new ShapeError(path, 'a non-negative integer')
  return n
}

/** A non-negative integer small enough for a JS number (sizes, counts, indexes). */
export function smallNatural(v: JsonValue | undefined, path: string): number {
  const n = natural(v, path)
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new ShapeError(path, 'an integer below 2^53')
  return Number(n)
}

export function boolean(v: JsonValue | undefined, path: string): boolean {
  if (typeof v !== 'boolean') throw new ShapeError(path, 'true or false')
  return v
}

/** The source text of a JSON number, integral or not (for exact decimal conversions). */
export function numberText(v: JsonValue | undefined, path: string): string {
  if (typeof v === 'bigint') return v.toString()
  if (v instanceof JsonDecimal) return v.text
  throw new ShapeError(path, 'a number')
}

/** One of a fixed set of strings. */
export function oneOf<T extends string>(v: JsonValue | undefined, path: string, options: readonly T[]): T {
  const s = string(v, path)
  if (!(options as readonly string[]).includes(s)) throw new ShapeError(path, `one of ${options.join(', ')}`)
  return s as T
}

/**
 * The fields of one JSON object shaped like the schema type `T`, each read with its path. Fields that the
 * schema marks optional (e.g. parameters that only exist since Alonzo) can still be required with `get`.
 */
export class Fields<T> {
  private constructor(
    readonly json: JsonObject,
    readonly path: string
  ) {}

  static of<T>(v: JsonValue | undefined, path: string): Fields<T> {
    return new Fields<T>(object(v, path), path)
  }

  at(key: KeyOf<T>): string {
    return `${this.path}.${key}`
  }

  /** A field that must be there. */
  get(key: KeyOf<T>): JsonValue {
    if (!Object.hasOwn(this.json, key)) throw new ShapeError(this.at(key), 'a value (the field is missing)')
    return this.json[key] as JsonValue
  }

  /** A field that may be missing; `null` counts as missing, as Ogmios writes some absent values either way. */
  opt(key: KeyOf<T>): JsonValue | undefined {
    if (!Object.hasOwn(this.json, key)) return undefined
    const v = this.json[key] as JsonValue
    return v === null ? undefined : v
  }

  fields<U>(key: KeyOf<T>): Fields<U> {
    return Fields.of<U>(this.get(key), this.at(key))
  }

  array(key: KeyOf<T>): JsonValue[] {
    return array(this.get(key), this.at(key))
  }

  string(key: KeyOf<T>): string {
    return string(this.get(key), this.at(key))
  }

  hex(key: KeyOf<T>, bytes?: number): string {
    return hex(this.get(key), this.at(key), bytes)
  }

  integer(key: KeyOf<T>): bigint {
    return integer(this.get(key), this.at(key))
  }

  natural(key: KeyOf<T>): bigint {
    return natural(this.get(key), this.at(key))
  }

  smallNatural(key: KeyOf<T>): number {
    return smallNatural(this.get(key), this.at(key))
  }

  oneOf<K extends string>(key: KeyOf<T>, options: readonly K[]): K {
    return oneOf(this.get(key), this.at(key), options)
  }
}
