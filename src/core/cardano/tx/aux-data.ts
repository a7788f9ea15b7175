/**
 * Auxiliary data in its three forms — Shelley's bare metadata map, Allegra/Mary's `[metadata, scripts]` and
 * Alonzo's tag-259 map — with metadata as a lossless detailed-schema tree.
 */
import { bytesToHex, utf8Length } from '../../bytes'
import type { CborItem } from '../cbor'
import { blake2b256Hex } from './hash'
import type { TxReader } from './reader'
import { readNativeScript, readPlutusScript } from './script'
import type { DecodedAuxData, DecodedScript, MetadataEntry, Metadatum, ScriptLanguage } from './types'
import { MAJOR_ARRAY, MAJOR_MAP } from '../cbor'

const TAG_ALONZO_AUX_DATA = 259
/** The ledger's limit on metadata text and byte strings. */
const MAX_METADATA_STRING = 64
const PLUTUS_KEYS: ReadonlyMap<bigint, ScriptLanguage> = new Map([
  [2n, 'PlutusV1'],
  [3n, 'PlutusV2'],
  [4n, 'PlutusV3']
])

export function readAuxData(r: TxReader): DecodedAuxData {
  const start = r.pos
  const counter = { oversized: 0 }
  let metadata: MetadataEntry[] = []
  const scripts: DecodedScript[] = []
  let format: DecodedAuxData['format']
  const major = r.peekMajor()
  if (major === MAJOR_MAP) {
    format = 'shelley'
    metadata = readMetadata(r, counter)
  } else if (major === MAJOR_ARRAY) {
    format = 'shelley-ma'
    const count = r.fixedArray('auxiliary data', 2)
    metadata = readMetadata(r, counter)
    r.arrayItems('auxiliary scripts', () => scripts.push(readNativeScript(r, 'auxiliary native script')))
    r.closeArray(count, 'auxiliary data')
  } else {
    format = 'alonzo'
    if (r.tag('auxiliary data') !== TAG_ALONZO_AUX_DATA) r.fail('auxiliary data: expected tag 259', start)
    r.mapEntries('auxiliary data', (key) => {
      const field = key.kind === 'int' ? key.value : -1n
      const language = PLUTUS_KEYS.get(field)
      if (field === 0n) metadata = readMetadata(r, counter)
      else if (field === 1n)
        r.arrayItems('auxiliary native scripts', () => scripts.push(readNativeScript(r, 'native script')))
      else if (language !== undefined) {
        r.arrayItems(`auxiliary ${language} scripts`, () => scripts.push(readPlutusScript(r, language, 'script')))
      } else r.fail('auxiliary data: unknown field', key.start)
    })
  }
  const bytes = r.source.subarray(start, r.pos)
  return { format, bytes, hash: blake2b256Hex(bytes), metadata, scripts, oversizedStrings: counter.oversized }
}

function readMetadata(r: TxReader, counter: { oversized: number }): MetadataEntry[] {
  const entries: MetadataEntry[] = []
  r.mapEntries('metadata', (key) => {
    if (key.kind !== 'int' || key.value < 0n) r.fail('metadata labels must be unsigned integers', key.start)
    entries.push({ label: key.value, value: toMetadatum(r, r.item(), counter) })
  })
  return entries
}

function toMetadatum(r: TxReader, item: CborItem, counter: { oversized: number }): Metadatum {
  switch (item.kind) {
    case 'int':
      return { int: item.value }
    case 'bytes':
      if (item.value.length > MAX_METADATA_STRING) counter.oversized += 1
      return { bytes: bytesToHex(item.value) }
    case 'text':
      if (utf8Length(item.value) > MAX_METADATA_STRING) counter.oversized += 1
      return { string: item.value }
    case 'array':
      return { list: item.items.map((x) => toMetadatum(r, x, counter)) }
    case 'map':
      return { map: item.entries.map(([k, v]) => ({ k: toMetadatum(r, k, counter), v: toMetadatum(r, v, counter) })) }
    case 'tag':
      return r.fail(`metadata may not contain tag ${item.tag}`, item.start)
    default:
      return r.fail(`metadata may not contain a ${item.kind === 'float' ? 'float' : 'simple value'}`, item.start)
  }
}
