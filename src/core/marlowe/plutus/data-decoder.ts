/**
 * CBOR → Plutus Data, accepting what plutus-core's `decodeData` accepts: definite or indefinite arrays, maps
 * and byte strings, non-shortest heads, tags 121–127, 1280–1400 and 102, bignums — with its 64-byte limit on
 * every definite byte string (longer values arrive as indefinite strings of chunks). Safe on hostile input:
 * declared lengths are checked against the remaining bytes before anything is read, nesting is capped so
 * recursion stays shallow, and every failure is a `PlutusDataError` carrying the byte offset.
 */
import { bytesToHex, concatBytes } from '../../bytes'
import { PlutusDataError, type PlutusData } from './data-types'

/** Deepest nesting of constructors, lists and maps accepted; keeps the recursive decoder far from the stack limit. */
export const MAX_DATA_DEPTH = 1024

const MAJOR_UINT = 0
const MAJOR_NEGINT = 1
const MAJOR_BYTES = 2
const MAJOR_TEXT = 3
const MAJOR_ARRAY = 4
const MAJOR_MAP = 5
const MAJOR_TAG = 6
const INDEFINITE = 31
const BREAK = 0xff
/** plutus-core rejects longer definite byte strings, bignum payloads and chunks ("the 64-byte limit"). */
const MAX_CHUNK = 64

export function decodePlutusData(bytes: Uint8Array): PlutusData {
  const { data, end } = decodePlutusDataItem(bytes, 0)
  if (end !== bytes.length) {
    const extra = bytes.length - end
    throw new PlutusDataError(`${extra} unexpected byte${extra === 1 ? '' : 's'} after the Data item`, end)
  }
  return data
}

/** Decodes the one Data item that starts at `offset` and reports where it ends; what follows is not read. */
export function decodePlutusDataItem(bytes: Uint8Array, offset: number): { data: PlutusData; end: number } {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > bytes.length) {
    throw new PlutusDataError(`offset ${offset} is outside the input of ${bytes.length} bytes`)
  }
  const reader = new Reader(bytes, offset)
  const data = readData(reader, 0)
  return { data, end: reader.pos }
}

function readData(r: Reader, depth: number): PlutusData {
  const start = r.pos
  const initial = r.byte()
  const major = initial >> 5
  const info = initial & 0x1f
  switch (major) {
    case MAJOR_UINT:
      return r.argumentBig(major, info, start)
    case MAJOR_NEGINT:
      return -1n - r.argumentBig(major, info, start)
    case MAJOR_BYTES:
      return readByteString(r, info, start)
    case MAJOR_TEXT:
      throw new PlutusDataError('a text string is not Plutus Data', start)
    case MAJOR_ARRAY:
      return { list: readArrayItems(r, info, start, depth + 1) }
    case MAJOR_MAP:
      return { map: readMapEntries(r, info, start, depth + 1) }
    case MAJOR_TAG:
      return readTagged(r, r.argument(major, info, start), start, depth)
    default:
      throw new PlutusDataError(
        initial === BREAK ? 'unexpected break' : 'a float or simple value is not Plutus Data',
        start
      )
  }
}

function readTagged(r: Reader, tag: number, start: number, depth: number): PlutusData {
  if (tag >= 121 && tag <= 127) return { constr: SMALL_BIGINTS[tag - 121]!, fields: readFields(r, depth + 1) }
  if (tag >= 1280 && tag <= 1400) return { constr: SMALL_BIGINTS[tag - 1280 + 7]!, fields: readFields(r, depth + 1) }
  if (tag === 102) return readExtendedConstr(r, depth + 1)
  if (tag === 2 || tag === 3) {
    const magnitudeStart = r.pos
    const initial = r.byte()
    if (initial >> 5 !== MAJOR_BYTES) {
      throw new PlutusDataError('a bignum tag must be followed by a byte string', magnitudeStart)
    }
    const magnitude = bytesToBigInt(readByteString(r, initial & 0x1f, magnitudeStart))
    return tag === 2 ? magnitude : -1n - magnitude
  }
  throw new PlutusDataError(`CBOR tag ${amount(tag)} is not used by Plutus Data`, start)
}

