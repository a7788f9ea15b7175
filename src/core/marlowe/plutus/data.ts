/**
 * Plutus Data: the untyped tree every datum and redeemer is made of, and its CBOR form.
 *
 * The encoder reproduces Haskell's plutus-core `Data` serialisation byte for byte (datum and merkle hashes
 * depend on it); the decoder accepts any valid CBOR encoding of Data and rejects everything else with a
 * `PlutusDataError` that names the byte offset.
 */
import { bytesEqual } from '../../bytes'
import type { PlutusData } from './data-types'

export type { ConstrData, ListData, MapData, PlutusData } from './data-types'
export { PlutusDataError, constrData, isConstrData, isListData, isMapData } from './data-types'
export { encodePlutusData } from './data-encoder'
export { decodePlutusData, decodePlutusDataItem, MAX_DATA_DEPTH } from './data-decoder'
export { skipPlutusDataItem } from './data-reader'

export function plutusDataEquals(a: PlutusData, b: PlutusData): boolean {
  if (typeof a === 'bigint') return typeof b === 'bigint' && a === b
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b)
  if (typeof b === 'bigint' || b instanceof Uint8Array) return false
  if ('constr' in a) return 'constr' in b && a.constr === b.constr && listEquals(a.fields, b.fields)
  if ('list' in a) return 'list' in b && listEquals(a.list, b.list)
  if (!('map' in b) || a.map.length !== b.map.length) return false
  return a.map.every(([k, v], i) => {
    const other = b.map[i]
    return other !== undefined && plutusDataEquals(k, other[0]) && plutusDataEquals(v, other[1])
  })
}

function listEquals(a: readonly PlutusData[], b: readonly PlutusData[]): boolean {
  if (a.length !== b.length) return false
  return a.every((x, i) => {
    const y = b[i]
    return y !== undefined && plutusDataEquals(x, y)
  })
}
