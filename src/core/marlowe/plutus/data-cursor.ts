/**
 * Typed reading of Plutus Data straight from its CBOR, front to back, building only the values asked for: a
 * Marlowe datum is read in one pass instead of a Data tree and then the model. Shape errors are
 * `PlutusDecodeError`s naming the path of the bad node (`datum.contract.cases[1].then: …`); the path is kept
 * as a stack of names, so nothing is built for it until something fails.
 *
 * Use `readCbor`: it reads once fast, and only when that fails, checks the whole input's CBOR (so malformed
 * bytes are reported as such, whatever else is wrong) and reads again counting every constructor's fields
 * before its first field (so a wrong field count is reported before what is in the fields), as a tree
 * decoder followed by shape checks would.
 */
import { bytesToHex, utf8DecodeStrict } from '../../bytes'
import { TextsByBytes } from '../../memo'
import { trailingBytes, decodePlutusDataItem } from './data-decoder'
import {
  INDEFINITE,
  Reader,
  TAG_EXTENDED_CONSTR,
  TAG_NEGATIVE_BIGNUM,
  TAG_POSITIVE_BIGNUM,
  checkDepth,
  compactConstrIndex,
  indefiniteArrayCounts,
  skipPlutusDataItem
} from './data-reader'
import { MAJOR_ARRAY, MAJOR_BYTES, MAJOR_MAP, MAJOR_NEGINT, MAJOR_TAG, MAJOR_UINT } from '../../cardano/cbor'
import { PlutusDataError, type PlutusData } from './data-types'
import { PlutusDecodeError } from './data-shape'

/** Reads the one Data item filling `bytes` with `read`, rooting error paths at `root`. */
export function readCbor<T>(bytes: Uint8Array, root: string, read: (cursor: DataCursor) => T): T {
  try {
    return readWith(new DataCursor(bytes, root, undefined), read)
  } catch (e) {
    if (!(e instanceof PlutusDecodeError || e instanceof PlutusDataError)) throw e
    const end = skipPlutusDataItem(bytes, 0)
    if (end !== bytes.length) throw trailingBytes(bytes.length, end)
    return readWith(new DataCursor(bytes, root, indefiniteArrayCounts(bytes)), read)
  }
}

/**
 * `readCbor` for bytes that may well be of another shape (is this datum a MarloweData?): undefined when they
 * are not Data of that shape, after the fast read alone. A probe never reports why, so it neither reads again
 * to word the error nor builds one (an error's stack trace costs more than reading a small datum).
 */
export function probeCbor<T>(bytes: Uint8Array, root: string, read: (cursor: DataCursor) => T): T | undefined {
  try {
    return readWith(new DataCursor(bytes, root, undefined, true), read)
  } catch (e) {
    if (e === NOT_THIS_SHAPE || e instanceof PlutusDecodeError || e instanceof PlutusDataError) return undefined
    throw e
  }
}

/** What a probing cursor throws at the first node of the wrong shape. */
const NOT_THIS_SHAPE = new PlutusDecodeError('', 'not the shape probed for')

function readWith<T>(cursor: DataCursor, read: (cursor: DataCursor) => T): T {
  const value = read(cursor)
  cursor.finish()
  return value
}

const CONSTR = 0
const LIST = 1
const MAP = 2

export class DataCursor {
  private readonly r: Reader
  // The open constructors, lists and maps, innermost at `depth - 1`: parallel stacks, so reading allocates
  // nothing once they have grown to the deepest nesting.
  private depth = 0
  private readonly names: string[] = []
  private readonly kinds: number[] = []
  /** Items (entries) left in a definite container; for an indefinite one, -1 - the fields expected (or -1). */
  private readonly left: number[] = []
  /** A list's or map's current item; for a constructor, its tag-102 array form (-1 none, 0 definite, 1 not). */
  private readonly items: number[] = []
  /** A constructor's name, for its field count message. */
  private readonly constrNames: string[] = []

  /** Set by `shortString`. */
  private shortEnd = 0

