/**
 * The CBOR rules of Plutus Data, shared by the tree decoder (data-decoder.ts), the typed Marlowe cursor
 * (data-cursor.ts) and `skipPlutusDataItem`, so all three accept exactly what plutus-core's `decodeData`
 * accepts: definite or indefinite arrays, maps and byte strings, non-shortest heads, tags 121–127, 1280–1400
 * and 102, bignums — with its 64-byte limit on every definite byte string. Declared lengths are checked
 * against the remaining bytes before anything is read, and nesting is capped.
 */
import { bytesToHex, concatBytes } from '../../bytes'
import { MAX_DATA_DEPTH } from '../../depth-limits'
import { PlutusDataError } from './data-types'
import {
  MAJOR_ARRAY,
  MAJOR_BYTES,
  MAJOR_MAP,
  MAJOR_NEGINT,
  MAJOR_TAG,
  MAJOR_TEXT,
  MAJOR_UINT
} from '../../cardano/cbor'

/** Deepest nesting of constructors, lists and maps accepted (core/depth-limits.ts). */
export { MAX_DATA_DEPTH }

export const INDEFINITE = 31
export const BREAK = 0xff
/** plutus-core rejects longer definite byte strings, bignum payloads and chunks ("the 64-byte limit"). */
const MAX_CHUNK = 64

// Constructor indices and most integers in a datum are small: each BigInt(n) allocates, a shared one does not.
export const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 256 }, (_, n) => BigInt(n))

/** The constructor index a tag 121–127 or 1280–1400 stands for, or -1 for any other tag. */
export function compactConstrIndex(tag: number): number {
  if (tag >= 121 && tag <= 127) return tag - 121
  if (tag >= 1280 && tag <= 1400) return tag - 1280 + 7
  return -1
}

export const TAG_EXTENDED_CONSTR = 102
export const TAG_POSITIVE_BIGNUM = 2
export const TAG_NEGATIVE_BIGNUM = 3

