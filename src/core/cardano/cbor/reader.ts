/**
 * A pull reader for CBOR from untrusted bytes. Schema-driven decoders ask for the item they expect next
 * (`uint`, `bytes`, `arrayHeader`, …) and can always ask where they are (`pos`), so every decoded part keeps the
 * byte range of its original encoding; `item()` reads any item as a generic tree when no schema applies.
 *
 * Safety on hostile input: a declared length is compared with the bytes that remain before anything is read,
 * and nothing is ever allocated from a declared length; nesting is capped; every failure is a `CborError`
 * naming the byte offset. Along the way the reader logs non-canonical choices and duplicates (`issues`).
 */
import { bytesToHex, concatBytes, utf8DecodeStrict } from '../../bytes'
import { MAX_CBOR_DEPTH, type Nesting } from '../../depth-limits'
import { CborError } from './error'
import type { CborItem } from './item'
import { EncodingIssueLog } from './issues'
import { MAJOR_ARRAY, MAJOR_BYTES, MAJOR_MAP, MAJOR_NEGINT, MAJOR_TAG, MAJOR_TEXT, MAJOR_UINT } from './major'

/** Bignums beyond this many bytes (2^8192) are not useful in anything a transaction carries. */
export const DEFAULT_MAX_BIGNUM_BYTES = 1024

export interface CborReaderOptions {
  /** Default `MAX_CBOR_DEPTH` (core/depth-limits.ts). */
  readonly maxDepth?: number
  readonly maxBignumBytes?: number
  /** A log shared by several readers working on parts of one input. */
  readonly issues?: EncodingIssueLog
}

const INDEFINITE = 31
const BREAK = 0xff
const TAG_SET = 258
/** Smallest argument that needs each head size (info 24..27); anything smaller is a non-shortest head. */
const SHORTEST_FROM = [24, 0x100, 0x10000, 0x100000000]

const MAJOR_NAMES = [
  'an unsigned integer',
  'a negative integer',
  'a byte string',
  'a text string',
  'an array',
  'a map',
  'a tag',
  'a simple value or float'
]

export class CborReader {
  pos: number
  readonly end: number
  readonly issues: EncodingIssueLog
  private readonly maxDepth: number
  private readonly maxBignumBytes: number

  constructor(
    readonly source: Uint8Array,
    start = 0,
    end = source.length,
    options: CborReaderOptions = {}
  ) {
    if (!(
      Number.isSafeInteger(start) &&
      Number.isSafeInteger(end) &&
      0 <= start &&
      start <= end &&
      end <= source.length
    )) {
      throw new CborError(`range ${start}..${end} is outside the input of ${source.length} bytes`, 0)
    }
    this.pos = start
    this.end = end
    this.issues = options.issues ?? new EncodingIssueLog()
    this.maxDepth = options.maxDepth ?? MAX_CBOR_DEPTH
    this.maxBignumBytes = options.maxBignumBytes ?? DEFAULT_MAX_BIGNUM_BYTES
  }

  get remaining(): number {
    return this.end - this.pos
  }

  atEnd(): boolean {
    return this.pos >= this.end
  }

  fail(reason: string, offset = this.pos): never {
    throw new CborError(reason, offset)
  }

  /** Fails unless every byte of the range was consumed. */
  expectEnd(what: string): void {
    if (this.pos < this.end) {
      const extra = this.end - this.pos
      this.fail(`${extra} unexpected byte${extra === 1 ? '' : 's'} after ${what}`)
    }
  }

  peekByte(): number {
    if (this.pos >= this.end) this.fail('unexpected end of input')
    return this.source[this.pos]!
  }

  peekMajor(): number {
    return this.peekByte() >> 5
  }

  /** Consumes a `null` if one is next. */
  takeNull(): boolean {
    if (this.peekByte() !== 0xf6) return false
    this.pos += 1
    return true
  }

  uint(what: string): bigint {
    const start = this.pos
    return this.argumentBig(this.head(MAJOR_UINT, what), start)
  }

  /** An unsigned integer that must be at most `max` (a kind, an index, a count). */
  smallUint(what: string, max: number): number {
    const start = this.pos
    const n = this.argument(this.head(MAJOR_UINT, what), start)
    if (n > max) this.fail(`${what}: ${Number.isSafeInteger(n) ? n : 'a number over 2^53'} is above ${max}`, start)
    return n
  }

