/**
 * The sandbox keeps every UTxO as the bytes of its output (as the transaction that made it wrote them) beside
 * their decoding by our own transaction decoder: the evaluator and the state file take the bytes, queries the
 * decoding. Outputs the sandbox makes itself (genesis, additional UTxOs for an evaluation) are written here in
 * the Babbage map form.
 */
import { bytesToHex, concatBytes, hexToBytes } from '../../core/bytes'
import {
  compareCanonical,
  encodeByteString,
  encodeHead,
  encodeInt,
  MAJOR_ARRAY,
  MAJOR_MAP,
  MAJOR_TAG
} from '../../core/cardano/cbor'
import {
  LANGUAGE_TAG,
  parseAddressText,
  type DecodedOutput,
  type DecodedValue,
  type TxIn,
  readOutput,
  TxReader
} from '../../core/cardano/tx'
import type { Value } from '../../core/cardano/value'
import type { ScriptRef, TxOutRef, Utxo } from '../provider'

const TAG_EMBEDDED_CBOR = 24

/** `[transaction id, index]`, as the ledger (and the uplc evaluator) encode an input. */
export function encodeTxIn(ref: TxIn | TxOutRef): Uint8Array {
  return concatBytes([encodeHead(MAJOR_ARRAY, 2), encodeByteString(hexToBytes(ref.txId)), encodeInt(BigInt(ref.index))])
}

/** Reads stored input bytes back; throws on anything else. */
export function decodeTxIn(bytes: Uint8Array): TxIn {
  const r = new TxReader(bytes)
  const ref = r.txIn('input')
  r.expectEnd('the input')
  return ref
}

/** Reads stored output bytes; throws on anything that is not exactly one output. */
export function decodeOutput(bytes: Uint8Array): DecodedOutput {
  const r = new TxReader(bytes)
  const output = readOutput(r, 'output')
  r.expectEnd('the output')
  return output
}

/**
 * The address (bytes, hex) of output bytes known to decode (a checksummed snapshot's, written from decoded
 * outputs), read without decoding the rest of the output.
 */
export function outputAddressHex(outputBytes: Uint8Array): string {
  const r = new TxReader(outputBytes)
  if (r.peekMajor() === MAJOR_ARRAY) {
    r.arrayHeader('output')
    return bytesToHex(r.bytes('output address'))
  }
  let address: string | undefined
  r.mapEntries('output', (key) => {
    if (key.kind === 'int' && key.value === 0n) address = bytesToHex(r.bytes('output address'))
    else r.skip()
  })
  if (address === undefined) throw new Error('the output has no address')
  return address
}

/** How many bytes the value of an output takes (the ledger bounds it by `maxValueSize`). */
export function valueSize(outputBytes: Uint8Array): number {
  const r = new TxReader(outputBytes)
  if (r.peekMajor() === MAJOR_ARRAY) {
    r.arrayHeader('output')
    r.skip()
    const start = r.pos
    r.skip()
    return r.pos - start
  }
  let size = 0
  r.mapEntries('output', (key) => {
    const start = r.pos
    r.skip()
    if (key.kind === 'int' && key.value === 1n) size = r.pos - start
  })
  return size
}

function encodeMap(entries: readonly (readonly [Uint8Array, Uint8Array])[]): Uint8Array {
  const sorted = [...entries].sort(([a], [b]) => compareCanonical(a, b))
  return concatBytes([encodeHead(MAJOR_MAP, sorted.length), ...sorted.flat()])
}

function encodeValue(value: Value): Uint8Array {
  const policies = Object.entries(value.assets)
  if (policies.length === 0) return encodeInt(value.lovelace)
  const assets = encodeMap(
    policies.map(([policy, names]) => [
      encodeByteString(hexToBytes(policy)),
      encodeMap(
        Object.entries(names).map(([name, quantity]) => [encodeByteString(hexToBytes(name)), encodeInt(quantity)])
      )
    ])
  )
  return concatBytes([encodeHead(MAJOR_ARRAY, 2), encodeInt(value.lovelace), assets])
}

function embedded(bytes: Uint8Array): Uint8Array {
  return concatBytes([encodeHead(MAJOR_TAG, TAG_EMBEDDED_CBOR), encodeByteString(bytes)])
}

function encodeScriptRef(script: ScriptRef): Uint8Array {
  const tag = encodeInt(BigInt(LANGUAGE_TAG[script.language]))
  // A native script is CBOR in place; a Plutus script is a byte string holding the serialised script.
  const body = script.language === 'Native' ? script.bytes : encodeByteString(script.bytes)
  return embedded(concatBytes([encodeHead(MAJOR_ARRAY, 2), tag, body]))
}

/**
 * A `Utxo`'s output in the map form; `datumHash` makes a datum-hash output, `datum` alone an inline one. Throws
 * `AddressError` for an address that is not one.
 */
export function encodeOutput(utxo: Omit<Utxo, 'ref'>): Uint8Array {
  const fields: [Uint8Array, Uint8Array][] = [
    [encodeInt(0n), encodeByteString(hexToBytes(parseAddressText(utxo.address).hex))],
    [encodeInt(1n), encodeValue(utxo.value)]
  ]
  if (utxo.datumHash !== undefined) {
    const option = [encodeHead(MAJOR_ARRAY, 2), encodeInt(0n), encodeByteString(hexToBytes(utxo.datumHash))]
    fields.push([encodeInt(2n), concatBytes(option)])
  } else if (utxo.datum !== undefined) {
    fields.push([encodeInt(2n), concatBytes([encodeHead(MAJOR_ARRAY, 2), encodeInt(1n), embedded(utxo.datum)])])
  }
  if (utxo.scriptRef !== undefined) fields.push([encodeInt(3n), encodeScriptRef(utxo.scriptRef)])
  return encodeMap(fields)
}

export function toValue(value: DecodedValue): Value {
  const assets: Record<string, Record<string, bigint>> = {}
  for (const { policyId, assets: names } of value.multiAsset) {
    const quantities = (assets[policyId] ??= {})
    for (const { assetName, quantity } of names) quantities[assetName] = quantity
  }
  return { lovelace: value.coin, assets }
}

/**
 * The provider's view of a stored output; byte fields are copies, so callers cannot reach the ledger's bytes.
 * A datum-hash output gets its datum from `resolveDatum` (the datums the ledger has seen), when it knows it.
 */
export function toUtxo(
  ref: TxOutRef,
  output: DecodedOutput,
  resolveDatum: (hash: string) => Uint8Array | undefined
): Utxo {
  const { datum, scriptRef } = output
  const base: Utxo = {
    ref: { txId: ref.txId, index: ref.index },
    address: output.address.text,
    value: toValue(output.value),
    ...(scriptRef === undefined ? {} : { scriptRef: { language: scriptRef.language, bytes: scriptRef.bytes.slice() } })
  }
  if (datum === undefined) return base
  if (datum.kind === 'inline') return { ...base, datum: datum.bytes.slice() }
  const resolved = resolveDatum(datum.hash)
  return { ...base, datumHash: datum.hash, ...(resolved === undefined ? {} : { datum: resolved.slice() }) }
}
