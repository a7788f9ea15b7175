/**
 * Runs our semantics on the deployed validator's own inputs: for each capture, the input datum and the
 * redeemer over the transaction's validity range must give the continuing datum the real transaction
 * carried — the same bytes under the same hash in txInfoData, at the one output to the script's own
 * address — or, when the contract closes, no output to that address at all.
 */
import { hex } from '@scure/base'
import { describe, expect, it } from 'vitest'
import {
  decodePlutusDataItem,
  isConstrData,
  type ConstrData,
  type PlutusData
} from '../../../src/core/marlowe/plutus/data'
import { datumHash } from '../../../src/core/marlowe/plutus/hash'
import { encodeMarloweData } from '../../../src/core/marlowe/plutus/marlowe-data'
import { plutusDataEquals } from '../../../src/core/marlowe/plutus/data'
import { computeTransaction } from '../../../src/core/marlowe/semantics'
import type { TimeInterval } from '../../../src/core/marlowe/types'
import { haveVectors, missingVectorsMessage } from '../../support/vectors'
import { captureNames, childSpans, loadCapture, type Capture } from './plutus/captures'

function constr(d: PlutusData | undefined, what: string): ConstrData {
  if (d === undefined || !isConstrData(d)) throw new Error(`${what} is not a constructor`)
  return d
}

function field(d: PlutusData | undefined, i: number, what: string): PlutusData {
  const f = constr(d, what).fields[i]
  if (f === undefined) throw new Error(`${what} has no field ${i}`)
  return f
}

/** The ledger's `[lower, upper)` range as the validator reads it: closed bounds kept, open ones moved in. */
function marloweInterval(validRange: PlutusData): TimeInterval {
  const bound = (b: PlutusData, edge: 'lower' | 'upper'): bigint => {
    const extended = constr(field(b, 0, edge), `${edge} extended`)
    const value = extended.fields[0]
    if (extended.constr !== 1n || typeof value !== 'bigint') throw new Error(`${edge} bound is not finite`)
    const closed = constr(field(b, 1, `${edge} closure`), 'closure').constr === 1n
    if (closed) return value
    return edge === 'lower' ? value + 1n : value - 1n
  }
  return { from: bound(field(validRange, 0, 'range'), 'lower'), to: bound(field(validRange, 1, 'range'), 'upper') }
}

/** The address of the UTxO this script run spends (ScriptPurpose `Spending ref`, found in TxInfo inputs). */
function ownAddress(capture: Capture): PlutusData {
  const [, , context] = childSpans(capture.bytes, 0)
  if (context === undefined) throw new Error('no script context')
  const ctx = decodePlutusDataItem(capture.bytes, context.start).data
  const txInfo = field(ctx, 0, 'context')
  const purpose = constr(field(ctx, 1, 'context'), 'purpose')
  const spent = purpose.fields[0]
  if (purpose.constr !== 1n || spent === undefined) throw new Error('not a spending script run')
  const inputs = field(txInfo, 0, 'txInfo')
  if (typeof inputs !== 'object' || !('list' in inputs)) throw new Error('inputs is not a list')
  const own = inputs.list.find((i) => plutusDataEquals(field(i, 0, 'input'), spent))
  return field(field(own, 1, 'input'), 0, 'txOut')
}

describe.skipIf(!haveVectors)(
  `validator captures replayed through computeTransaction${haveVectors ? '' : ` (${missingVectorsMessage})`}`,
  () => {
    const names = captureNames()
    const outcomes = { continuing: 0, closed: 0 }

    it.each(names)('%s', (name) => {
      const capture = loadCapture(name)
      const interval = marloweInterval(capture.validRange)
      const out = computeTransaction({ interval, inputs: capture.inputs }, capture.datum.state, capture.datum.contract)
      if (out.type !== 'Success') throw new Error(`${name}: ${out.error.type}`)
      const own = ownAddress(capture)
      const ownOutputs = capture.outputs.filter((o) => plutusDataEquals(field(o, 0, 'txOut'), own))
      if (out.contract.type === 'Close') {
        expect(ownOutputs).toHaveLength(0)
        outcomes.closed += 1
        return
      }
      const bytes = encodeMarloweData({ params: capture.datum.params, state: out.state, contract: out.contract })
      const hash = datumHash(bytes)
      expect(hex.encode(capture.txInfoData.get(hash) ?? new Uint8Array())).toBe(hex.encode(bytes))
      expect(ownOutputs).toHaveLength(1)
      const outputDatum = constr(field(ownOutputs[0], 2, 'txOut'), 'output datum')
      expect(outputDatum.constr).toBe(1n) // OutputDatumHash
      expect(hex.encode(outputDatum.fields[0] as Uint8Array)).toBe(hash)
      outcomes.continuing += 1
    })

    it('replays all 50 captures', () => {
      expect(outcomes.continuing + outcomes.closed).toBe(50)
      expect(outcomes.continuing).toBeGreaterThan(0)
      expect(outcomes.closed).toBeGreaterThan(0)
    })
  }
)