  constructor(
    bytes: Uint8Array,
    private readonly root: string,
    /**
     * The item counts of the input's indefinite arrays, when a constructor's fields are to be counted before
     * they are read (see `readCbor`).
     */
    private readonly counts: ReadonlyMap<number, number> | undefined,
    /** Whether the error is never shown (`probeCbor`): then one shared error is thrown, with no message. */
    private readonly probing = false
  ) {
    this.r = new Reader(bytes, 0)
  }

  /**
   * Opens a constructor of the type whose constructors, by index, are `names`, and returns its index; `fields`
   * must follow.
   */
  constr(name: string, typeName: string, names: readonly string[]): number {
    const r = this.r
    const start = r.pos
    const b = r.bytes
    // Most constructors are `d8 79..7f` then `9f` or `80..97`: read those here, the rest below.
    const compact = b[start + 1]! - 121
    const head = b[start + 2]!
    if (b[start] === 0xd8 && compact >= 0 && compact < 7 && (head === 0x9f || (head >= 0x80 && head <= 0x97))) {
      const count = head === 0x9f ? -1 : head - 0x80
      if (names[compact] === undefined) this.badIndex(name, typeName, names, BigInt(compact))
      checkDepth(this.depth + 1, start + 2)
      if (count > b.length - start - 3) return this.constrSlowly(name, typeName, names)
      r.pos = start + 3
      this.push(name, CONSTR, count, -1, names[compact]!)
      return compact
    }
    return this.constrSlowly(name, typeName, names)
  }

  private constrSlowly(name: string, typeName: string, names: readonly string[]): number {
    const r = this.r
    const start = r.pos
    const initial = r.byte()
    if (initial >> 5 !== MAJOR_TAG) return this.wrongShape(name, `a ${typeName} constructor`, start)
    const tag = r.argument(MAJOR_TAG, initial & 0x1f, start)
    let index = compactConstrIndex(tag)
    let extended: boolean | undefined
    if (index < 0) {
      if (tag !== TAG_EXTENDED_CONSTR) return this.wrongShape(name, `a ${typeName} constructor`, start)
      const head = r.extendedConstrIndex()
      extended = head.indefinite
      index = head.index < 0x10000n ? Number(head.index) : -1
      if (names[index] === undefined) this.badIndex(name, typeName, names, head.index)
    } else if (names[index] === undefined) {
      this.badIndex(name, typeName, names, BigInt(index))
    }
    const count = r.fieldsHead(this.depth + 1)
    this.push(name, CONSTR, count, extended === undefined ? -1 : extended ? 1 : 0, names[index]!)
    return index
  }

  /** The open constructor's fields, which must number exactly `count`. */
  fields(count: number): void {
    const top = this.depth - 1
    let found = this.left[top]!
    if (found < 0 && this.counts !== undefined) found = this.counts.get(this.r.pos) ?? found
    if (found >= 0 && found !== count) this.wrongCount(count, found)
    if (found < 0) this.left[top] = -1 - count
  }

  /** A constructor with exactly `count` fields of a single-constructor type (records, tuples, newtypes). */
  record(name: string, typeName: string, count: number): void {
    this.constr(name, typeName, [typeName])
    this.fields(count)
  }

  /** Closes the innermost constructor once all its fields are read. */
  close(): void {
    const top = this.depth - 1
    const left = this.left[top]!
    const r = this.r
    // Only a first, fast read gets here with fields left over (the re-read counts them up front, in `fields`),
    // and its error is not the one reported: no need to count them.
    if (left < 0 && !r.consumeBreak()) this.wrongCount(-1 - left, 'more')
    const extended = this.items[top]!
    this.pop()
    if (extended >= 0) r.closeExtended(extended === 1)
  }

  list(name: string): void {
    this.container(name, LIST, MAJOR_ARRAY, 'a list')
  }

  map(name: string): void {
    this.container(name, MAP, MAJOR_MAP, 'a map')
  }

