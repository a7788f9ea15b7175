/** Property tests: JSON ↔ model ↔ Plutus Data round trips on generated contracts, states and inputs. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stringifyJson } from '../../../src/core/json/lossless'
import { parseContract, parseInputs, parseMarloweData, parseState } from '../../../src/core/marlowe/json'
import {
  encodeContract,
  encodeInput,
  encodeMarloweData as toJson,
  encodeState
} from '../../../src/core/marlowe/json/encode'
import {
  contractFromPlutusData,
  contractToPlutusData,
  decodeMarloweData,
  decodeRedeemer,
  encodeMarloweData,
  encodeRedeemer
} from '../../../src/core/marlowe/plutus/marlowe-data'
import { input, marloweData, contract, state } from '../../support/arbitraries'

const runs = { numRuns: 400 }

describe('JSON round trips', () => {
  it('contract → JSON text → contract', () => {
    fc.assert(
      fc.property(contract, (c) => {
        expect(parseContract(stringifyJson(encodeContract(c)))).toEqual(c)
      }),
      runs
    )
  })

  it('state → JSON text → state', () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(parseState(stringifyJson(encodeState(s)))).toEqual(s)
      }),
      runs
    )
  })

  it('inputs → JSON text → inputs', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 3 }), (is) => {
        expect(parseInputs(stringifyJson(is.map(encodeInput)))).toEqual(is)
      }),
      runs
    )
  })

  it('datum → JSON text → datum', () => {
    fc.assert(
      fc.property(marloweData, (d) => {
        expect(parseMarloweData(stringifyJson(toJson(d)))).toEqual(d)
      }),
      runs
    )
  })
})

describe('Plutus Data round trips', () => {
  it('datum → bytes → datum, and the bytes are stable', () => {
    fc.assert(
      fc.property(marloweData, (d) => {
        const bytes = encodeMarloweData(d)
        const back = decodeMarloweData(bytes)
        expect(back).toEqual(d)
        expect(encodeMarloweData(back)).toEqual(bytes)
      }),
      runs
    )
  })

  it('contract → Data → contract', () => {
    fc.assert(
      fc.property(contract, (c) => {
        expect(contractFromPlutusData(contractToPlutusData(c))).toEqual(c)
      }),
      runs
    )
  })

  it('inputs → redeemer → inputs, continuations supplied by hash', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 3 }), (is) => {
        const continuations = new Map(
          is.flatMap((i) => (i.merkleized ? [[i.merkleized.hash, i.merkleized.continuation] as const] : []))
        )
        const back = decodeRedeemer(encodeRedeemer(is), (h) => continuations.get(h))
        // Two inputs revealing the same hash share one continuation, as on chain.
        expect(back.map((i) => i.content)).toEqual(is.map((i) => i.content))
        expect(back.map((i) => i.merkleized?.hash)).toEqual(is.map((i) => i.merkleized?.hash))
      }),
      runs
    )
  })
})
