/** Plutus Data as cardano-cli's detailed-schema JSON: `{constructor, fields}`, `{int}`, `{bytes}`, `{list}`, `{map}`. */
import { bytesToHex } from '../../bytes'
import type { JsonValue } from '../../json/lossless'
import type { PlutusData } from '../../marlowe/plutus/data'

export function plutusDataJson(d: PlutusData): JsonValue {
  if (typeof d === 'bigint') return { int: d }
  if (d instanceof Uint8Array) return { bytes: bytesToHex(d) }
  if ('constr' in d) return { constructor: d.constr, fields: d.fields.map(plutusDataJson) }
  if ('list' in d) return { list: d.list.map(plutusDataJson) }
  return { map: d.map.map(([k, v]) => ({ k: plutusDataJson(k), v: plutusDataJson(v) })) }
}
