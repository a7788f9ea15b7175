/**
 * Hostile inputs for the review: real transactions with the context that exercises most of the review on them,
 * and fast-check arbitraries for random bytes and for byte and length mutations of those transactions. Shared
 * by the fuzz test (a few thousand cases) and the fuzz benchmark (over 100,000).
 */
import fc from 'fast-check'
import type { ReviewContext } from '../../../../src/core/cardano/review'
import { unhex } from '../cbor/encode'
import { craft, minimalBody } from '../tx/craft'
import {
  COST_MODEL_V2,
  ERAS,
  FAKE_SEMANTICS,
  OWN,
  TX_A,
  governanceTx,
  marloweApplyInputs,
  marloweApplyTx,
  marloweCreateTx,
  mintTx,
  paymentInputs,
  paymentTx,
  plutusSpendInputs,
  plutusSpendTx,
  scriptHash,
  slotTime
} from '../tx/fixtures'

export const WALLETS = [{ id: 'me', keyHashes: [OWN.hash] }]
export const PARAMS = {
  minFeeA: 44n,
  minFeeB: 155_381n,
  maxTxSize: 16_384,
  collateralPercentage: 150,
  costModels: { PlutusV2: COST_MODEL_V2 }
}

/** Real transactions with the context that exercises most of the review on them. */
export const SAMPLES: ReadonlyArray<readonly [Uint8Array, ReviewContext]> = [
  [paymentTx(), { resolvedInputs: paymentInputs(), wallets: WALLETS, protocolParameters: PARAMS }],
  [
    plutusSpendTx(),
    { resolvedInputs: plutusSpendInputs(), eraSummaries: ERAS, protocolParameters: PARAMS, now: slotTime(10) }
  ],
  [mintTx(), { wallets: WALLETS }],
  [governanceTx(), { wallets: WALLETS, protocolParameters: PARAMS }],
  [marloweCreateTx(), { eraSummaries: ERAS }],
  [
    marloweApplyTx(TX_A),
    {
      resolvedInputs: marloweApplyInputs(TX_A),
      eraSummaries: ERAS,
      marloweScripts: { [scriptHash(FAKE_SEMANTICS)]: 'marlowe-semantics' },
      protocolParameters: PARAMS,
      wallets: WALLETS
    }
  ]
]

export interface HostileCase {
  readonly bytes: Uint8Array
  readonly context: ReviewContext
}

/** Random bytes, reviewed without context. */
export const randomBytes: fc.Arbitrary<HostileCase> = fc
  .uint8Array({ maxLength: 500 })
  .map((bytes) => ({ bytes, context: {} }))

/** One byte of a real transaction replaced, reviewed with its full context. */
export const byteMutations: fc.Arbitrary<HostileCase> = fc
  .tuple(fc.nat(SAMPLES.length - 1), fc.nat(), fc.integer({ min: 0, max: 255 }))
  .map(([which, at, byte]) => {
    const [base, context] = SAMPLES[which]!
    const bytes = base.slice()
    bytes[at % bytes.length] = byte
    return { bytes, context }
  })

/** Up to nine bytes inserted into or cut from a real transaction. */
export const lengthMutations: fc.Arbitrary<HostileCase> = fc
  .tuple(fc.nat(SAMPLES.length - 1), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 9 }), fc.boolean())
  .map(([which, at, insert, cut]) => {
    const [base, context] = SAMPLES[which]!
    const i = at % base.length
    const bytes = cut
      ? Uint8Array.from([...base.subarray(0, i), ...base.subarray(i + insert.length)])
      : Uint8Array.from([...base.subarray(0, i), ...insert, ...base.subarray(i)])
    return { bytes, context }
  })

/** A transaction spending `count` inputs, each with a redeemer, and naming `count` (duplicate) required signers. */
export function manyInputsTx(count: number): Uint8Array {
  const inputs = Array.from({ length: count }, (_, i) => [unhex(TX_A), i] as const)
  const body = minimalBody()
  body[0] = [0, { tag: 258, value: inputs }]
  body.push([14, Array.from({ length: count }, () => unhex(OWN.hash))])
  const redeemers = Array.from({ length: count }, (_, i) => [0, i, 0, [1, 1]])
  return craft(body, { witnessSet: [[5, redeemers]] })
}
