/**
 * Transaction review throughput against CSL on the same bytes: a ≈16 KB Marlowe apply transaction (the spent
 * and the continuing MarloweData both in the witness set) reviewed with full context — decode, Marlowe datums
 * and redeemer, `computeTransaction`, script data hash — vs CSL's `Transaction.from_bytes(bytes).to_json()`,
 * which only decodes and hashes nothing. A review must hash every datum and, for the script data hash, all of
 * them again (≈32 KB here); the rows separate that cost. The four are measured in alternating rounds, each
 * row the median of its windows.
 */
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'
import { reviewTransaction, type ReviewContext } from '../src/core/cardano/review'
import { decodeTransaction } from '../src/core/cardano/tx'
import { onChoice, onDeposit, when } from '../src/core/marlowe/examples/dsl'
import { ADA, CLOSE, type Contract, type Party } from '../src/core/marlowe/types'
import {
  BUYER,
  COST_MODEL_V2,
  ERAS,
  FAKE_SEMANTICS,
  MEDIATOR,
  PRICE,
  SELLER,
  TX_A,
  initialDatum,
  marloweApplyInputs,
  marloweApplyTx,
  scriptHash,
  slotTime
} from '../tests/core/cardano/tx/fixtures'
import { installNativeCodecs } from '../src/engine/native-codecs'
import { measureAlternating, printRows, type Measurement } from './harness'

/** Choices to make after the deposit: `levels` nested `When`s of three cases, one of which goes deeper. */
function largeContract(levels: number): Contract {
  const party = (address: string): Party => ({ type: 'Address', address })
  let next: Contract = CLOSE
  for (let i = levels; i > 0; i--) {
    const deadline = slotTime(20_000 + i * 1000)
    next = when(
      [
        onChoice(`approve step ${i}`, party(BUYER.enterprise), 1n, next),
        onChoice(`reject step ${i}`, party(SELLER.enterprise), 0n, CLOSE),
        onChoice(`arbitrate step ${i}`, party(MEDIATOR.enterprise), 2n, CLOSE)
      ],
      deadline
    )
  }
  return when([onDeposit(party(SELLER.enterprise), party(BUYER.enterprise), ADA, PRICE, next)], slotTime(10_000))
}

/** Nesting that makes the transaction ≈16 KB. */
const LEVELS = 28

export async function benchReview(): Promise<void> {
  await installNativeCodecs()
  const before = initialDatum(largeContract(LEVELS))
  const bytes = marloweApplyTx(TX_A, { before })
  const context: ReviewContext = {
    resolvedInputs: marloweApplyInputs(TX_A, before),
    eraSummaries: ERAS,
    marloweScripts: { [scriptHash(FAKE_SEMANTICS)]: 'marlowe-semantics' },
    protocolParameters: { maxTxSize: 16_384, minFeeA: 44n, minFeeB: 155_381n, costModels: { PlutusV2: COST_MODEL_V2 } }
  }
  const review = reviewTransaction(bytes, context)
  const step = review.marlowe.steps[0]
  if (step?.result.type !== 'success' || review.scriptDataHash.status !== 'match') {
    throw new Error('the benchmark transaction does not review cleanly')
  }
  const bare: ReviewContext = { ...context, protocolParameters: {} }
  const { full, noScriptDataHash, decode, csl } = measureAlternating({
    full: () => reviewTransaction(bytes, context),
    noScriptDataHash: () => reviewTransaction(bytes, bare),
    decode: () => decodeTransaction(bytes),
    csl: () => {
      const tx = CSL.Transaction.from_bytes(bytes)
      tx.to_json()
      tx.free()
    }
  })
  const peer = { peerName: 'CSL Transaction.from_bytes + to_json', peer: csl.opsPerSecond, unit: 'tx/s' }
  const kb = (bytes.length / 1024).toFixed(1)
  const ms = (m: Measurement): string => `${(1000 / m.opsPerSecond).toFixed(2)} ms`
  printRows(`Transaction review, ${kb} KB Marlowe apply tx`, [
    { what: `full review with context (${ms(full)})`, ours: full.opsPerSecond, ...peer },
    {
      what: `review without cost models: no script data hash (${ms(noScriptDataHash)})`,
      ours: noScriptDataHash.opsPerSecond,
      ...peer
    },
    { what: `decodeTransaction only, datum hashes included (${ms(decode)})`, ours: decode.opsPerSecond, ...peer }
  ])
}
