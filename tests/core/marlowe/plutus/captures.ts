/**
 * Loads the semantics validator captures (`semantics-captures/*.benchmark`, see the vectors README): raw CBOR
 * of `Constr 0 [datum, redeemer, ScriptContext V2, I cpu, I mem]`.
 *
 *   for (const name of captureNames()) {
 *     const { datum, inputs, validRange, txInfoData } = loadCapture(name)
 *     // run datum.contract over validRange (closed/open bounds per marlowe-core.md §4) with inputs, then look
 *     // for the encoded output MarloweData under its datum hash in txInfoData
 *   }
 *
 * Byte fields are the original slices of the file, so they can be compared with re-encoded bytes.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { hex } from '@scure/base'
import {
  decodePlutusData,
  decodePlutusDataItem,
  isListData,
  type PlutusData
} from '../../../../src/core/marlowe/plutus/data'
import {
  contractFromPlutusData,
  decodeMarloweData,
  decodeRedeemer
} from '../../../../src/core/marlowe/plutus/marlowe-data'
import type { Contract, Input, MarloweData } from '../../../../src/core/marlowe/types'
import { haveVectors, vectorsDir } from '../../../support/vectors'

export const capturesDir = join(vectorsDir, 'semantics-captures')

export interface Capture {
  readonly name: string
  /** The whole file. */
  readonly bytes: Uint8Array
  readonly datumBytes: Uint8Array
  readonly redeemerBytes: Uint8Array
  /** The input datum of the spent Marlowe UTxO. */
  readonly datum: MarloweData
  /** The redeemer; merkleized continuations are resolved from `txInfoData`. */
  readonly inputs: Input[]
  /** TxInfo field 7, the ledger's `POSIXTimeRange` as Plutus Data. */
  readonly validRange: PlutusData
  /** TxInfo field 10: datum hash (hex) → the datum's original CBOR bytes, in map order. */
  readonly txInfoData: Map<string, Uint8Array>
  /** TxInfo field 2, the transaction outputs (V2 `TxOut`s) as Plutus Data. */
  readonly outputs: readonly PlutusData[]
}

/** Capture file names, sorted; empty when the vectors are absent. */
export function captureNames(): string[] {
  return haveVectors
    ? readdirSync(capturesDir)
        .filter((f) => f.endsWith('.benchmark'))
        .sort()
    : []
}

const loaded = new Map<string, Capture>()

/** Parses a capture once per test file (module instance); later calls return the same object. */
export function loadCapture(name: string): Capture {
  const cached = loaded.get(name)
  if (cached !== undefined) return cached
  const capture = parseCapture(name)
  loaded.set(name, capture)
  return capture
}

function parseCapture(name: string): Capture {
  const bytes = new Uint8Array(readFileSync(join(capturesDir, name)))
  const [datum, redeemer, context] = childSpans(bytes, 0)
  const [txInfo] = childSpans(bytes, need(context).start)
  const txInfoFields = childSpans(bytes, need(txInfo).start)
  const dataEntries = childSpans(bytes, need(txInfoFields[10]).start)
  const txInfoData = new Map<string, Uint8Array>()
  for (let i = 0; i < dataEntries.length; i += 2) {
    const key = decodeSpan(bytes, need(dataEntries[i]))
    if (!(key instanceof Uint8Array)) throw new Error(`${name}: txInfoData key ${i / 2} is not a byte string`)
    txInfoData.set(hex.encode(key), slice(bytes, need(dataEntries[i + 1])))
  }
  const outputs = decodeSpan(bytes, need(txInfoFields[2]))
  if (!isListData(outputs)) throw new Error(`${name}: TxInfo outputs is not a list`)
  const datumBytes = slice(bytes, need(datum))
  const redeemerBytes = slice(bytes, need(redeemer))
  return {
    name,
    bytes,
    datumBytes,
    redeemerBytes,
    datum: decodeMarloweData(datumBytes),
    inputs: decodeRedeemer(redeemerBytes, (hash) => continuationFrom(txInfoData.get(hash))),
    validRange: decodeSpan(bytes, need(txInfoFields[7])),
    txInfoData,
    outputs: outputs.list
  }
}

function continuationFrom(bytes: Uint8Array | undefined): Contract | undefined {
  return bytes === undefined ? undefined : contractFromPlutusData(decodePlutusData(bytes))
}

export interface Span {
  readonly start: number
  readonly end: number
}

/**
 * The byte spans of the children of the constructor, list or map item at `offset` (map keys and values
 * alternate). Only the forms this corpus uses are read: tags 121–127/1280–1400 and plain arrays and maps.
 */
export function childSpans(bytes: Uint8Array, offset: number): Span[] {
  let head = readHead(bytes, offset)
  if (head.major === 6) head = readHead(bytes, head.next)
  if (head.major !== 4 && head.major !== 5) throw new Error(`no constructor, list or map at byte ${offset}`)
  const spans: Span[] = []
  const count = head.length === undefined ? Infinity : head.length * (head.major === 5 ? 2 : 1)
  let at = head.next
  while (spans.length < count && !(head.length === undefined && bytes[at] === 0xff)) {
    const { end } = decodePlutusDataItem(bytes, at)
    spans.push({ start: at, end })
    at = end
  }
  return spans
}

function readHead(bytes: Uint8Array, at: number): { major: number; length: number | undefined; next: number } {
  const initial = bytes[at] ?? 0xff
  const info = initial & 0x1f
  const size = info < 24 || info === 31 ? 0 : 1 << (info - 24)
  let value = size === 0 ? info : 0
  for (let i = 1; i <= size; i++) value = value * 256 + (bytes[at + i] ?? 0)
  return { major: initial >> 5, length: info === 31 ? undefined : value, next: at + 1 + size }
}

function decodeSpan(bytes: Uint8Array, span: Span): PlutusData {
  return decodePlutusDataItem(bytes, span.start).data
}

function slice(bytes: Uint8Array, span: Span): Uint8Array {
  return bytes.slice(span.start, span.end)
}

function need(span: Span | undefined): Span {
  if (span === undefined) throw new Error('capture is shorter than the ScriptContext layout expects')
  return span
}