  /** Whether the innermost list or map has another item (entry) to read; closes it when not. */
  more(): boolean {
    const top = this.depth - 1
    const left = this.left[top]!
    const has = left < 0 ? !this.r.consumeBreak() : left > 0
    if (!has) {
      this.pop()
      return false
    }
    if (left > 0) this.left[top] = left - 1
    this.items[top] = this.items[top]! + 1
    return true
  }

  integer(name: string): bigint {
    const r = this.r
    const start = r.pos
    const initial = r.byte()
    const major = initial >> 5
    const info = initial & 0x1f
    if (major === MAJOR_UINT) return r.argumentBig(major, info, start)
    if (major === MAJOR_NEGINT) return -1n - r.argumentBig(major, info, start)
    if (major === MAJOR_TAG) {
      const tag = r.argument(major, info, start)
      if (tag === TAG_POSITIVE_BIGNUM || tag === TAG_NEGATIVE_BIGNUM) return r.bignum(tag)
    }
    return this.wrongShape(name, 'an integer', start)
  }

  /** A byte string; a view of the input when it is one definite string, so it must not be kept or changed. */
  bytes(name: string): Uint8Array {
    const r = this.r
    const from = this.shortString()
    if (from >= 0) {
      r.pos = this.shortEnd
      return r.bytes.subarray(from, this.shortEnd)
    }
    const start = r.pos
    const initial = r.byte()
    if (initial >> 5 !== MAJOR_BYTES) return this.wrongShape(name, 'a byte string', start)
    return r.byteString(initial & 0x1f, start, false)
  }

  hex(name: string): string {
    return bytesToHex(this.bytes(name))
  }

  /** Token, role, choice and value names are the UTF-8 bytes of their text. */
  text(name: string): string {
    const from = this.shortString()
    if (from >= 0) {
      const known = nameText(this.r.bytes, from, this.shortEnd)
      if (known !== undefined) {
        this.r.pos = this.shortEnd
        return known
      }
    }
    const bytes = this.bytes(name)
    const text = utf8DecodeStrict(bytes)
    if (text === undefined) this.fail(name, `byte string ${bytesToHex(bytes)} is not valid UTF-8 text`)
    return text
  }

  bool(name: string): boolean {
    const index = this.constr(name, 'Bool', BOOL)
    this.fields(0)
    this.close()
    return index === 1
  }

  /** Where the next item starts, in the input. */
  get offset(): number {
    return this.r.pos
  }

  /** The whole input being read. */
  get input(): Uint8Array {
    return this.r.bytes
  }

  /**
   * The bytes the last field of the root constructor must fill (a view of the input): from here to the end of
   * the input, less the break an indefinite fields array ends with. Only while the root is the one open node.
   */
  rootTail(): Uint8Array {
    if (this.depth !== 1 || this.kinds[0] !== CONSTR)
      throw new Error('rootTail: the root constructor is not the one open node')
    const r = this.r
    return r.bytes.subarray(r.pos, r.bytes.length - (this.left[0]! < 0 ? 1 : 0))
  }

  /** Passes over the next `length` bytes: an item the caller has read another way (they equal one it decoded). */
  pass(length: number): void {
    this.r.pos += length
  }

  /** Fails at the node `name` inside the innermost open node ('' for that node itself). */
  fail(name: string, message: string): never {
    if (this.probing) throw NOT_THIS_SHAPE
    throw new PlutusDecodeError(this.path(name), message)
  }

  /** Checks that the whole input was one item. */
  finish(): void {
    const r = this.r
    if (r.pos !== r.bytes.length) throw trailingBytes(r.bytes.length, r.pos)
  }

  /**
   * Where the content of the byte string at the reader starts when it is a short definite one (`40..57` or
   * `58 nn`, nn ≤ 64: nearly all), its end in `shortEnd`; -1 for anything else. Does not move the reader.
   */
  private shortString(): number {
    const b = this.r.bytes
    const start = this.r.pos
    const initial = b[start]!
    const short = initial >= 0x40 && initial <= 0x57
    if (!short && !(initial === 0x58 && b[start + 1]! <= 64)) return -1
    const from = start + (short ? 1 : 2)
    const to = from + (short ? initial - 0x40 : b[start + 1]!)
    if (to > b.length) return -1
    this.shortEnd = to
    return from
  }

