/**
 * Nothing is built that the desk cannot read back: every datum and redeemer a plan would write is measured
 * against the depth limits (core/depth-limits.ts) before any input is reserved, and a plan with one too deep is
 * refused with the depth and the limit.
 */
import { CborReader } from '../../core/cardano/cbor'
import { DATA_LEVEL_IN_TX, MAX_CBOR_DEPTH, writtenDataExcess, type DepthExcess } from '../../core/depth-limits'
import { EngineError } from '../errors'
import type { TxPlan } from './plan'

/** Every Data item the plan puts in the witness set, named for a message. */
function writtenData(plan: TxPlan): Array<readonly [string, Uint8Array]> {
  const out: Array<readonly [string, Uint8Array]> = []
  plan.outputs.forEach((o, i) => {
    if (o.datum !== undefined) out.push([`the datum of output ${i}`, o.datum])
  })
  plan.scriptSpends.forEach((s, i) => {
    out.push([`the datum of script input ${i}`, s.datum], [`the redeemer of script input ${i}`, s.redeemer])
  })
  for (const m of plan.mints ?? []) out.push([`the minting redeemer of ${m.policyId}`, m.redeemer])
  return out
}

function tooDeep(part: string, excess: DepthExcess): EngineError {
  const { measure, depth, limit } = excess
  const why =
    measure === 'CBOR'
      ? `at most ${limit} fit (the transaction reader takes ${MAX_CBOR_DEPTH}, ${DATA_LEVEL_IN_TX} of them above each datum)`
      : `the Plutus Data decoder reads at most ${limit}`
  return new EngineError(
    'BadRequest',
    'ContractTooDeep',
    `The contract is nested too deeply to be read back: ${part} nests ${depth} ${measure} levels, and ${why}. Make it shallower, for example by merkleizing it.`,
    { part, measure, depth, limit }
  )
}

/** Refuses a plan whose transaction the desk could not read back. */
export function checkReadableDepth(plan: TxPlan): void {
  for (const [part, bytes] of writtenData(plan)) {
    const excess = writtenDataExcess(new CborReader(bytes).nesting())
    if (excess !== undefined) throw tooDeep(part, excess)
  }
}
