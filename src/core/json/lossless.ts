/**
 * Lossless JSON: integers become `bigint` (never rounded through a double), non-integral numbers keep
 * their text. Safe on hostile input: limits on size, nesting depth and integer digits turn abuse into a
 * `JsonSyntaxError` instead of a stack overflow or an unbounded computation.
 */
import { MAX_JSON_DEPTH } from '../depth-limits'

/** A JSON number that is not an integer, kept as its source text. */
export class JsonDecimal {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | bigint | string | JsonDecimal | JsonValue[] | JsonObject

/**
 * A JSON object. Keys are own properties (`__proto__` included, as ordinary data); look arbitrary keys up
 * with `Object.hasOwn`, since plain objects also inherit names such as `constructor`.
 */
export interface JsonObject {
  [key: string]: JsonValue
}

export interface JsonLimits {
  /** Maximum text length in UTF-16 code units. */
  readonly maxLength: number
  /** Maximum nesting of arrays and objects. */
  readonly maxDepth: number
  /** Maximum decimal digits of an integer after applying its exponent. */
  readonly maxIntegerDigits: number
}

export const DEFAULT_JSON_LIMITS: JsonLimits = {
  maxLength: 64 * 1024 * 1024,
  maxDepth: MAX_JSON_DEPTH,
  maxIntegerDigits: 4096
}

export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly line: number,
    readonly column: number
  ) {
    super(`invalid JSON at line ${line}, column ${column}: ${reason}`)
    this.name = 'JsonSyntaxError'
  }
}

export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonDecimal)
}

/** Plain objects rather than null-prototype ones: V8 keeps those in slow dictionary mode. */
export function newJsonObject(): JsonObject {
  return {}
}

/** Sets a key as an own data property, so `__proto__` cannot reach the prototype. */
export function setJsonKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
  else obj[key] = value
}

/** Parses JSON text, keeping every integer exact. Throws `JsonSyntaxError`. */
export function parseJson(text: string, limits: Partial<JsonLimits> = {}): JsonValue {
  return new Parser(text, { ...DEFAULT_JSON_LIMITS, ...limits }).parseDocument()
}

const enum Ch {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  UpperE = 69,
  LeftBracket = 91,
  Backslash = 92,
  RightBracket = 93,
  LowerE = 101,
  LeftBrace = 123,
  RightBrace = 125
}

/**
 * Object keys read before, by a slot of their first character and length: a document repeats a few keys many
 * times, and handing back the same string, which V8 interned when it first became a property name, spares
 * hashing and interning every copy. Bounded by its slots; a key that misses replaces the slot's.
 */
const KNOWN_KEYS: Array<string | undefined> = new Array<string | undefined>(256).fill(undefined)

class Parser {
  private pos = 0
  private depth = 0

  constructor(
    private readonly text: string,
    private readonly limits: JsonLimits
  ) {}

  parseDocument(): JsonValue {
    if (this.text.length > this.limits.maxLength) {
      throw this.error(`document is ${this.text.length} characters, over the limit of ${this.limits.maxLength}`, 0)
    }
    this.skipWhitespace()
    const value = this.parseValue()
    this.skipWhitespace()
    if (this.pos < this.text.length) throw this.error('unexpected text after the JSON value')
    return value
  }

