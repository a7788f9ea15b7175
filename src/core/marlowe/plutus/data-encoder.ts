/**
 * Plutus Data → CBOR, byte-identical to plutus-core's `Data` Serialise instance (marlowe-core.md §2.5).
 * Everything is written into one growable buffer; no per-node arrays are allocated.
 */
import { hexToBytes } from '../../bytes'
import { PlutusDataError, type PlutusData } from './data-types'
import { MAJOR_ARRAY, MAJOR_BYTES, MAJOR_MAP, MAJOR_NEGINT, MAJOR_TAG, MAJOR_UINT } from '../../cardano/cbor'

const UINT64_LIMIT = 1n << 64n
const UINT32_LIMIT = 0x1_0000_0000n
/** plutus-core splits byte strings longer than this into an indefinite string of chunks of this size. */
const BYTES_CHUNK = 64

const BYTES_INDEFINITE = 0x5f
const ARRAY_INDEFINITE = 0x9f
const ARRAY_EMPTY = 0x80
const BREAK = 0xff
const TAG_POSITIVE_BIGNUM = 2
const TAG_NEGATIVE_BIGNUM = 3
const TAG_CONSTR_EXTENDED = 102

export function encodePlutusData(data: PlutusData): Uint8Array {
  const writer = new ByteWriter()
  writeData(writer, data)
  return writer.result()
}

function writeData(w: ByteWriter, d: PlutusData): void {
  if (typeof d === 'bigint') writeInteger(w, d)
  else if (d instanceof Uint8Array) writeBytes(w, d)
  else if ('constr' in d) writeConstr(w, d.constr, d.fields)
  else if ('list' in d) writeList(w, d.list)
  else {
    w.head(MAJOR_MAP, d.map.length)
    for (const [k, v] of d.map) {
      writeData(w, k)
      writeData(w, v)
    }
  }
}

function writeConstr(w: ByteWriter, index: bigint, fields: readonly PlutusData[]): void {
  if (index >= 0n && index < 7n) w.head(MAJOR_TAG, 121 + Number(index))
  else if (index >= 7n && index < 128n) w.head(MAJOR_TAG, 1280 + Number(index) - 7)
  else if (index >= 0n && index < UINT64_LIMIT) {
    w.head(MAJOR_TAG, TAG_CONSTR_EXTENDED)
    w.head(MAJOR_ARRAY, 2)
    w.headBig(MAJOR_UINT, index)
  } else {
    // The ledger decodes the extended constructor index as a Word64; anything else could never be read back.
    throw new PlutusDataError(`constructor index ${index} is outside 0..2^64-1`)
  }
  writeList(w, fields)
}

/** Haskell's list encoding: empty lists are definite (0x80), non-empty ones indefinite. */
function writeList(w: ByteWriter, items: readonly PlutusData[]): void {
  if (items.length === 0) {
    w.byte(ARRAY_EMPTY)
    return
  }
  w.byte(ARRAY_INDEFINITE)
  for (const item of items) writeData(w, item)
  w.byte(BREAK)
}

function writeInteger(w: ByteWriter, n: bigint): void {
  if (n >= 0n) {
    if (n < UINT64_LIMIT) w.headBig(MAJOR_UINT, n)
    else writeBignum(w, TAG_POSITIVE_BIGNUM, n)
  } else {
    const magnitude = -1n - n
    if (magnitude < UINT64_LIMIT) w.headBig(MAJOR_NEGINT, magnitude)
    else writeBignum(w, TAG_NEGATIVE_BIGNUM, magnitude)
  }
}

/** plutus-core writes the magnitude with the byte string rule too, so it is chunked above 64 bytes. */
function writeBignum(w: ByteWriter, tag: number, magnitude: bigint): void {
  const digits = magnitude.toString(16)
  w.head(MAJOR_TAG, tag)
  writeBytes(w, hexToBytes(digits.length % 2 === 0 ? digits : `0${digits}`))
}

function writeBytes(w: ByteWriter, b: Uint8Array): void {
  if (b.length <= BYTES_CHUNK) {
    w.head(MAJOR_BYTES, b.length)
    w.bytes(b)
    return
  }
  w.byte(BYTES_INDEFINITE)
  for (let at = 0; at < b.length; at += BYTES_CHUNK) {
    const chunk = b.subarray(at, at + BYTES_CHUNK)
    w.head(MAJOR_BYTES, chunk.length)
    w.bytes(chunk)
  }
  w.byte(BREAK)
}

class ByteWriter {
  private buffer = new Uint8Array(256)
  private length = 0

  byte(b: number): void {
    this.reserve(1)
    this.buffer[this.length++] = b
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length)
    this.buffer.set(b, this.length)
    this.length += b.length
  }

  /** A CBOR head in its shortest form; `n` is below 2^32 (array and byte lengths always are). */
  head(major: number, n: number): void {
    this.reserve(5)
    const buf = this.buffer
    let at = this.length
    const m = major << 5
    if (n < 24) buf[at++] = m | n
    else if (n < 0x100) {
      buf[at++] = m | 24
      buf[at++] = n
    } else if (n < 0x10000) {
      buf[at++] = m | 25
      buf[at++] = n >>> 8
      buf[at++] = n & 0xff
    } else {
      buf[at++] = m | 26
      at = writeUint32(buf, at, n)
    }
    this.length = at
  }

  /** A CBOR head for an argument in 0..2^64-1. */
  headBig(major: number, n: bigint): void {
    if (n < UINT32_LIMIT) {
      this.head(major, Number(n))
      return
    }
    this.reserve(9)
    const buf = this.buffer
    buf[this.length] = (major << 5) | 27
    writeUint32(buf, this.length + 1, Number(n >> 32n))
    writeUint32(buf, this.length + 5, Number(n & 0xffff_ffffn))
    this.length += 9
  }

  result(): Uint8Array {
    return this.buffer.slice(0, this.length)
  }

  private reserve(extra: number): void {
    const needed = this.length + extra
    if (needed <= this.buffer.length) return
    let size = this.buffer.length * 2
    while (size < needed) size *= 2
    const grown = new Uint8Array(size)
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
  }
}

function writeUint32(buf: Uint8Array, at: number, n: number): number {
  buf[at] = n >>> 24
  buf[at + 1] = (n >>> 16) & 0xff
  buf[at + 2] = (n >>> 8) & 0xff
  buf[at + 3] = n & 0xff
  return at + 4
}