  /** A CBOR integer (major type 0 or 1): −2^64 … 2^64−1. */
  int(what: string): bigint {
    const start = this.pos
    const initial = this.byte()
    const major = initial >> 5
    if (major !== MAJOR_UINT && major !== MAJOR_NEGINT) throw typeError(what, 'an integer', initial, start)
    const n = this.argumentBig(initial & 0x1f, start)
    return major === MAJOR_UINT ? n : -1n - n
  }

  /** An integer of any size: a CBOR integer or a bignum (tag 2 or 3 around a byte string). */
  integer(what: string): bigint {
    const start = this.pos
    const initial = this.peekByte()
    if (initial >> 5 !== MAJOR_TAG) return this.int(what)
    const tag = this.tag(what)
    if (tag !== 2 && tag !== 3) this.fail(`${what}: expected an integer, got tag ${tag}`, start)
    const magnitude = this.bytes(what)
    if (magnitude.length > this.maxBignumBytes) {
      this.fail(`${what}: bignum of ${magnitude.length} bytes exceeds the ${this.maxBignumBytes}-byte limit`, start)
    }
    const n = magnitude.length === 0 ? 0n : BigInt(`0x${bytesToHex(magnitude)}`)
    return tag === 2 ? n : -1n - n
  }

  bool(what: string): boolean {
    const start = this.pos
    const b = this.byte()
    if (b === 0xf4) return false
    if (b === 0xf5) return true
    throw typeError(what, 'a boolean', b, start)
  }

  /** A byte string, definite or indefinite (chunks joined); definite ones are views into the input. */
  bytes(what: string): Uint8Array {
    const start = this.pos
    const info = this.head(MAJOR_BYTES, what)
    if (info !== INDEFINITE) return this.chunk(info, start)
    this.issues.record('indefinite-length', start)
    return this.joinChunks(MAJOR_BYTES, what)
  }

  /** A byte string of exactly `length` bytes (a hash, a key), as lowercase hex. */
  hash(what: string, length: number): string {
    const start = this.pos
    const b = this.bytes(what)
    if (b.length !== length) this.fail(`${what}: expected ${length} bytes, got ${b.length}`, start)
    return bytesToHex(b)
  }

  text(what: string): string {
    const start = this.pos
    const info = this.head(MAJOR_TEXT, what)
    if (info !== INDEFINITE) return this.utf8(this.chunk(info, start), start)
    this.issues.record('indefinite-length', start)
    let text = ''
    while (!this.takeBreak()) {
      const chunkStart = this.pos
      const chunkInfo = this.head(MAJOR_TEXT, `${what} chunk`)
      if (chunkInfo === INDEFINITE) this.fail('a chunk of an indefinite text string must be definite', chunkStart)
      text += this.utf8(this.chunk(chunkInfo, chunkStart), chunkStart)
    }
    return text
  }

  /** Item count of an array, or undefined for an indefinite array (iterate with `more`). */
  arrayHeader(what: string): number | undefined {
    const start = this.pos
    return this.containerHeader(this.head(MAJOR_ARRAY, what), start, 1, 'array', what)
  }

  /** Entry count of a map, or undefined for an indefinite map (iterate with `more`). */
  mapHeader(what: string): number | undefined {
    const start = this.pos
    return this.containerHeader(this.head(MAJOR_MAP, what), start, 2, 'map', what)
  }

  /** Whether item `i` of a container exists: below the count, or (indefinite) not at the break, which is consumed. */
  more(count: number | undefined, i: number): boolean {
    return count === undefined ? !this.takeBreak() : i < count
  }

  /** An array of exactly `length` items (any form); returns after the header. Use `closeArray` after the items. */
  fixedArray(what: string, length: number): number | undefined {
    const start = this.pos
    const count = this.arrayHeader(what)
    if (count !== undefined && count !== length) {
      this.fail(`${what}: expected an array of ${length} items, got ${count}`, start)
    }
    return count
  }

  /** Ends an array opened by `fixedArray`: an indefinite one must close right after its items. */
  closeArray(count: number | undefined, what: string): void {
    if (count === undefined && !this.takeBreak()) this.fail(`${what}: the array has more items than expected`)
  }

  tag(what: string): number {
    const start = this.pos
    return this.argument(this.head(MAJOR_TAG, what), start)
  }

