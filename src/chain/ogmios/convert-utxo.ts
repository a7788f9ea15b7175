/**
 * UTxOs between Ogmios v6 JSON and the plain `Utxo` of `ChainProvider`, both ways: from `queryLedgerState/utxo`
 * answers, and to the `additionalUtxo` of `evaluateTransaction`.
 *
 * Ogmios' shapes: a value is `{ ada: { lovelace }, <policy id>: { <asset name hex>: quantity } }`; an output has
 * `datumHash` (a datum-hash output) or `datum` (inline datum CBOR), never both; a script is
 * `{ language: 'native', json, cbor? }` or `{ language: 'plutus:v1'|'plutus:v2'|'plutus:v3', cbor }`, where a
 * Plutus `cbor` is the CBOR byte string of the flat program — the same bytes as our `ScriptRef.bytes`.
 */
import type {
  Native,
  Plutus,
  TransactionOutputReference,
  Utxo as OgmiosUtxo,
  Value as OgmiosValue
} from '@cardano-ogmios/schema'
import { bytesToHex, hexToBytes } from '../../core/bytes'
import type { Value } from '../../core/cardano/value'
import type { JsonObject, JsonValue } from '../../core/json/lossless'
import type { ScriptLanguage, ScriptRef, TxOutRef, Utxo } from '../provider'
import { array, Fields, hex, natural, object, ShapeError } from '../json-shape'
import { nativeScriptCbor } from './native-script'

type OgmiosOutput = OgmiosUtxo[number]

const POLICY_ID_BYTES = 28
const MAX_ASSET_NAME_BYTES = 32
const LANGUAGES = ['native', 'plutus:v1', 'plutus:v2', 'plutus:v3'] as const
type OgmiosLanguage = (typeof LANGUAGES)[number]

const TO_LANGUAGE: Readonly<Record<OgmiosLanguage, ScriptLanguage>> = {
  native: 'Native',
  'plutus:v1': 'PlutusV1',
  'plutus:v2': 'PlutusV2',
  'plutus:v3': 'PlutusV3'
}
const FROM_LANGUAGE: Readonly<Record<ScriptLanguage, OgmiosLanguage>> = {
  Native: 'native',
  PlutusV1: 'plutus:v1',
  PlutusV2: 'plutus:v2',
  PlutusV3: 'plutus:v3'
}

export function toTxOutRef(v: JsonValue, path: string): TxOutRef {
  const ref = Fields.of<TransactionOutputReference>(v, path)
  return {
    txId: ref.fields<TransactionOutputReference['transaction']>('transaction').hex('id', 32),
    index: ref.smallNatural('index')
  }
}

export function fromTxOutRef(ref: TxOutRef): JsonObject {
  return { transaction: { id: ref.txId }, index: BigInt(ref.index) }
}

export function toValue(v: JsonValue, path: string): Value {
  const value = Fields.of<OgmiosValue>(v, path)
  const lovelace = value.fields<OgmiosValue['ada']>('ada').natural('lovelace')
  const assets: Record<string, Record<string, bigint>> = {}
  for (const [policy, names] of Object.entries(value.json)) {
    if (policy === 'ada') continue
    const policyPath = `${path}.${policy}`
    hex(policy, `${policyPath} (policy id)`, POLICY_ID_BYTES)
    const quantities: Record<string, bigint> = {}
    for (const [name, quantity] of Object.entries(object(names, policyPath))) {
      const namePath = `${policyPath}.${name}`
      if (hex(name, `${namePath} (asset name)`).length > MAX_ASSET_NAME_BYTES * 2) {
        throw new ShapeError(namePath, `an asset name of at most ${MAX_ASSET_NAME_BYTES} bytes`)
      }
      quantities[name.toLowerCase()] = natural(quantity, namePath)
    }
    assets[policy.toLowerCase()] = quantities
  }
  return { lovelace, assets }
}

export function fromValue(value: Value): JsonObject {
  const out: JsonObject = { ada: { lovelace: value.lovelace } }
  for (const [policy, names] of Object.entries(value.assets)) out[policy] = { ...names }
  return out
}

function toScriptRef(v: JsonValue, path: string): ScriptRef {
  const script = Fields.of<Native | Plutus>(v, path)
  const language = script.oneOf('language', LANGUAGES)
  if (language !== 'native') return { language: TO_LANGUAGE[language], bytes: hexToBytes(script.hex('cbor')) }
  const cbor = script.opt('cbor')
  const bytes =
    cbor === undefined
      ? nativeScriptCbor(Fields.of<Native>(v, path).get('json'), `${path}.json`)
      : hexToBytes(hex(cbor, script.at('cbor')))
  return { language: 'Native', bytes }
}

/** One entry of a `queryLedgerState/utxo` answer. */
export function toUtxo(v: JsonValue, path: string): Utxo {
  const output = Fields.of<OgmiosOutput>(v, path)
  const address = output.string('address')
  if (address === '') throw new ShapeError(output.at('address'), 'an address')
  const datumHash = output.opt('datumHash')
  const datum = output.opt('datum')
  const script = output.opt('script')
  return {
    ref: {
      txId: output.fields<OgmiosOutput['transaction']>('transaction').hex('id', 32),
      index: output.smallNatural('index')
    },
    address,
    value: toValue(output.get('value'), output.at('value')),
    ...(datumHash === undefined ? {} : { datumHash: hex(datumHash, output.at('datumHash'), 32) }),
    ...(datum === undefined ? {} : { datum: hexToBytes(hex(datum, output.at('datum'))) }),
    ...(script === undefined ? {} : { scriptRef: toScriptRef(script, output.at('script')) })
  }
}

export function toUtxos(v: JsonValue, path: string): Utxo[] {
  return array(v, path).map((entry, i) => toUtxo(entry, `${path}[${i}]`))
}

/**
 * An output for `evaluateTransaction`'s `additionalUtxo`. A datum-hash output is sent by its hash only (its
 * `datum`, if any, is just our resolution of it); a native script goes as CBOR, which Ogmios accepts in place
 * of the JSON notation.
 */
export function fromUtxo(utxo: Utxo): JsonObject {
  const out: JsonObject = {
    transaction: { id: utxo.ref.txId },
    index: BigInt(utxo.ref.index),
    address: utxo.address,
    value: fromValue(utxo.value)
  }
  if (utxo.datumHash !== undefined) out['datumHash'] = utxo.datumHash
  else if (utxo.datum !== undefined) out['datum'] = bytesToHex(utxo.datum)
  if (utxo.scriptRef !== undefined) {
    out['script'] = { language: FROM_LANGUAGE[utxo.scriptRef.language], cbor: bytesToHex(utxo.scriptRef.bytes) }
  }
  return out
}
