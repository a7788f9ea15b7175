/**
 * The depth policy holds against the readers themselves: a datum or redeemer as deep as `writtenDataExcess`
 * allows reads back from where a transaction carries it, one level more does not and is flagged; and the
 * levels a contract construct costs in JSON, Data and CBOR are those the policy's comment states.
 */
import { describe, expect, it } from 'vitest'
import { CborError, CborReader, decodeCbor } from '../../src/core/cardano/cbor'
import { splitTransaction, WitnessError } from '../../src/core/cardano/witnesses'
import {
  MAX_CBOR_DEPTH,
  MAX_DATA_DEPTH,
  MAX_JSON_DEPTH,
  MAX_WRITTEN_DATA_CBOR_DEPTH,
  writtenDataExcess
} from '../../src/core/depth-limits'
import { JsonSyntaxError, parseJson } from '../../src/core/json/lossless'
import { parseContract } from '../../src/core/marlowe/json'
import { decodePlutusData, PlutusDataError } from '../../src/core/marlowe/plutus/data'
import { encodeMarloweData } from '../../src/core/marlowe/plutus/marlowe-data'
import { emptyState } from '../../src/core/marlowe/types'
import { unhex } from './cardano/cbor/encode'

const nesting = (bytes: Uint8Array) => new CborReader(bytes).nesting()

/** `levels` constructors one inside another around an integer: two CBOR levels and one Data level each. */
function constrs(levels: number): Uint8Array {
  return unhex(`${'d87981'.repeat(levels)}00`)
}

/** `levels` lists one inside another around an integer: one CBOR level and one Data level each. */
function lists(levels: number): Uint8Array {
  return unhex(`${'81'.repeat(levels)}00`)
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** A Conway transaction carrying `datum` in its witness set: [{}, {4: 258([datum])}, true, null]. */
const txWithDatum = (datum: Uint8Array): Uint8Array => unhex(`84a0a104d9010281${hex(datum)}f5f6`)

/** A Conway transaction carrying `data` as a redeemer: [{}, {5: {[0, 0]: [data, [1, 1]]}}, true, null]. */
const txWithRedeemer = (data: Uint8Array): Uint8Array => unhex(`84a0a105a182000082${hex(data)}820101f5f6`)

describe('the depth policy', () => {
  it('passes a datum or redeemer exactly as deep as a transaction can carry and still be read back', () => {
    const deepest = constrs(MAX_WRITTEN_DATA_CBOR_DEPTH / 2)
    expect(nesting(deepest)).toEqual({
      depth: MAX_WRITTEN_DATA_CBOR_DEPTH,
      containers: MAX_WRITTEN_DATA_CBOR_DEPTH / 2
    })
    expect(writtenDataExcess(nesting(deepest))).toBeUndefined()
    for (const tx of [txWithDatum(deepest), txWithRedeemer(deepest)]) {
      expect(() => decodeCbor(tx)).not.toThrow()
      expect(splitTransaction(tx).body).toEqual(unhex('a0'))
    }
    expect(decodePlutusData(deepest)).toBeDefined()
  })

  it('flags one CBOR level more, which the transaction reader refuses', () => {
    const deeper = unhex(`81${hex(constrs(MAX_WRITTEN_DATA_CBOR_DEPTH / 2))}`)
    expect(writtenDataExcess(nesting(deeper))).toEqual({
      measure: 'CBOR',
      depth: MAX_WRITTEN_DATA_CBOR_DEPTH + 1,
      limit: MAX_WRITTEN_DATA_CBOR_DEPTH
    })
    for (const tx of [txWithDatum(deeper), txWithRedeemer(deeper)]) {
      expect(() => decodeCbor(tx)).toThrow(`CBOR is nested deeper than ${MAX_CBOR_DEPTH} levels`)
      expect(() => splitTransaction(tx)).toThrow(WitnessError)
    }
  })

  it('flags Data the Data decoder refuses, even where its CBOR would fit', () => {
    expect(writtenDataExcess(nesting(lists(MAX_DATA_DEPTH)))).toBeUndefined()
    expect(decodePlutusData(lists(MAX_DATA_DEPTH))).toBeDefined()
    const deeper = lists(MAX_DATA_DEPTH + 1)
    expect(nesting(deeper).depth).toBeLessThan(MAX_WRITTEN_DATA_CBOR_DEPTH)
    expect(writtenDataExcess(nesting(deeper))).toEqual({
      measure: 'Plutus Data',
      depth: MAX_DATA_DEPTH + 1,
      limit: MAX_DATA_DEPTH
    })
    expect(() => decodePlutusData(deeper)).toThrow(PlutusDataError)
  })

  it('holds JSON to its limit', () => {
    expect(() => parseJson('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).not.toThrow()
    expect(() => parseJson('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toThrow(JsonSyntaxError)
  })

  it('measures hostile depth without recursion', () => {
    const hostile = lists(1_000_000)
    expect(nesting(hostile)).toEqual({ depth: 1_000_000, containers: 1_000_000 })
    expect(() => decodeCbor(hostile)).toThrow(CborError)
  })
})

describe('what a contract construct costs in each reader', () => {
  /** How deep the JSON text nests, and how deep the datum of its contract nests. */
  function measure(text: string): { json: number; depth: number; containers: number } {
    let json = 0
    let open = 0
    for (const c of text) {
      if (c === '{' || c === '[') json = Math.max(json, ++open)
      else if (c === '}' || c === ']') open -= 1
    }
    const datum = encodeMarloweData({
      params: { rolesCurrency: '' },
      state: emptyState(0n),
      contract: parseContract(text)
    })
    return { json, ...nesting(datum) }
  }

  /** What one more step costs: the contract of 11 steps against that of 10. */
  function perStep(contractOf: (steps: number) => string): { json: number; depth: number; containers: number } {
    const [a, b] = [measure(contractOf(10)), measure(contractOf(11))]
    return { json: b.json - a.json, depth: b.depth - a.depth, containers: b.containers - a.containers }
  }

  it('a negate: one JSON level, one Data level, two CBOR levels', () => {
    const negates = (n: number): string =>
      `{"from_account":{"role_token":"a"},"to":{"party":{"role_token":"a"}},"token":{"currency_symbol":"","token_name":""},"pay":${'{"negate":'.repeat(n)}1${'}'.repeat(n)},"then":"close"}`
    expect(perStep(negates)).toEqual({ json: 1, depth: 2, containers: 1 })
  })

  it('a When: three JSON levels, three Data levels, five CBOR levels', () => {
    const whens = (n: number): string => {
      let text = '"close"'
      for (let i = 0; i < n; i++) {
        text = `{"when":[{"case":{"notify_if":true},"then":${text}}],"timeout":1,"timeout_continuation":"close"}`
      }
      return text
    }
    expect(perStep(whens)).toEqual({ json: 3, depth: 5, containers: 3 })
  })
})
