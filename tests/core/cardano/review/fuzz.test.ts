import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TxDecodeError, reviewTransaction, type ReviewContext } from '../../../../src/core/cardano/review'
import { craft, minimalBody } from '../tx/craft'
import { PARAMS, arithmeticCases, byteMutations, lengthMutations, manyInputsTx, randomBytes } from './hostile-cases'

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
      fc.property(randomBytes, ({ bytes, context }) => onlyTypedErrors(bytes, context)),
      { numRuns: 3000 }
    )
  })

  it('single-byte mutations of real transactions, reviewed with full context', () => {
    fc.assert(
      fc.property(byteMutations, ({ bytes, context }) => onlyTypedErrors(bytes, context)),
      { numRuns: 3000 }
    )
  })

  it('length mutations of real transactions', () => {
    fc.assert(
      fc.property(lengthMutations, ({ bytes, context }) => onlyTypedErrors(bytes, context)),
      { numRuns: 2000 }
    )
  })

  it('Marlowe arithmetic without bound: reviewed, the semantics run up to the limit and not past it', () => {
    const results = arithmeticCases().map(({ bytes, context }) => {
      const [step] = reviewTransaction(bytes, context).marlowe.steps
      return step?.result.type === 'not-run' ? step.result.reason.replace(/\(.*\)$/, '(…)') : step?.result.type
    })
    const beyond = 'the contract computes a value beyond what Marlowe Desk evaluates (…)'
    expect(results).toEqual([
      ...['success', 'success', beyond, beyond, beyond, beyond],
      ...['success', 'success', 'success'],
      beyond
    ])
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

  it('reviews thousands of inputs, redeemers and set elements (its time against a tenth of them: npm run bench)', () => {
    const count = 4000
    const review = reviewTransaction(manyInputsTx(count), { protocolParameters: PARAMS })
    expect(review.redeemers).toHaveLength(count)
    expect(review.inputs[count - 1]?.redeemer).toBe(BigInt(count - 1))
    expect(review.warnings.map((w) => w.code)).toContain('duplicate-keys')
  })

  it('refuses inputs beyond any transaction size', () => {
    expect(() => reviewTransaction(new Uint8Array(2_000_000))).toThrow(
      "too large: 2000000 bytes, over the decoder's 1048576-byte limit (the ledger's is 16 KiB)"
    )
  })

  it('huge declared lengths fail without reading on', () => {
    for (const head of [0x9b, 0xbb, 0x5b, 0x7b]) {
      const bytes = Uint8Array.from([0x84, head, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
      expect(() => reviewTransaction(bytes)).toThrow(TxDecodeError)
    }
  })
})