export class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number
  ) {}

  get remaining(): number {
    return this.bytes.length - this.pos
  }

  byte(): number {
    const b = this.bytes[this.pos]
    if (b === undefined) throw new PlutusDataError('unexpected end of input', this.pos)
    this.pos++
    return b
  }

  /** Consumes a break byte if one is next; running out of input here means an unterminated item. */
  consumeBreak(): boolean {
    const b = this.bytes[this.pos]
    if (b === undefined) throw new PlutusDataError('unexpected end of input: missing break', this.pos)
    if (b !== BREAK) return false
    this.pos++
    return true
  }

  /**
   * The head's argument as a number. Above 2^53 it is imprecise but stays above 2^53, which is more than any
   * tag Data uses and more than any remaining length, so it is still rejected correctly.
   */
  argument(major: number, info: number, start: number): number {
    if (info < 24) return info
    if (info > 27) throw invalidInfo(major, info, start)
    let n = 0
    for (let i = 1 << (info - 24); i > 0; i--) n = n * 256 + this.byte()
    return n
  }

  argumentBig(major: number, info: number, start: number): bigint {
    if (info < 27) {
      const n = this.argument(major, info, start)
      return n < SMALL_BIGINTS.length ? SMALL_BIGINTS[n]! : BigInt(n)
    }
    if (info > 27) throw invalidInfo(major, info, start)
    const high = this.argument(major, 26, start)
    const low = this.argument(major, 26, start)
    return (BigInt(high) << 32n) | BigInt(low)
  }

  /** Where the body of a definite byte string whose head, at `start`, declared `length` bytes begins; skips it. */
  chunkStart(length: number, start: number): number {
    if (length > this.remaining) {
      throw new PlutusDataError(`byte string declares ${amount(length)} bytes but only ${this.remaining} remain`, start)
    }
    if (length > MAX_CHUNK) {
      throw new PlutusDataError(`definite byte string of ${length} bytes exceeds the ${MAX_CHUNK}-byte limit`, start)
    }
    const at = this.pos
    this.pos += length
    return at
  }

  /** The count of a definite array or map head, checked against the remaining bytes. */
  count(major: number, info: number, start: number): number {
    const count = this.argument(major, info, start)
    // Every item takes at least one byte, so a longer declaration is a lie; fail before looping.
    if (count * (major === MAJOR_MAP ? 2 : 1) > this.remaining) {
      const what =
        major === MAJOR_MAP ? `map declares ${amount(count)} entries` : `array declares ${amount(count)} items`
      throw new PlutusDataError(`${what} but only ${this.remaining} bytes remain`, start)
    }
    return count
  }

  /**
   * A byte string's content after its head (`info` from the head at `start`). `copy` false returns a view of a
   * definite string's bytes instead of a copy; indefinite strings are always joined into new bytes.
   */
  byteString(info: number, start: number, copy: boolean): Uint8Array {
    if (info !== INDEFINITE) {
      const at = this.chunkStart(this.argument(MAJOR_BYTES, info, start), start)
      return copy ? this.bytes.slice(at, this.pos) : this.bytes.subarray(at, this.pos)
    }
    const chunks: Uint8Array[] = []
    while (!this.consumeBreak()) {
      const at = this.chunkHead()
      chunks.push(this.bytes.subarray(at, this.pos))
    }
    return concatBytes(chunks)
  }

  /** Skips a byte string's content after its head, checking it as `byteString` does. */
  skipByteString(info: number, start: number): void {
    if (info !== INDEFINITE) this.chunkStart(this.argument(MAJOR_BYTES, info, start), start)
    else while (!this.consumeBreak()) this.chunkHead()
  }

  /** The argument of a bignum tag: the magnitude's byte string, read into a bigint. */
  bignum(tag: number): bigint {
    const magnitudeStart = this.pos
    const initial = this.byte()
    if (initial >> 5 !== MAJOR_BYTES) {
      throw new PlutusDataError('a bignum tag must be followed by a byte string', magnitudeStart)
    }
    const magnitude = this.byteString(initial & 0x1f, magnitudeStart, false)
    const n = magnitude.length === 0 ? 0n : BigInt(`0x${bytesToHex(magnitude)}`)
    return tag === TAG_POSITIVE_BIGNUM ? n : -1n - n
  }

  /**
   * Skips the head of a constructor's fields array, nested at `depth`; the count of a definite one, -1 for an
   * indefinite one.
   */
  fieldsHead(depth: number): number {
    const start = this.pos
    const initial = this.byte()
    if (initial >> 5 !== MAJOR_ARRAY) {
      throw new PlutusDataError(`constructor fields must be an array, got CBOR major type ${initial >> 5}`, start)
    }
    checkDepth(depth, start)
    const info = initial & 0x1f
    return info === INDEFINITE ? -1 : this.count(MAJOR_ARRAY, info, start)
  }

  /**
   * Skips tag 102's `[index, ` and returns the index (a bigint: the ledger allows any Word64), leaving the
   * reader at the fields; `closeExtended` reads what follows them.
   */
  extendedConstrIndex(): { index: bigint; indefinite: boolean } {
    const start = this.pos
    const initial = this.byte()
    if (initial >> 5 !== MAJOR_ARRAY) {
      throw new PlutusDataError('tag 102 must be followed by an array [index, fields]', start)
    }
    const info = initial & 0x1f
    if (info !== INDEFINITE) {
      const length = this.argument(MAJOR_ARRAY, info, start)
      if (length !== 2) throw new PlutusDataError(`tag 102 array must have 2 items, got ${length}`, start)
    }
    const indexStart = this.pos
    const indexHead = this.byte()
    if (indexHead >> 5 !== MAJOR_UINT) {
      throw new PlutusDataError('tag 102 constructor index must be an unsigned integer', indexStart)
    }
    return { index: this.argumentBig(MAJOR_UINT, indexHead & 0x1f, indexStart), indefinite: info === INDEFINITE }
  }

  closeExtended(indefinite: boolean): void {
    if (indefinite && !this.consumeBreak()) {
      throw new PlutusDataError('tag 102 array must have 2 items, got more', this.pos)
    }
  }

  private chunkHead(): number {
    const chunkStart = this.pos
    const initial = this.byte()
    if (initial >> 5 !== MAJOR_BYTES || (initial & 0x1f) === INDEFINITE) {
      throw new PlutusDataError('a chunk of an indefinite byte string must be a definite byte string', chunkStart)
    }
    return this.chunkStart(this.argument(MAJOR_BYTES, initial & 0x1f, chunkStart), chunkStart)
  }
}

