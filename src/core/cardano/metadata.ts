/**
 * Transaction metadata from JSON with cardano-api's "no schema" mapping (runtime-api.md §9.1): the one set of
 * rules the builder applies and the UI checks a user's metadata with as it is typed.
 */
import { bytesToHex, hexToBytes, utf8Encode } from '../bytes'
import { MAX_LABEL_DEPTH } from '../depth-limits'
import { JsonDecimal, type JsonValue } from '../json/lossless'

/** A metadata value the ledger cannot hold; `details` names where. */
export class MetadataError extends Error {
  constructor(
    message: string,
    readonly details: Readonly<Record<string, string>>
  ) {
    super(message)
    this.name = 'MetadataError'
  }
}

export interface MetadatumMap {
  readonly map: ReadonlyArray<readonly [Metadatum, Metadatum]>
}

/** Integer, text, bytes, list or map: the five kinds of ledger metadata. */
export type Metadatum = bigint | string | Uint8Array | readonly Metadatum[] | MetadatumMap

export type TransactionMetadata = ReadonlyMap<bigint, Metadatum>

export const MARLOWE_LABEL = 1564n
export const NFT_LABEL = 721n
const MAX_CHUNK_BYTES = 64
const MAX_INT = 2n ** 64n - 1n
const MAX_LABEL = 2n ** 64n - 1n
const HEX = /^(?:[0-9a-f]{2})*$/
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/

function utf8Size(s: string): number {
  return utf8Encode(s)?.length ?? Number.POSITIVE_INFINITY
}

/** Text of at most 64 UTF-8 bytes, the ledger's limit for one metadata string. */
export function metadataText(s: string, path: string): string {
  if (utf8Size(s) > MAX_CHUNK_BYTES) throw new MetadataError(`${path}: text longer than 64 bytes`, { path })
  return s
}

/** Splits text into chunks of at most 64 characters and 64 UTF-8 bytes (Runtime's `T.chunksOf 64`). */
export function chunkText(s: string): string[] {
  const chunks: string[] = []
  let current = ''
  let chars = 0
  for (const ch of s) {
    if (chars === MAX_CHUNK_BYTES || utf8Size(current + ch) > MAX_CHUNK_BYTES) {
      chunks.push(current)
      current = ''
      chars = 0
    }
    current += ch
    chars += 1
  }
  if (current !== '' || chunks.length === 0) chunks.push(current)
  return chunks
}

/** A JSON string as metadata: `0x`-prefixed hex becomes bytes, anything else text. */
function stringMetadatum(s: string, path: string): Metadatum {
  if (s.startsWith('0x') && HEX.test(s.slice(2))) {
    const bytes = hexToBytes(s.slice(2))
    if (bytes.length > MAX_CHUNK_BYTES) throw new MetadataError(`${path}: bytes longer than 64`, { path })
    return bytes
  }
  return metadataText(s, path)
}

function keyMetadatum(key: string, path: string): Metadatum {
  if (INTEGER.test(key)) return integer(BigInt(key), path)
  return stringMetadatum(key, path)
}

function integer(n: bigint, path: string): bigint {
  if (n > MAX_INT || n < -MAX_INT) throw new MetadataError(`${path}: integer outside ±(2^64 - 1)`, { path })
  return n
}

/** Metadata order of keys, as cardano-api sorts a no-schema map: integers, then bytes, then text. */
function compareKeys(a: Metadatum, b: Metadatum): number {
  const rank = (m: Metadatum): number => (typeof m === 'bigint' ? 0 : m instanceof Uint8Array ? 1 : 2)
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra - rb
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareHex(bytesToHex(a), bytesToHex(b))
  return compareCodePoints(a as string, b as string)
}

/** Byte order of two hex strings (string order of lowercase hex is byte order). */
export function compareHex(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export function compareCodePoints(a: string, b: string): number {
  const ca = [...a]
  const cb = [...b]
  for (let i = 0; i < Math.min(ca.length, cb.length); i += 1) {
    const d = ca[i]!.codePointAt(0)! - cb[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return ca.length - cb.length
}

/**
 * cardano-api's `TxMetadataJsonNoSchema` conversion; errors name the path. Nesting is held to
 * `MAX_LABEL_DEPTH`, so that every answer echoing the value still reads back.
 */
export function metadatumFromJson(v: JsonValue, path: string): Metadatum {
  return fromJson(v, path, 0)
}

/** `v` at `depth`: inside that many arrays and objects. */
function fromJson(v: JsonValue, path: string, depth: number): Metadatum {
  if (v === null) throw new MetadataError(`${path}: null is not allowed in metadata`, { path })
  if (typeof v === 'boolean') throw new MetadataError(`${path}: booleans are not allowed in metadata`, { path })
  if (typeof v === 'bigint') return integer(v, path)
  if (v instanceof JsonDecimal) throw new MetadataError(`${path}: metadata numbers must be integers`, { path })
  if (typeof v === 'string') return stringMetadatum(v, path)
  if (depth >= MAX_LABEL_DEPTH) {
    throw new MetadataError(`${path}: metadata nests deeper than ${MAX_LABEL_DEPTH} levels`, { path })
  }
  if (Array.isArray(v)) return v.map((item, i) => fromJson(item, `${path}[${i}]`, depth + 1))
  const entries = Object.keys(v).map(
    (k) => [keyMetadatum(k, `${path}.${k}`), fromJson(v[k] as JsonValue, `${path}.${k}`, depth + 1)] as const
  )
  return { map: entries.sort((a, b) => compareKeys(a[0], b[0])) }
}

/** User metadata: `{ "<label>": JSON }` with uint64 labels. */
export function transactionMetadataFromJson(json: Readonly<Record<string, JsonValue>>): Map<bigint, Metadatum> {
  const out = new Map<bigint, Metadatum>()
  for (const key of Object.keys(json)) {
    if (!/^(?:0|[1-9][0-9]*)$/.test(key) || BigInt(key) > MAX_LABEL) {
      throw new MetadataError(`Invalid metadata value: label "${key}" is not a 64-bit unsigned integer`, { label: key })
    }
    out.set(BigInt(key), metadatumFromJson(json[key] as JsonValue, `metadata.${key}`))
  }
  return out
}