  /** Consumes the tag `tag` if it is next; anything else is left unread (and unlogged). */
  takeTag(tag: number): boolean {
    if (this.pos >= this.end || this.source[this.pos]! >> 5 !== MAJOR_TAG) return false
    const start = this.pos
    const info = this.source[this.pos]! & 0x1f
    if (info > 27) return false
    this.pos += 1
    const found = info < 24 ? info : this.fixed(1 << (info - 24))
    if (found === tag) {
      if (info >= 24 && found < SHORTEST_FROM[info - 24]!) this.issues.record('non-shortest-head', start)
      return true
    }
    this.pos = start
    return false
  }

  /** An array, calling `onItem` for each item, which must consume it. */
  arrayItems(what: string, onItem: (index: number) => void): void {
    const count = this.arrayHeader(what)
    for (let i = 0; this.more(count, i); i++) onItem(i)
  }

  /**
   * A set: an array with or without tag 258. Elements written twice are logged. Returns whether it was tagged.
   */
  setItems(what: string, onItem: (index: number) => void): boolean {
    return this.keyedSetItems(what, (i) => {
      const start = this.pos
      onItem(i)
      return elementKey(this.source.subarray(start, this.pos))
    })
  }

  /**
   * A set whose `onItem` returns each element's identity, a string equal exactly for equal elements (a hash the
   * reader computes anyway, for datums and scripts), so that large elements are not read a second time.
   */
  keyedSetItems(what: string, onItem: (index: number) => string): boolean {
    const tagged = this.takeTag(TAG_SET)
    const seen = new Set<string>()
    this.arrayItems(what, (i) => {
      const start = this.pos
      const key = onItem(i)
      if (seen.has(key)) this.issues.record('duplicate-set-element', start)
      else seen.add(key)
    })
    return tagged
  }

  /**
   * A map: each key is read as a generic item and handed to `onEntry`, which must consume the value. Duplicate
   * keys and keys out of canonical order are logged.
   */
  mapEntries(what: string, onEntry: (key: CborItem) => void, depth = 0): void {
    const count = this.mapHeader(what)
    const seen = new Set<string>()
    let previous: Uint8Array | undefined
    let sorted = true
    for (let i = 0; this.more(count, i); i++) {
      const keyStart = this.pos
      const key = this.item(depth + 1)
      const raw = this.source.subarray(keyStart, this.pos)
      const identity = keyIdentity(key, raw)
      if (seen.has(identity)) this.issues.record('duplicate-map-key', keyStart)
      else seen.add(identity)
      if (sorted && previous !== undefined && compareCanonical(previous, raw) > 0) {
        sorted = false
        this.issues.record('unsorted-map-keys', keyStart)
      }
      previous = raw
      onEntry(key)
    }
  }

  /** Reads any one item as a generic tree. */
  item(depth = 0): CborItem {
    if (depth > this.maxDepth) this.fail(`CBOR is nested deeper than ${this.maxDepth} levels`)
    const start = this.pos
    const initial = this.peekByte()
    const info = initial & 0x1f
    switch (initial >> 5) {
      case MAJOR_UINT:
      case MAJOR_NEGINT:
        return { kind: 'int', value: this.int('item'), start, end: this.pos }
      case MAJOR_BYTES:
        return { kind: 'bytes', value: this.bytes('item'), indefinite: info === INDEFINITE, start, end: this.pos }
      case MAJOR_TEXT:
        return { kind: 'text', value: this.text('item'), indefinite: info === INDEFINITE, start, end: this.pos }
      case MAJOR_ARRAY: {
        const items: CborItem[] = []
        this.arrayItems('item', () => items.push(this.item(depth + 1)))
        return { kind: 'array', items, indefinite: info === INDEFINITE, start, end: this.pos }
      }
      case MAJOR_MAP: {
        const entries: Array<readonly [CborItem, CborItem]> = []
        this.mapEntries('item', (key) => entries.push([key, this.item(depth + 1)]), depth)
        return { kind: 'map', entries, indefinite: info === INDEFINITE, start, end: this.pos }
      }
      case MAJOR_TAG: {
        const tag = this.tag('item')
        return { kind: 'tag', tag, item: this.item(depth + 1), start, end: this.pos }
      }
      default:
        return this.simple(start)
    }
  }

  /** Skips one item of any kind, checking that it is well formed. */
  skip(depth = 0): void {
    this.item(depth)
  }