export function checkDepth(depth: number, start: number): void {
  if (depth > MAX_DATA_DEPTH) {
    throw new PlutusDataError(`Data is nested deeper than ${MAX_DATA_DEPTH} levels`, start)
  }
}

export function unusedTag(tag: number, start: number): PlutusDataError {
  return new PlutusDataError(`CBOR tag ${amount(tag)} is not used by Plutus Data`, start)
}

export function notData(initial: number, start: number): PlutusDataError {
  if (initial >> 5 === MAJOR_TEXT) return new PlutusDataError('a text string is not Plutus Data', start)
  return new PlutusDataError(
    initial === BREAK ? 'unexpected break' : 'a float or simple value is not Plutus Data',
    start
  )
}

/**
 * Checks the one Data item at `offset` and returns where it ends, building nothing: what `decodePlutusDataItem`
 * accepts, this accepts, and it fails with the same errors.
 */
export function skipPlutusDataItem(bytes: Uint8Array, offset: number): number {
  checkOffset(bytes, offset)
  const end = dataEnd(bytes, offset, 0)
  if (end >= 0) return end
  const r = new Reader(bytes, offset)
  skipData(r, 0)
  return r.pos
}

export function checkOffset(bytes: Uint8Array, offset: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > bytes.length) {
    throw new PlutusDataError(`offset ${offset} is outside the input of ${bytes.length} bytes`)
  }
}

/**
 * Checks and skips the Data item at the reader, nested at `depth`; with `counts`, records there the item count of
 * every indefinite array in it, by where its first item starts.
 */
function skipData(r: Reader, depth: number, counts?: Map<number, number>): void {
  const start = r.pos
  const initial = r.byte()
  const major = initial >> 5
  const info = initial & 0x1f
  switch (major) {
    case MAJOR_UINT:
    case MAJOR_NEGINT:
      r.argumentBig(major, info, start)
      return
    case MAJOR_BYTES:
      r.skipByteString(info, start)
      return
    case MAJOR_ARRAY:
    case MAJOR_MAP:
      skipItems(r, major, info, start, depth + 1, counts)
      return
    case MAJOR_TAG:
      skipTagged(r, r.argument(major, info, start), start, depth, counts)
      return
    default:
      throw notData(initial, start)
  }
}

function skipTagged(r: Reader, tag: number, start: number, depth: number, counts?: Map<number, number>): void {
  if (compactConstrIndex(tag) >= 0) {
    skipFields(r, depth + 1, counts)
  } else if (tag === TAG_EXTENDED_CONSTR) {
    const { indefinite } = r.extendedConstrIndex()
    skipFields(r, depth + 1, counts)
    r.closeExtended(indefinite)
  } else if (tag === TAG_POSITIVE_BIGNUM || tag === TAG_NEGATIVE_BIGNUM) {
    r.bignum(tag)
  } else {
    throw unusedTag(tag, start)
  }
}

function skipFields(r: Reader, depth: number, counts?: Map<number, number>): void {
  const count = r.fieldsHead(depth)
  if (count >= 0) for (let i = 0; i < count; i++) skipData(r, depth, counts)
  else skipUntilBreak(r, 1, depth, counts)
}

function skipItems(
  r: Reader,
  major: number,
  info: number,
  start: number,
  depth: number,
  counts?: Map<number, number>
): void {
  checkDepth(depth, start)
  const perEntry = major === MAJOR_MAP ? 2 : 1
  if (info === INDEFINITE) {
    skipUntilBreak(r, perEntry, depth, counts)
    return
  }
  const count = r.count(major, info, start)
  for (let i = 0; i < count * perEntry; i++) skipData(r, depth, counts)
}