  private parseValue(): JsonValue {
    const c = this.text.charCodeAt(this.pos)
    switch (c) {
      case Ch.LeftBrace:
        return this.parseObject()
      case Ch.LeftBracket:
        return this.parseArray()
      case Ch.Quote:
        return this.parseString()
      case 116: // t
        return this.parseLiteral('true', true)
      case 102: // f
        return this.parseLiteral('false', false)
      case 110: // n
        return this.parseLiteral('null', null)
      default:
        if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) return this.parseNumber()
        if (Number.isNaN(c)) throw this.error('unexpected end of input, expected a value')
        throw this.error(`unexpected character ${describeChar(this.text, this.pos)}, expected a value`)
    }
  }

  private enter(): void {
    this.depth += 1
    if (this.depth > this.limits.maxDepth) throw this.error(`nesting deeper than ${this.limits.maxDepth} levels`)
  }

  private parseObject(): JsonObject {
    this.enter()
    this.pos += 1
    const obj = newJsonObject()
    this.skipWhitespace()
    if (this.text.charCodeAt(this.pos) === Ch.RightBrace) {
      this.pos += 1
      this.depth -= 1
      return obj
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== Ch.Quote) throw this.error('expected a string key')
      const keyStart = this.pos
      const key = this.parseKey()
      if (Object.prototype.hasOwnProperty.call(obj, key)) {
        throw this.error(`duplicate key ${JSON.stringify(key)}`, keyStart)
      }
      this.skipWhitespace()
      if (this.text.charCodeAt(this.pos) !== Ch.Colon) throw this.error("expected ':' after an object key")
      this.pos += 1
      this.skipWhitespace()
      setJsonKey(obj, key, this.parseValue())
      this.skipWhitespace()
      const c = this.text.charCodeAt(this.pos)
      this.pos += 1
      if (c === Ch.Comma) {
        this.skipWhitespace()
        continue
      }
      if (c === Ch.RightBrace) break
      this.pos -= 1
      throw this.error("expected ',' or '}' in an object")
    }
    this.depth -= 1
    return obj
  }

  private parseArray(): JsonValue[] {
    this.enter()
    this.pos += 1
    const arr: JsonValue[] = []
    this.skipWhitespace()
    if (this.text.charCodeAt(this.pos) === Ch.RightBracket) {
      this.pos += 1
      this.depth -= 1
      return arr
    }
    for (;;) {
      arr.push(this.parseValue())
      this.skipWhitespace()
      const c = this.text.charCodeAt(this.pos)
      this.pos += 1
      if (c === Ch.Comma) {
        this.skipWhitespace()
        continue
      }
      if (c === Ch.RightBracket) break
      this.pos -= 1
      throw this.error("expected ',' or ']' in an array")
    }
    this.depth -= 1
    return arr
  }

  /** A string at the reader that is an object's key: the known copy of it when there is one. */
  private parseKey(): string {
    const text = this.text
    const start = this.pos + 1
    let end = start
    for (;;) {
      const c = text.charCodeAt(end)
      if (c === Ch.Quote) break
      if (c === Ch.Backslash || !(c >= 0x20)) return this.parseString()
      end += 1
    }
    const length = end - start
    const slot = (text.charCodeAt(start) * 31 + length) & 255
    const known = KNOWN_KEYS[slot]
    this.pos = end + 1
    if (known !== undefined && known.length === length && text.startsWith(known, start)) return known
    const key = text.slice(start, end)
    KNOWN_KEYS[slot] = key
    return key
  }

  private parseString(): string {
    const text = this.text
    const start = this.pos + 1
    let i = start
    // Fast path: no escapes.
    for (;;) {
      const c = text.charCodeAt(i)
      if (c === Ch.Quote) {
        this.pos = i + 1
        return text.slice(start, i)
      }
      if (c === Ch.Backslash) break
      if (!(c >= 0x20)) return this.failString(i) // also NaN: end of input
      i += 1
    }
    let out = text.slice(start, i)
    for (;;) {
      const c = text.charCodeAt(i)
      if (c === Ch.Quote) {
        this.pos = i + 1
        return out
      }
      if (!(c >= 0x20)) return this.failString(i)
      if (c !== Ch.Backslash) {
        out += text[i]
        i += 1
        continue
      }
      const e = text[i + 1]
      i += 2
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e
          break
        case 'b':
          out += '\b'
          break
        case 'f':
          out += '\f'
          break
        case 'n':
          out += '\n'
          break
        case 'r':
          out += '\r'
          break
        case 't':
          out += '\t'
          break
        case 'u': {
          const hexDigits = text.slice(i, i + 4)
          if (!/^[0-9a-fA-F]{4}$/.test(hexDigits)) throw this.error('invalid \\u escape', i - 2)
          out += String.fromCharCode(parseInt(hexDigits, 16))
          i += 4
          break
        }
        default:
          throw this.error(e === undefined ? 'unterminated string' : `invalid escape \\${e}`, i - 2)
      }
    }
  }

  private failString(at: number): never {
    if (at >= this.text.length) throw this.error('unterminated string', at)
    throw this.error('control character in a string', at)
  }

  private parseNumber(): JsonValue {
    const text = this.text
    const start = this.pos
    let i = start
    if (text.charCodeAt(i) === Ch.Minus) i += 1
    const intStart = i
    if (text.charCodeAt(i) === Ch.Zero) {
      i += 1
    } else {
      i = this.digits(i)
      if (i === intStart) throw this.error('expected a digit', i)
    }
    const intEnd = i
    let fracStart = i
    let fracEnd = i
    if (text.charCodeAt(i) === Ch.Dot) {
      fracStart = i + 1
      fracEnd = this.digits(fracStart)
      if (fracEnd === fracStart) throw this.error('expected a digit after the decimal point', fracStart)
      i = fracEnd
    }
    let exponent = 0
    const e = text.charCodeAt(i)
    if (e === Ch.LowerE || e === Ch.UpperE) {
      i += 1
      const sign = text.charCodeAt(i)
      if (sign === Ch.Plus || sign === Ch.Minus) i += 1
      const expStart = i
      i = this.digits(i)
      if (i === expStart) throw this.error('expected a digit in the exponent', i)
      // Exponents beyond the digit limit are rejected below; clamp so the arithmetic stays exact.
      const expText = text.slice(expStart, i).replace(/^0+/, '')
      const magnitude = expText.length > 9 ? 1_000_000_000 : Number(expText || '0')
      exponent = sign === Ch.Minus ? -magnitude : magnitude
    }
    this.pos = i
    if (fracEnd === fracStart && exponent === 0) return BigInt(text.slice(start, intEnd))
    return this.scientific(start, intStart, intEnd, fracStart, fracEnd, exponent)
  }

  /** A number with a fraction or exponent: an integer if its value is integral, else a JsonDecimal. */
  private scientific(
    start: number,
    intStart: number,
    intEnd: number,
    fracStart: number,
    fracEnd: number,
    exponent: number
  ): JsonValue {
    const negative = start !== intStart
    let digits = (this.text.slice(intStart, intEnd) + this.text.slice(fracStart, fracEnd)).replace(/^0+/, '')
    let scale = exponent - (fracEnd - fracStart)
    if (digits === '') return 0n
    while (scale < 0 && digits.endsWith('0')) {
      digits = digits.slice(0, -1)
      scale += 1
    }
    if (scale < 0) return new JsonDecimal(this.text.slice(start, this.pos))
    if (digits.length + scale > this.limits.maxIntegerDigits) {
      throw this.error(`number has more than ${this.limits.maxIntegerDigits} digits`, start)
    }
    const magnitude = BigInt(digits) * 10n ** BigInt(scale)
    return negative ? -magnitude : magnitude
  }

  private digits(from: number): number {
    let i = from
    for (;;) {
      const c = this.text.charCodeAt(i)
      if (c < Ch.Zero || c > Ch.Nine || Number.isNaN(c)) return i
      i += 1
    }
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length
      return value
    }
    throw this.error(`unexpected character ${describeChar(this.text, this.pos)}, expected a value`)
  }

  private skipWhitespace(): void {
    const text = this.text
    let i = this.pos
    for (;;) {
      const c = text.charCodeAt(i)
      if (c !== Ch.Space && c !== Ch.Newline && c !== Ch.Return && c !== Ch.Tab) break
      i += 1
    }
    this.pos = i
  }

  private error(reason: string, at: number = this.pos): JsonSyntaxError {
    let line = 1
    let lineStart = 0
    for (let i = 0; i < at && i < this.text.length; i += 1) {
      if (this.text.charCodeAt(i) === Ch.Newline) {
        line += 1
        lineStart = i + 1
      }
    }
    return new JsonSyntaxError(reason, at, line, at - lineStart + 1)
  }
}