  /**
   * Skips one item of any kind, checking that it is well formed, and measures how deep it nests. No recursion
   * and no depth limit: it measures what `item` would refuse, so a refusal can say how deep the item is.
   */
  nesting(): Nesting {
    // The open arrays, maps and tags: how many items each still holds (undefined: indefinite, until its break).
    const left: Array<number | undefined> = []
    const isContainer: boolean[] = []
    let depth = 0
    let containers = 0
    let open = 0
    do {
      const top = left.length - 1
      const remaining = left[top]
      if (remaining !== undefined) left[top] = remaining - 1
      depth = Math.max(depth, left.length)
      const major = this.peekMajor()
      if (major === MAJOR_TAG) {
        this.tag('item')
        left.push(1)
        isContainer.push(false)
      } else if (major === MAJOR_ARRAY || major === MAJOR_MAP) {
        const count = major === MAJOR_ARRAY ? this.arrayHeader('item') : this.mapHeader('item')
        left.push(count === undefined ? undefined : major === MAJOR_MAP ? 2 * count : count)
        isContainer.push(true)
        open += 1
        containers = Math.max(containers, open)
      } else this.item()
      // Close every container the item completed.
      while (left.length > 0) {
        const items = left[left.length - 1]
        if (items === undefined ? !this.takeBreak() : items > 0) break
        left.pop()
        if (isContainer.pop() === true) open -= 1
      }
    } while (left.length > 0)
    return { depth, containers }
  }

  private simple(start: number): CborItem {
    const initial = this.byte()
    const info = initial & 0x1f
    if (info < 20) return { kind: 'simple', value: info, start, end: this.pos }
    switch (info) {
      case 20:
        return { kind: 'simple', value: false, start, end: this.pos }
      case 21:
        return { kind: 'simple', value: true, start, end: this.pos }
      case 22:
        return { kind: 'simple', value: null, start, end: this.pos }
      case 23:
        return { kind: 'simple', value: undefined, start, end: this.pos }
      case 24: {
        const value = this.byte()
        if (value < 32) this.fail(`simple value ${value} must use the one-byte form`, start)
        return { kind: 'simple', value, start, end: this.pos }
      }
      case 25:
        return { kind: 'float', value: halfToNumber(this.fixed(2)), start, end: this.pos }
      case 26:
        return { kind: 'float', value: this.view(4).getFloat32(0), start, end: this.pos }
      case 27:
        return { kind: 'float', value: this.view(8).getFloat64(0), start, end: this.pos }
      case INDEFINITE:
        return this.fail('unexpected break', start)
      default:
        return this.fail(`reserved additional information ${info} in a simple value`, start)
    }
  }

  private byte(): number {
    if (this.pos >= this.end) this.fail('unexpected end of input')
    return this.source[this.pos++]!
  }

  private fixed(size: number): number {
    if (size > this.remaining) this.fail('unexpected end of input')
    let n = 0
    for (let i = 0; i < size; i++) n = n * 256 + this.source[this.pos++]!
    return n
  }

  private view(size: number): DataView {
    if (size > this.remaining) this.fail('unexpected end of input')
    const view = new DataView(this.source.buffer, this.source.byteOffset + this.pos, size)
    this.pos += size
    return view
  }

  private takeBreak(): boolean {
    if (this.pos >= this.end) this.fail('unexpected end of input: missing break')
    if (this.source[this.pos] !== BREAK) return false
    this.pos += 1
    return true
  }

  /** Consumes a head of major type `major` and returns its additional information. */
  private head(major: number, what: string): number {
    const start = this.pos
    const initial = this.byte()
    if (initial >> 5 !== major) throw typeError(what, MAJOR_NAMES[major]!, initial, start)
    return initial & 0x1f
  }

  /** A head's argument. Above 2^53 it is imprecise but stays above 2^53, so length checks still reject it. */
  private argument(info: number, start: number): number {
    if (info < 24) return info
    if (info > 27) throw invalidInfo(info, start)
    const n = this.fixed(1 << (info - 24))
    if (n < SHORTEST_FROM[info - 24]!) this.issues.record('non-shortest-head', start)
    return n
  }

  private argumentBig(info: number, start: number): bigint {
    if (info !== 27) return BigInt(this.argument(info, start))
    const high = this.fixed(4)
    const low = this.fixed(4)
    if (high === 0) this.issues.record('non-shortest-head', start)
    return (BigInt(high) << 32n) | BigInt(low)
  }

  private containerHeader(
    info: number,
    start: number,
    bytesPerItem: number,
    kind: string,
    what: string
  ): number | undefined {
    if (info === INDEFINITE) {
      this.issues.record('indefinite-length', start)
      return undefined
    }
    const count = this.argument(info, start)
    // Every item takes at least one byte: a longer declaration is a lie, caught before any loop or allocation.
    if (count * bytesPerItem > this.remaining) {
      this.fail(`${what}: ${kind} declares ${amount(count)} items but only ${this.remaining} bytes remain`, start)
    }
    return count
  }

