import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TxDecodeError, reviewTransaction, type ReviewContext } from '../../../../src/core/cardano/review'
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

const WALLETS = [{ id: 'me', keyHashes: [OWN.hash] }]
const PARAMS = {
  minFeeA: 44n,
  minFeeB: 155_381n,
  maxTxSize: 16_384,
  collateralPercentage: 150,
  costModels: { PlutusV2: COST_MODEL_V2 }
}

/** Real transactions with the context that exercises most of the review on them. */
const SAMPLES: ReadonlyArray<readonly [Uint8Array, ReviewContext]> = [
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

function onlyTypedErrors(bytes: Uint8Array, context: ReviewContext): void {
  try {
    reviewTransaction(bytes, context)
  } catch (e) {
    if (!(e instanceof TxDecodeError)) throw e
  }
}

describe('reviewTransaction on hostile bytes', () => {
  it('random bytes: a review or a TxDecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (bytes) => onlyTypedErrors(bytes, {})),
      { numRuns: 3000 }
    )
  })

  it('single-byte mutations of real transactions, reviewed with full context', () => {
    fc.assert(
      fc.property(fc.nat(SAMPLES.length - 1), fc.nat(), fc.integer({ min: 0, max: 255 }), (which, at, byte) => {
        const [base, context] = SAMPLES[which]!
        const bytes = base.slice()
        bytes[at % bytes.length] = byte
        onlyTypedErrors(bytes, context)
      }),
      { numRuns: 3000 }
    )
  })

  it('length mutations of real transactions', () => {
    fc.assert(
      fc.property(
        fc.nat(SAMPLES.length - 1),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 9 }),
        fc.boolean(),
        (which, at, insert, cut) => {
          const [base, context] = SAMPLES[which]!
          const i = at % base.length
          const bytes = cut
            ? Uint8Array.from([...base.subarray(0, i), ...base.subarray(i + insert.length)])
            : Uint8Array.from([...base.subarray(0, i), ...insert, ...base.subarray(i)])
          onlyTypedErrors(bytes, context)
        }
      ),
      { numRuns: 2000 }
    )
  })

  it('deeply nested data: reviewed when Plutus Data allows it, rejected past its limit', () => {
    const nested = (depth: number): Uint8Array => Uint8Array.from([...new Array<number>(depth).fill(0x81), 0x00])
    const ok = reviewTransaction(craft(minimalBody(), { witnessSet: [[4, [{ raw: nested(1000) }]]] }))
    expect(ok.datums).toHaveLength(1)
    expect(ok.datums[0]?.content.type).toBe('plutus-data')
    expect(() => reviewTransaction(craft(minimalBody(), { witnessSet: [[4, [{ raw: nested(1100) }]]] }))).toThrow(
      'datum: Data is nested deeper than 1024 levels'
    )
    const metadata = Uint8Array.from([0xa1, 0x01, ...new Array<number>(1300).fill(0x81), 0x00])
    expect(() => reviewTransaction(craft(minimalBody(), { aux: { raw: metadata } }))).toThrow(TxDecodeError)
  })

  it('stays linear on thousands of inputs, redeemers and set elements', () => {
    const count = 4000
    const inputs = Array.from({ length: count }, (_, i) => [unhex(TX_A), i] as const)
    const body = minimalBody()
    body[0] = [0, { tag: 258, value: inputs }]
    body.push([14, Array.from({ length: count }, () => unhex(OWN.hash))])
    const redeemers = Array.from({ length: count }, (_, i) => [0, i, 0, [1, 1]])
    const bytes = craft(body, { witnessSet: [[5, redeemers]] })
    const started = performance.now()
    const review = reviewTransaction(bytes, { protocolParameters: PARAMS })
    expect(performance.now() - started).toBeLessThan(5000)
    expect(review.redeemers).toHaveLength(count)
    expect(review.inputs[count - 1]?.redeemer).toBe(BigInt(count - 1))
    expect(review.warnings.map((w) => w.code)).toContain('duplicate-keys')
  })

  it('refuses inputs beyond any transaction size', () => {
    expect(() => reviewTransaction(new Uint8Array(2_000_000))).toThrow(
      "too large: 2000000 bytes, over the decoder's 1048576-byte limit (the ledger's is 16 KiB)"
    )
  })

  it('huge declared lengths fail at once', () => {
    const started = performance.now()
    for (const head of [0x9b, 0xbb, 0x5b, 0x7b]) {
      const bytes = Uint8Array.from([0x84, head, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
      expect(() => reviewTransaction(bytes)).toThrow(TxDecodeError)
    }
    expect(performance.now() - started).toBeLessThan(100)
  })
})