  private container(name: string, kind: number, major: number, what: string): void {
    const r = this.r
    const start = r.pos
    const initial = r.byte()
    if (initial >> 5 !== major) return this.wrongShape(name, what, start)
    checkDepth(this.depth + 1, start)
    const info = initial & 0x1f
    this.push(name, kind, info === INDEFINITE ? -1 : r.count(major, info, start), -1, '')
  }

  private push(name: string, kind: number, left: number, item: number, constrName: string): void {
    const at = this.depth
    this.names[at] = name
    this.kinds[at] = kind
    this.left[at] = left
    this.items[at] = item
    this.constrNames[at] = constrName
    this.depth = at + 1
  }

  private pop(): void {
    this.depth -= 1
  }

  private wrongCount(expected: number, found: number | 'more'): never {
    if (this.probing) throw NOT_THIS_SHAPE
    const top = this.depth - 1
    const message = `${this.constrNames[top]!} takes ${expected} fields, got ${found}`
    throw new PlutusDecodeError(this.path(''), message)
  }

  private badIndex(name: string, typeName: string, names: readonly string[], index: bigint): never {
    this.fail(name, `expected ${typeName} constructor 0..${names.length - 1}, got constructor ${index}`)
  }

  /** The item at `start` is not what was expected: describe it, or report why it is not Data at all. */
  private wrongShape(name: string, expected: string, start: number): never {
    if (this.probing) throw NOT_THIS_SHAPE
    const { data } = decodePlutusDataItem(this.r.bytes, start)
    this.fail(name, `expected ${expected}, got ${describe(data)}`)
  }

  private path(name: string): string {
    let path = this.root
    for (let i = 0; i <= this.depth; i += 1) {
      const node = i === this.depth ? name : this.names[i]!
      path += i === 0 ? segment(node, -1, 0) : segment(node, this.kinds[i - 1]!, this.items[i - 1]!)
    }
    return path
  }
}

const BOOL = ['False', 'True']

/**
 * Names by their UTF-8 bytes: contracts repeat their token, role and choice names, and a datum is read again by
 * every view of its contract; finding one is cheaper than making it. A 32-bit FNV-1a of the bytes finds the
 * entry, and the bytes are compared before it is used. At most 1024 names.
 */
const NAMES = new TextsByBytes(1024)

/** The text of `source[from, to)`, or undefined when those bytes are not UTF-8. */
function nameText(source: Uint8Array, from: number, to: number): string | undefined {
  let fingerprint = 0x811c9dc5
  for (let i = from; i < to; i += 1) fingerprint = Math.imul(fingerprint ^ source[i]!, 0x01000193)
  for (const e of NAMES.under(fingerprint) ?? []) if (sameBytes(e.bytes, source, from, to)) return e.text
  const bytes = source.slice(from, to)
  const text = utf8DecodeStrict(bytes)
  if (text !== undefined) NAMES.keep(fingerprint, bytes, text)
  return text
}

function sameBytes(bytes: Uint8Array, source: Uint8Array, from: number, to: number): boolean {
  if (bytes.length !== to - from) return false
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i] !== source[from + i]) return false
  return true
}

function segment(name: string, parentKind: number, item: number): string {
  const index = parentKind === LIST || parentKind === MAP ? `[${item}]` : ''
  return index + (name === '' ? '' : `.${name}`)
}

function describe(d: PlutusData): string {
  if (typeof d === 'bigint') return `integer ${d}`
  if (d instanceof Uint8Array) return `a byte string of ${d.length} bytes`
  if ('constr' in d) return `constructor ${d.constr}`
  return 'list' in d ? 'a list' : 'a map'
}