  private chunk(info: number, start: number): Uint8Array {
    const length = this.argument(info, start)
    if (length > this.remaining) {
      this.fail(`string declares ${amount(length)} bytes but only ${this.remaining} remain`, start)
    }
    const out = this.source.subarray(this.pos, this.pos + length)
    this.pos += length
    return out
  }

  private joinChunks(major: number, what: string): Uint8Array {
    const chunks: Uint8Array[] = []
    while (!this.takeBreak()) {
      const chunkStart = this.pos
      const info = this.head(major, `${what} chunk`)
      if (info === INDEFINITE) this.fail('a chunk of an indefinite string must be definite', chunkStart)
      const chunk = this.chunk(info, chunkStart)
      chunks.push(chunk)
    }
    return concatBytes(chunks)
  }

  private utf8(bytes: Uint8Array, start: number): string {
    const text = utf8DecodeStrict(bytes)
    if (text === undefined) this.fail('a text string is not valid UTF-8', start)
    return text
  }
}

/** Reads exactly one item from `bytes`; trailing bytes are an error. */
export function decodeCbor(
  bytes: Uint8Array,
  options: CborReaderOptions = {}
): { item: CborItem; issues: EncodingIssueLog } {
  const reader = new CborReader(bytes, 0, bytes.length, options)
  const item = reader.item()
  reader.expectEnd('the CBOR item')
  return { item, issues: reader.issues }
}

/** RFC 7049 §3.9 (CIP-21) key order: shorter encodings first, then bytewise. */
export function compareCanonical(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return a.length - b.length
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return 0
}

/** Largest set element compared by its exact bytes; larger ones (datums, scripts) by a 64-bit fingerprint. */
const EXACT_ELEMENT_BYTES = 64

/**
 * A string equal for equal encodings. Big elements get two FNV-1a passes (forward and backward, different
 * bases) instead of their hex: linear and cheap, and a false duplicate needs a crafted double collision.
 */
function elementKey(raw: Uint8Array): string {
  if (raw.length <= EXACT_ELEMENT_BYTES) return bytesToHex(raw)
  let forward = 0x811c9dc5
  let backward = 0x050c5d1f
  for (let i = 0, j = raw.length - 1; i < raw.length; i++, j--) {
    forward = Math.imul(forward ^ raw[i]!, 0x01000193)
    backward = Math.imul(backward ^ raw[j]!, 0x01000193)
  }
  return `${raw.length}:${forward >>> 0}:${backward >>> 0}`
}

/** Keys equal as values are duplicates even when encoded differently (e.g. `01` and `1801`). */
function keyIdentity(key: CborItem, raw: Uint8Array): string {
  switch (key.kind) {
    case 'int':
      return `i${key.value}`
    case 'bytes':
      return `b${bytesToHex(key.value)}`
    case 'text':
      return `t${key.value}`
    default:
      return `r${bytesToHex(raw)}`
  }
}

function halfToNumber(half: number): number {
  const exponent = (half >> 10) & 0x1f
  const mantissa = half & 0x3ff
  const magnitude =
    exponent === 0
      ? mantissa * 2 ** -24
      : exponent === 31
        ? mantissa === 0
          ? Infinity
          : NaN
        : (mantissa + 1024) * 2 ** (exponent - 25)
  return half & 0x8000 ? -magnitude : magnitude
}

function describeInitial(initial: number): string {
  const major = initial >> 5
  if (major !== 7) return MAJOR_NAMES[major]!
  if (initial === 0xf4 || initial === 0xf5) return 'a boolean'
  if (initial === 0xf6) return 'null'
  if (initial === 0xf7) return 'undefined'
  if (initial === BREAK) return 'a break'
  if (initial >= 0xf9 && initial <= 0xfb) return 'a float'
  return 'a simple value'
}

function typeError(what: string, expected: string, initial: number, start: number): CborError {
  return new CborError(`${what}: expected ${expected}, got ${describeInitial(initial)}`, start)
}

function invalidInfo(info: number, start: number): CborError {
  const reason =
    info === INDEFINITE ? 'indefinite length is not allowed here' : `reserved additional information ${info}`
  return new CborError(reason, start)
}

function amount(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : 'over 2^53'
}
