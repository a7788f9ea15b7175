/**
 * The deployed validator's own inputs: every datum and redeemer must decode into the model and re-encode to
 * the exact original bytes, and every Marlowe datum in txInfoData must hash to its key.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hex } from '@scure/base'
import { decodePlutusData, encodePlutusData, isConstrData } from '../../../../src/core/marlowe/plutus/data'
import { datumHash } from '../../../../src/core/marlowe/plutus/hash'
import {
  decodeMarloweData,
  decodePayoutDatum,
  encodeMarloweData,
  encodePayoutDatum,
  encodeRedeemer
} from '../../../../src/core/marlowe/plutus/marlowe-data'
import type { MarloweData } from '../../../../src/core/marlowe/types'
import { haveVectors, missingVectorsMessage, vectorsDir } from '../../../support/vectors'
import { captureNames, loadCapture } from './captures'

const names = captureNames()

function tryDecodeMarloweData(bytes: Uint8Array): MarloweData | undefined {
  try {
    return decodeMarloweData(bytes)
  } catch {
    return undefined
  }
}

/** Every address party string reachable from a decoded model value. */
function collectAddresses(x: unknown, into: Set<string>): void {
  if (typeof x !== 'object' || x === null) return
  const party = x as { type?: unknown; address?: unknown }
  if (party.type === 'Address' && typeof party.address === 'string') into.add(party.address)
  for (const v of Object.values(x)) collectAddresses(v, into)
}

/** Every `type` tag and boolean observation reachable from a decoded model value. */
function collectTypes(x: unknown, into: Set<string>): void {
  if (typeof x === 'boolean') into.add(x ? 'TrueObs' : 'FalseObs')
  if (typeof x !== 'object' || x === null) return
  const tag: unknown = (x as { type?: unknown }).type
  if (typeof tag === 'string') into.add(tag)
  for (const v of Object.values(x)) collectTypes(v, into)
}

const title = `semantics validator captures${haveVectors ? '' : ` (skipped: ${missingVectorsMessage})`}`

describe.skipIf(!haveVectors)(title, () => {
  it('has the 50 captures', () => {
    expect(names).toHaveLength(50)
  })

  it.each(names)('%s re-encodes byte for byte', (name) => {
    const capture = loadCapture(name)
    expect(hex.encode(encodePlutusData(decodePlutusData(capture.bytes)))).toBe(hex.encode(capture.bytes))
    expect(hex.encode(encodeMarloweData(capture.datum))).toBe(hex.encode(capture.datumBytes))
    expect(hex.encode(encodeRedeemer(capture.inputs))).toBe(hex.encode(capture.redeemerBytes))

    // The spent UTxO's datum is in the witness set too, beside any continuing datum.
    expect(capture.txInfoData.has(datumHash(capture.datumBytes))).toBe(true)
    for (const [hash, bytes] of capture.txInfoData) {
      expect(datumHash(bytes)).toBe(hash)
      const md = tryDecodeMarloweData(bytes)
      if (md === undefined) {
        // The only other datums these transactions carry are role payout datums.
        expect(hex.encode(encodePayoutDatum(decodePayoutDatum(bytes)))).toBe(hex.encode(bytes))
      } else {
        expect(hex.encode(encodeMarloweData(md))).toBe(hex.encode(bytes))
      }
    }
  })

  it('covers every constructor except the merkleized ones', () => {
    const seen = new Set<string>()
    for (const name of names) {
      const { datum, inputs } = loadCapture(name)
      collectTypes(datum, seen)
      collectTypes(inputs, seen)
    }
    const expected = [
      ['Close', 'Pay', 'If', 'When', 'Let', 'Assert', 'Case', 'Deposit', 'Choice', 'Notify'],
      ['AvailableMoney', 'NegValue', 'AddValue', 'SubValue', 'MulValue', 'DivValue', 'ChoiceValue'],
      ['TimeIntervalStart', 'TimeIntervalEnd', 'UseValue', 'Cond'],
      ['AndObs', 'OrObs', 'NotObs', 'ChoseSomething', 'ValueGE', 'ValueGT', 'ValueLT', 'ValueLE', 'ValueEQ'],
      ['TrueObs', 'FalseObs', 'Address', 'Role', 'Account', 'Party', 'IDeposit', 'IChoice', 'INotify']
    ].flat()
    expect(expected.filter((t) => !seen.has(t))).toEqual([])
    expect(seen.has('MerkleizedCase')).toBe(false)
  })

  it('decodes address parties to the bech32 strings the Haskell JSON of the reference paths uses', () => {
    const decoded = new Set<string>()
    for (const name of names) {
      const { datum, inputs } = loadCapture(name)
      collectAddresses(datum, decoded)
      collectAddresses(inputs, decoded)
    }
    const referenceDir = join(vectorsDir, 'reference')
    const reference = readdirSync(referenceDir)
      .map((f) => readFileSync(join(referenceDir, f), 'utf8'))
      .join('\n')
    expect(decoded.size).toBeGreaterThanOrEqual(4)
    for (const address of decoded) expect(reference).toContain(`"${address}"`)
    expect([...decoded].some((a) => a.startsWith('addr1'))).toBe(true)
    expect([...decoded].some((a) => a.startsWith('addr_test1'))).toBe(true)
  })

  it('exposes the validity range and outputs for replays', () => {
    const capture = loadCapture(names[0] ?? '')
    expect(isConstrData(capture.validRange)).toBe(true)
    expect(capture.outputs.length).toBeGreaterThan(0)
  })
})