/** The items (entries of `perEntry` items) of an indefinite array or map, up to its break; an array's recorded. */
function skipUntilBreak(r: Reader, perEntry: number, depth: number, counts?: Map<number, number>): void {
  const first = r.pos
  let entries = 0
  while (!r.consumeBreak()) {
    for (let i = 0; i < perEntry; i++) skipData(r, depth, counts)
    entries += 1
  }
  if (perEntry === 1) counts?.set(first, entries)
}

function invalidInfo(major: number, info: number, start: number): PlutusDataError {
  const what = info === INDEFINITE ? 'indefinite length' : `reserved additional information ${info}`
  return new PlutusDataError(`${what} is not allowed for CBOR major type ${major}`, start)
}

/** Head arguments above 2^53 are only known approximately (see `Reader.argument`), so say so. */
function amount(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : 'over 2^53'
}

// The open containers of `dataEnd`, innermost last: the items left in each (or one of the markers below).
// Module-wide: `dataEnd` runs to completion and does not recurse.
const LEFT = new Int32Array(2 * MAX_DATA_DEPTH + 8)
/** An indefinite array: items until a break. */
const UNTIL_BREAK = -1
/** An indefinite map between entries (a break may end it) or between a key and its value (it may not). */
const MAP_ENTRY_BOUNDARY = -3
const MAP_AFTER_KEY = -4
/** Tag 102's `[index, fields]`, the index passed: the fields, then a break (`9f`) or nothing (`82`). */
const WRAPPER_THEN_BREAK = -2
const WRAPPER = -5
/** What the next item must be. */
const ANY = 0
const FIELDS = 1
const MAGNITUDE = 2

/**
 * Where the Data item at `start` ends, or -1 when `skipData` may disagree: the item is not Data, nests deeper
 * than MAX_DATA_DEPTH counting from `depth` levels, or uses a rare encoding this loop leaves to `skipData`
 * (non-shortest heads of tag-102 arrays and byte-string chunks). One loop over the bytes with its own stack,
 * several times faster than the recursion; the exact errors are `skipData`'s.
 */