/** Tag 102 wraps `[index, fields]`; the ledger reads the index as a Word64 and allows either array form. */
function readExtendedConstr(r: Reader, depth: number): PlutusData {
  const start = r.pos
  const initial = r.byte()
  if (initial >> 5 !== MAJOR_ARRAY) {
    throw new PlutusDataError('tag 102 must be followed by an array [index, fields]', start)
  }
  const info = initial & 0x1f
  if (info !== INDEFINITE) {
    const length = r.argument(MAJOR_ARRAY, info, start)
    if (length !== 2) throw new PlutusDataError(`tag 102 array must have 2 items, got ${length}`, start)
  }
  const indexStart = r.pos
  const indexHead = r.byte()
  if (indexHead >> 5 !== MAJOR_UINT) {
    throw new PlutusDataError('tag 102 constructor index must be an unsigned integer', indexStart)
  }
  const constr = r.argumentBig(MAJOR_UINT, indexHead & 0x1f, indexStart)
  const fields = readFields(r, depth)
  if (info === INDEFINITE && !r.consumeBreak()) {
    throw new PlutusDataError('tag 102 array must have 2 items, got more', r.pos)
  }
  return { constr, fields }
}

function readFields(r: Reader, depth: number): PlutusData[] {
  const start = r.pos
  const initial = r.byte()
  if (initial >> 5 !== MAJOR_ARRAY) {
    throw new PlutusDataError(`constructor fields must be an array, got CBOR major type ${initial >> 5}`, start)
  }
  return readArrayItems(r, initial & 0x1f, start, depth)
}

function readArrayItems(r: Reader, info: number, start: number, depth: number): PlutusData[] {
  checkDepth(depth, start)
  const items: PlutusData[] = []
  if (info === INDEFINITE) {
    while (!r.consumeBreak()) items.push(readData(r, depth))
    return items
  }
  const count = r.argument(MAJOR_ARRAY, info, start)
  // Every item takes at least one byte, so a longer declaration is a lie; fail before looping.
  if (count > r.remaining) {
    throw new PlutusDataError(`array declares ${amount(count)} items but only ${r.remaining} bytes remain`, start)
  }
  for (let i = 0; i < count; i++) items.push(readData(r, depth))
  return items
}

function readMapEntries(r: Reader, info: number, start: number, depth: number): Array<[PlutusData, PlutusData]> {
  checkDepth(depth, start)
  const entries: Array<[PlutusData, PlutusData]> = []
  if (info === INDEFINITE) {
    while (!r.consumeBreak()) entries.push([readData(r, depth), readData(r, depth)])
    return entries
  }
  const count = r.argument(MAJOR_MAP, info, start)
  if (count * 2 > r.remaining) {
    throw new PlutusDataError(`map declares ${amount(count)} entries but only ${r.remaining} bytes remain`, start)
  }
  for (let i = 0; i < count; i++) entries.push([readData(r, depth), readData(r, depth)])
  return entries
}

function readByteString(r: Reader, info: number, start: number): Uint8Array {
  if (info !== INDEFINITE) return r.chunk(r.argument(MAJOR_BYTES, info, start), start)
  const chunks: Uint8Array[] = []
  while (!r.consumeBreak()) {
    const chunkStart = r.pos
    const initial = r.byte()
    if (initial >> 5 !== MAJOR_BYTES || (initial & 0x1f) === INDEFINITE) {
      throw new PlutusDataError('a chunk of an indefinite byte string must be a definite byte string', chunkStart)
    }
    const chunk = r.chunk(r.argument(MAJOR_BYTES, initial & 0x1f, chunkStart), chunkStart)
    chunks.push(chunk)
  }
  return concatBytes(chunks)
}

function checkDepth(depth: number, start: number): void {
  if (depth > MAX_DATA_DEPTH) {
    throw new PlutusDataError(`Data is nested deeper than ${MAX_DATA_DEPTH} levels`, start)
  }
}

/** Head arguments above 2^53 are only known approximately (see `Reader.argument`), so say so. */
function amount(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : 'over 2^53'
}

// Constructor indices and most integers in a datum are small: each BigInt(n) allocates, a shared one does not.
const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: 256 }, (_, n) => BigInt(n))

function bytesToBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`)
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
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

  /** The body of a definite byte string whose head, at `start`, declared `length` bytes. */
  chunk(length: number, start: number): Uint8Array {
    if (length > this.remaining) {
      throw new PlutusDataError(`byte string declares ${amount(length)} bytes but only ${this.remaining} remain`, start)
    }
    if (length > MAX_CHUNK) {
      throw new PlutusDataError(`definite byte string of ${length} bytes exceeds the ${MAX_CHUNK}-byte limit`, start)
    }
    const out = this.bytes.slice(this.pos, this.pos + length)
    this.pos += length
    return out
  }
}

function invalidInfo(major: number, info: number, start: number): PlutusDataError {
  const what = info === INDEFINITE ? 'indefinite length' : `reserved additional information ${info}`
  return new PlutusDataError(`${what} is not allowed for CBOR major type ${major}`, start)
}
