/**
 * CBOR → Plutus Data tree, with the rules of data-reader.ts. Safe on hostile input: every failure is a
 * `PlutusDataError` carrying the byte offset.
 */
import {
  INDEFINITE,
  Reader,
  SMALL_BIGINTS,
  TAG_EXTENDED_CONSTR,
  TAG_NEGATIVE_BIGNUM,
  TAG_POSITIVE_BIGNUM,
  checkDepth,
  checkOffset,
  compactConstrIndex,
  notData,
  unusedTag
} from './data-reader'
import { MAJOR_ARRAY, MAJOR_BYTES, MAJOR_MAP, MAJOR_NEGINT, MAJOR_TAG, MAJOR_UINT } from '../../cardano/cbor'
import { PlutusDataError, type PlutusData } from './data-types'

export { MAX_DATA_DEPTH } from './data-reader'

export function decodePlutusData(bytes: Uint8Array): PlutusData {
  const { data, end } = decodePlutusDataItem(bytes, 0)
  if (end !== bytes.length) throw trailingBytes(bytes.length, end)
  return data
}

export function trailingBytes(length: number, end: number): PlutusDataError {
  const extra = length - end
  return new PlutusDataError(`${extra} unexpected byte${extra === 1 ? '' : 's'} after the Data item`, end)
}

/** Decodes the one Data item that starts at `offset` and reports where it ends; what follows is not read. */
export function decodePlutusDataItem(bytes: Uint8Array, offset: number): { data: PlutusData; end: number } {
  checkOffset(bytes, offset)
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
      return r.byteString(info, start, true)
    case MAJOR_ARRAY:
      return { list: readItems(r, major, info, start, depth + 1) }
    case MAJOR_MAP:
      return { map: readMapEntries(r, info, start, depth + 1) }
    case MAJOR_TAG:
      return readTagged(r, r.argument(major, info, start), start, depth)
    default:
      throw notData(initial, start)
  }
}

function readTagged(r: Reader, tag: number, start: number, depth: number): PlutusData {
  const compact = compactConstrIndex(tag)
  if (compact >= 0) return { constr: SMALL_BIGINTS[compact]!, fields: readFields(r, depth + 1) }
  if (tag === TAG_EXTENDED_CONSTR) {
    // Tag 102 wraps `[index, fields]`; the ledger reads the index as a Word64 and allows either array form.
    const { index, indefinite } = r.extendedConstrIndex()
    const fields = readFields(r, depth + 1)
    r.closeExtended(indefinite)
    return { constr: index, fields }
  }
  if (tag === TAG_POSITIVE_BIGNUM || tag === TAG_NEGATIVE_BIGNUM) return r.bignum(tag)
  throw unusedTag(tag, start)
}

function readFields(r: Reader, depth: number): PlutusData[] {
  const count = r.fieldsHead(depth)
  const items: PlutusData[] = []
  if (count < 0) while (!r.consumeBreak()) items.push(readData(r, depth))
  else for (let i = 0; i < count; i++) items.push(readData(r, depth))
  return items
}

function readItems(r: Reader, major: number, info: number, start: number, depth: number): PlutusData[] {
  checkDepth(depth, start)
  const items: PlutusData[] = []
  if (info === INDEFINITE) {
    while (!r.consumeBreak()) items.push(readData(r, depth))
    return items
  }
  const count = r.count(major, info, start)
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
  const count = r.count(MAJOR_MAP, info, start)
  for (let i = 0; i < count; i++) entries.push([readData(r, depth), readData(r, depth)])
  return entries
}