function dataEnd(b: Uint8Array, start: number, depth: number): number {
  const n = b.length
  let pos = start
  let top = 0
  // Tag-102 wrappers on the stack: they are not nesting levels (the depth is `depth + top - wrappers`).
  let wrappers = 0
  let need = ANY
  for (;;) {
    let closes = false
    if (b[pos] === BREAK && need === ANY && top > 0) {
      const open = LEFT[top - 1]
      closes = open === UNTIL_BREAK || open === MAP_ENTRY_BOUNDARY
    }
    if (closes) {
      pos += 1
      top -= 1
    } else {
      if (pos >= n) return -1
      const initial = b[pos]!
      let major = initial >> 5
      const info = initial & 0x1f
      pos += 1
      let arg: number
      if (info < 24) arg = info
      else if (info === 24) {
        if (pos >= n) return -1
        arg = b[pos]!
        pos += 1
      } else if (info <= 27) {
        const size = 1 << (info - 24)
        if (pos + size > n) return -1
        arg = 0
        for (let i = 0; i < size; i += 1) arg = arg * 0x100 + b[pos + i]!
        pos += size
      } else if (info === INDEFINITE && (major === MAJOR_BYTES || major === MAJOR_ARRAY || major === MAJOR_MAP)) {
        arg = UNTIL_BREAK
      } else return -1
      if ((need === FIELDS && major !== MAJOR_ARRAY) || (need === MAGNITUDE && major !== MAJOR_BYTES)) return -1
      need = ANY
      if (major === MAJOR_TAG) {
        const fields = b[pos] ?? 0
        const compact = compactConstrIndex(arg) >= 0
        if (compact && (fields === 0x9f || (fields >= 0x80 && fields <= 0x97))) {
          // The common constructor: its fields array head (`[]`, `[* …]` or `[_ …]`) is read with its tag.
          major = MAJOR_ARRAY
          arg = fields === 0x9f ? UNTIL_BREAK : fields & 0x1f
          pos += 1
        } else {
          if (compact) need = FIELDS
          else if (arg === TAG_POSITIVE_BIGNUM || arg === TAG_NEGATIVE_BIGNUM) need = MAGNITUDE
          else if (arg === TAG_EXTENDED_CONSTR) {
            // `[index, fields]`: the index is passed over here; the fields are the wrapper's one item.
            const head = b[pos]
            const index = b[pos + 1]
            if ((head !== 0x82 && head !== 0x9f) || index === undefined || index >> 5 !== MAJOR_UINT) return -1
            const indexInfo = index & 0x1f
            if (indexInfo > 27) return -1
            pos += 2 + (indexInfo < 24 ? 0 : 1 << (indexInfo - 24))
            if (pos > n) return -1
            LEFT[top] = head === 0x9f ? WRAPPER_THEN_BREAK : WRAPPER
            top += 1
            wrappers += 1
            need = FIELDS
          } else return -1
          continue
        }
      }
      if (major === MAJOR_ARRAY || major === MAJOR_MAP) {
        if (depth + top - wrappers + 1 > MAX_DATA_DEPTH) return -1
        const indefinite = major === MAJOR_MAP ? MAP_ENTRY_BOUNDARY : UNTIL_BREAK
        const items = arg === UNTIL_BREAK ? indefinite : major === MAJOR_MAP ? 2 * arg : arg
        if (items > n - pos) return -1
        if (items !== 0) {
          LEFT[top] = items
          top += 1
          continue
        }
      } else if (major === MAJOR_BYTES) {
        pos = byteStringEnd(b, pos, arg)
        if (pos < 0) return -1
      } else if (major !== MAJOR_UINT && major !== MAJOR_NEGINT) return -1
    }
    // An item ended: count it in the containers it ends, innermost first.
    for (;;) {
      if (top === 0) return pos
      const left = LEFT[top - 1]!
      if (left === UNTIL_BREAK) break
      if (left === MAP_ENTRY_BOUNDARY || left === MAP_AFTER_KEY) {
        LEFT[top - 1] = left === MAP_ENTRY_BOUNDARY ? MAP_AFTER_KEY : MAP_ENTRY_BOUNDARY
        break
      }
      if (left === WRAPPER_THEN_BREAK || left === WRAPPER) {
        if (left === WRAPPER_THEN_BREAK) {
          if (b[pos] !== BREAK) return -1
          pos += 1
        }
        top -= 1
        wrappers -= 1
        continue
      }
      if (left > 1) {
        LEFT[top - 1] = left - 1
        break
      }
      top -= 1
    }
  }
}

/** The end of a byte string's content after its head (`length`, or UNTIL_BREAK), or -1 (see `dataEnd`). */
function byteStringEnd(b: Uint8Array, start: number, length: number): number {
  if (length !== UNTIL_BREAK) return length > MAX_CHUNK || length > b.length - start ? -1 : start + length
  let pos = start
  for (;;) {
    const head = b[pos]
    if (head === undefined) return -1
    if (head === BREAK) return pos + 1
    if (head >> 5 !== MAJOR_BYTES) return -1
    const info = head & 0x1f
    const size = info < 24 ? info : info === 24 ? (b[pos + 1] ?? MAX_CHUNK + 1) : MAX_CHUNK + 1
    pos += info < 24 ? 1 : 2
    if (size > MAX_CHUNK || size > b.length - pos) return -1
    pos += size
  }
}

/**
 * The item counts of every indefinite array in the valid Data item at 0, by where its first item starts. One
 * pass, so reading a datum while counting each constructor's fields first (see data-cursor.ts) stays linear.
 */
export function indefiniteArrayCounts(bytes: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>()
  skipData(new Reader(bytes, 0), 0, counts)
  return counts
}