function describeChar(text: string, at: number): string {
  const ch = text[at]
  return ch === undefined ? 'end of input' : JSON.stringify(ch)
}

export interface StringifyOptions {
  /** Spaces per indentation level; 0 (default) writes compact JSON. */
  readonly indent?: number
}

/** Writes JSON text; bigints are written as plain integer digits. */
export function stringifyJson(value: JsonValue, options: StringifyOptions = {}): string {
  const indent = options.indent ?? 0
  const parts: string[] = []
  write(value, parts, indent, '')
  return parts.join('')
}

function write(value: JsonValue, out: string[], indent: number, pad: string): void {
  if (value === null) {
    out.push('null')
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false')
  } else if (typeof value === 'bigint') {
    out.push(value.toString())
  } else if (typeof value === 'string') {
    out.push(JSON.stringify(value))
  } else if (value instanceof JsonDecimal) {
    out.push(value.text)
  } else if (Array.isArray(value)) {
    writeItems(value, out, indent, pad, '[', ']', (item, inner) => write(item, out, indent, inner))
  } else {
    const keys = Object.keys(value)
    writeItems(keys, out, indent, pad, '{', '}', (key, inner) => {
      out.push(JSON.stringify(key), indent > 0 ? ': ' : ':')
      write(value[key] as JsonValue, out, indent, inner)
    })
  }
}

function writeItems<T>(
  items: readonly T[],
  out: string[],
  indent: number,
  pad: string,
  open: string,
  close: string,
  each: (item: T, innerPad: string) => void
): void {
  if (items.length === 0) {
    out.push(open, close)
    return
  }
  const inner = indent > 0 ? pad + ' '.repeat(indent) : ''
  out.push(open)
  items.forEach((item, i) => {
    if (i > 0) out.push(',')
    if (indent > 0) out.push('\n', inner)
    each(item, inner)
  })
  if (indent > 0) out.push('\n', pad)
  out.push(close)
}
