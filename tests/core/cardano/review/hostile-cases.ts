/**
 * Hostile inputs for the review: real transactions with the context that exercises most of the review on them,
 * fast-check arbitraries for random bytes and for byte and length mutations of those transactions, and Marlowe
 * arithmetic that grows without bound. Shared by the fuzz test (a few thousand cases) and the fuzz benchmark
 * (over 100,000).
 */
import fc from 'fast-check'
import type { ReviewContext } from '../../../../src/core/cardano/review'
import { onDeposit, when } from '../../../../src/core/marlowe/examples/dsl'
import { MAX_VALUE_BITS } from '../../../../src/core/marlowe/limits'
import { encodeMarloweData } from '../../../../src/core/marlowe/plutus/marlowe-data'
import { ADA, CLOSE, type Contract, type Party } from '../../../../src/core/marlowe/types'
import { largestWithin, rebinding, squaring } from '../../../support/arithmetic'
import { unhex } from '../cbor/encode'
import { craft, minimalBody } from '../tx/craft'
import {
  BUYER,
  COST_MODEL_V2,
  ERAS,
  FAKE_SEMANTICS,
  OWN,
  PRICE,
  SELLER,
  TX_A,
  governanceTx,
  initialDatum,
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
const SELLER_PARTY: Party = { type: 'Address', address: SELLER.enterprise }
const BUYER_PARTY: Party = { type: 'Address', address: BUYER.enterprise }
export const PARAMS = {
  minFeeA: 44n,
  minFeeB: 155_381n,
  maxTxSize: 16_384,
  collateralPercentage: 150,
  costModels: { PlutusV2: COST_MODEL_V2 }
}

const MARLOWE_APPLY_CONTEXT: ReviewContext = {
  eraSummaries: ERAS,
  marloweScripts: { [scriptHash(FAKE_SEMANTICS)]: 'marlowe-semantics' },
  protocolParameters: PARAMS,
  wallets: WALLETS
}

export interface HostileCase {
  readonly bytes: Uint8Array
  readonly context: ReviewContext
}

/** The escrow's deposit, reviewed with its context: an ordinary Marlowe review. */
export const ESCROW_DEPOSIT: HostileCase = {
  bytes: marloweApplyTx(TX_A),
  context: { ...MARLOWE_APPLY_CONTEXT, resolvedInputs: marloweApplyInputs(TX_A) }
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
  [ESCROW_DEPOSIT.bytes, ESCROW_DEPOSIT.context]
]

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

/**
 * Marlowe applies whose spent datum, after the escrow's deposit, does arithmetic that grows without bound unless
 * the core bounds it (issue 13): `Let` squaring for 8 to 60 steps, a value at the limit rebound hundreds of times
 * (each `Shadowing` warning carries it twice), and a value at the limit squared at once. Reviewed with their
 * context: the semantics run on each.
 */
export function arithmeticCases(): HostileCase[] {
  const deposit = (then: Contract): Contract =>
    when([onDeposit(SELLER_PARTY, BUYER_PARTY, ADA, PRICE, then)], slotTime(10_000))
  const largest = largestWithin(MAX_VALUE_BITS)
  const contracts = [
    ...[8, 11, 12, 20, 30, 60].map((steps) => squaring(steps)),
    ...[10, 100, 400].map((times) => rebinding(times, largest)),
    squaring(1, CLOSE, largest)
  ]
  const outputDatum = encodeMarloweData(initialDatum())
  return contracts.map((contract) => {
    const before = initialDatum(deposit(contract))
    return {
      bytes: marloweApplyTx(TX_A, { before, outputDatum }),
      context: { ...MARLOWE_APPLY_CONTEXT, resolvedInputs: marloweApplyInputs(TX_A, before) }
    }
  })
}

/** A transaction spending `count` inputs, each with a redeemer, and naming `count` (duplicate) required signers. */
export function manyInputsTx(count: number): Uint8Array {
  const inputs = Array.from({ length: count }, (_, i) => [unhex(TX_A), i] as const)
  const body = minimalBody()
  body[0] = [0, { tag: 258, value: inputs }]
  body.push([14, Array.from({ length: count }, () => unhex(OWN.hash))])
  const redeemers = Array.from({ length: count }, (_, i) => [0, i, 0, [1, 1]])
  return craft(body, { witnessSet: [[5, redeemers]] })
}
