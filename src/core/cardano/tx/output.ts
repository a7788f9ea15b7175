/**
 * Transaction outputs in both forms: legacy `[address, value, ?datum_hash]` and Babbage's map
 * `{0: address, 1: value, ?2: datum_option, ?3: script_ref}` with `datum_option = [0, hash] / [1, #6.24(data)]`.
 */
import { blake2b256Hex } from './hash'
import { HASH32, type TxReader } from './reader'
import { readScriptRef } from './script'
import type { DecodedAddress } from './address'
import type { DecodedDatum, DecodedOutput, DecodedScript, DecodedValue } from './types'
import { readValue } from './value'
import { MAJOR_ARRAY } from '../cbor'

export function readOutput(r: TxReader, what: string): DecodedOutput {
  const start = r.pos
  return r.peekMajor() === MAJOR_ARRAY ? readLegacy(r, what, start) : readMapForm(r, what, start)
}

function readLegacy(r: TxReader, what: string, start: number): DecodedOutput {
  const count = r.arrayHeader(what)
  if (count !== undefined && count !== 2 && count !== 3) {
    r.fail(`${what}: a legacy output has 2 or 3 items, got ${count}`, start)
  }
  const address = r.address(`${what} address`)
  const value = readValue(r, `${what} value`)
  let datum: DecodedDatum | undefined
  if (count === 3 || (count === undefined && r.more(undefined, 2))) {
    datum = { kind: 'hash', hash: r.hash(`${what} datum hash`, HASH32) }
    r.closeArray(count === undefined ? undefined : 3, what)
  }
  const base = { format: 'legacy' as const, address, value, start, end: r.pos }
  return datum === undefined ? base : { ...base, datum }
}

function readMapForm(r: TxReader, what: string, start: number): DecodedOutput {
  let address: DecodedAddress | undefined
  let value: DecodedValue | undefined
  let datum: DecodedDatum | undefined
  let scriptRef: DecodedScript | undefined
  r.mapEntries(what, (key) => {
    const field = key.kind === 'int' ? key.value : -1n
    switch (field) {
      case 0n:
        address = r.address(`${what} address`)
        break
      case 1n:
        value = readValue(r, `${what} value`)
        break
      case 2n:
        datum = readDatumOption(r, `${what} datum`)
        break
      case 3n:
        scriptRef = readScriptRef(r, `${what} script reference`)
        break
      default:
        r.fail(`${what}: unknown output field`, key.start)
    }
  })
  if (address === undefined) return r.fail(`${what}: the output has no address (key 0)`, start)
  if (value === undefined) return r.fail(`${what}: the output has no value (key 1)`, start)
  const output: DecodedOutput = { format: 'map', address, value, start, end: r.pos }
  return {
    ...output,
    ...(datum === undefined ? {} : { datum }),
    ...(scriptRef === undefined ? {} : { scriptRef })
  }
}

function readDatumOption(r: TxReader, what: string): DecodedDatum {
  const count = r.fixedArray(what, 2)
  const kind = r.smallUint(`${what} kind`, 1)
  let datum: DecodedDatum
  if (kind === 0) {
    datum = { kind: 'hash', hash: r.hash(`${what} hash`, HASH32) }
  } else {
    const embedded = r.embedded(what)
    r.checkEmbeddedPlutusData(embedded, `${what} (inline)`)
    datum = { kind: 'inline', hash: blake2b256Hex(embedded.bytes), bytes: embedded.bytes }
  }
  r.closeArray(count, what)
  return datum
}
