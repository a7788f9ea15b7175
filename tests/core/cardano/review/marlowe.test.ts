import { describe, expect, it } from 'vitest'
import { reviewTransaction, type ReviewContext } from '../../../../src/core/cardano/review'
import {
  encodeInput,
  encodeMarloweData as marloweJson,
  encodePayment,
  encodeState
} from '../../../../src/core/marlowe/json/encode'
import { encodeMarloweData, encodeRedeemer } from '../../../../src/core/marlowe/plutus/marlowe-data'
import { ADA, CLOSE, type Party } from '../../../../src/core/marlowe/types'
import { onDeposit, when } from '../../../../src/core/marlowe/examples/dsl'
import { squaring } from '../../../support/arithmetic'
import { unhex } from '../cbor/encode'
import { craft, OWN_ADDRESS, type Entries } from '../tx/craft'
import {
  APPLY_END,
  APPLY_START,
  BUYER,
  COST_MODEL_V2,
  DEPOSIT,
  ERAS,
  FAKE_SEMANTICS,
  MIN_ADA,
  PRICE,
  PUBLISHED_PAYOUT_HASH,
  PUBLISHED_SEMANTICS_HASH,
  ROLES_CURRENCY,
  SELLER,
  TX_C,
  datumHashHex,
  depositedDatum,
  initialDatum,
  marloweApplyInputs,
  marloweApplyTx,
  marloweCreateTx,
  payoutWithdrawInputs,
  payoutWithdrawTx,
  scriptAddress,
  scriptHash,
  slotTime,
  txIdOf
} from '../tx/fixtures'

const SEMANTICS = scriptHash(FAKE_SEMANTICS)
const KNOWN: ReviewContext = { eraSummaries: ERAS, marloweScripts: { [SEMANTICS]: 'marlowe-semantics' } }
const create = marloweCreateTx(SEMANTICS)
const createId = txIdOf(create)
const interval = { from: slotTime(APPLY_START), to: slotTime(APPLY_END) - 1n }

function resolved(before = initialDatum()): ReviewContext {
  return {
    ...KNOWN,
    resolvedInputs: marloweApplyInputs(createId, before),
    protocolParameters: { costModels: { PlutusV2: COST_MODEL_V2 } }
  }
}

describe('Marlowe create', () => {
  it('recognises the published semantics validator and decodes the datum as Runtime JSON', () => {
    const review = reviewTransaction(marloweCreateTx(), { eraSummaries: ERAS })
    const output = review.outputs[0]!
    expect(output.address).toMatchObject({
      text: scriptAddress(PUBLISHED_SEMANTICS_HASH),
      owner: 'script',
      scriptName: 'marlowe-semantics',
      payment: { type: 'script', hash: PUBLISHED_SEMANTICS_HASH, scriptName: 'marlowe-semantics' }
    })
    expect(output.datum).toMatchObject({ form: 'hash', source: 'witness-set' })
    expect(output.datum?.content).toEqual({
      type: 'marlowe-data',
      marlowe: marloweJson(initialDatum()),
      nextTimeout: slotTime(10_000)
    })
    expect(review.marlowe).toEqual({
      steps: [],
      created: [{ output: 0n, rolesCurrency: '', nextTimeout: slotTime(10_000) }],
      withdrawals: []
    })
    expect(review.datums).toMatchObject([{ usedBy: ['output 0'], content: { type: 'marlowe-data' } }])
  })

  it('reads the Runtime tags under label 1564 and checks the datums-only script data hash', () => {
    const review = reviewTransaction(marloweCreateTx())
    expect(review.metadata?.marlowe).toEqual({
      version: 2n,
      // A text payload is a payload, not the second chunk of a long tag.
      tags: [{ tag: 'escrow' }, { tag: 'desk.test', payload: { n: 1n } }, { tag: 'memo', payload: 'paid in full' }]
    })
    expect(review.scriptDataHash).toMatchObject({ status: 'match', languages: [] })
    expect(review.warnings.map((w) => w.code)).toEqual(['unresolved-inputs'])
  })

  it('needs to be told about other deployments', () => {
    expect(reviewTransaction(create).marlowe.created).toEqual([])
    expect(reviewTransaction(create, KNOWN).marlowe.created).toHaveLength(1)
  })
})

describe('Marlowe apply: what the contract will do', () => {
  it('runs the semantics on the spent datum and the redeemer over the validity interval', () => {
    const review = reviewTransaction(marloweApplyTx(createId), resolved())
    const after = depositedDatum()
    expect(review.marlowe.steps).toEqual([
      {
        input: { txId: createId, index: 0n },
        datumSource: 'witness-set',
        rolesCurrency: '',
        inputs: [encodeInput(DEPOSIT)],
        interval,
        result: {
          type: 'success',
          payments: [],
          warnings: [],
          state: encodeState(after.state),
          contract: marloweJson(after).marloweContract,
          closes: false,
          nextTimeout: slotTime(20_000),
          continuingOutput: 0n,
          continuationMatches: true
        }
      }
    ])
    expect(review.redeemers[0]?.marloweInputs).toEqual([encodeInput(DEPOSIT)])
    expect(review.inputs[0]).toMatchObject({
      owner: 'script',
      address: { scriptName: 'marlowe-semantics' },
      redeemer: 0n
    })
    expect(review.scriptDataHash.status).toBe('match')
    expect(review.warnings).toEqual([])
  })

  it('without its inputs read, shows the inputs and the inferred contract but says the step cannot be evaluated', () => {
    const review = reviewTransaction(marloweApplyTx(createId), KNOWN)
    expect(review.inputs.every((i) => !i.resolved)).toBe(true)
    expect(review.marlowe.steps).toHaveLength(1)
    const [step] = review.marlowe.steps
    expect(step?.datumSource).toBe('inferred')
    expect(step?.rolesCurrency).toBe('')
    expect(step?.inputs).toEqual([encodeInput(DEPOSIT)])
    expect(step?.result.type).toBe('not-run')
    if (step?.result.type !== 'not-run') throw new Error('evaluated')
    expect(step.result.reason).toBe(
      'the spent output was not read here — import the transaction with its review bundle'
    )
    // Its continuation is not a contract opened.
    expect(review.marlowe.created).toEqual([])
  })

  it('without its inputs read, inputs the contract would reject raise no verdict: neither an error nor a danger', () => {
    const short = { content: { ...DEPOSIT.content, amount: PRICE - 1n } } as typeof DEPOSIT
    const review = reviewTransaction(marloweApplyTx(createId, { inputs: [short] }), KNOWN)
    expect(review.marlowe.steps.map((s) => s.result.type)).toEqual(['not-run'])
    expect(review.marlowe.created).toEqual([])
    expect(review.warnings.filter((w) => w.code === 'marlowe-failure')).toEqual([])
    expect(review.warnings.filter((w) => w.severity === 'danger')).toEqual([])
  })

  it('without its inputs read and no datum to infer, claims no contract opened at the Marlowe script', () => {
    const review = reviewTransaction(marloweApplyTx(createId, { omitSpentDatum: true }), KNOWN)
    expect(review.marlowe.steps).toEqual([])
    expect(review.marlowe.created).toEqual([])
  })

  it('flags a continuing output whose datum is not the new state', () => {
    const wrong = encodeMarloweData(initialDatum())
    const review = reviewTransaction(marloweApplyTx(createId, { outputDatum: wrong }), resolved())
    expect(review.marlowe.steps[0]?.result).toMatchObject({ type: 'success', continuationMatches: false })
    expect(review.warnings).toContainEqual({
      code: 'marlowe-failure',
      severity: 'danger',
      message: `The Marlowe validator will fail at ${createId}#0: the continuing output does not carry the new state as a datum hash.`
    })
  })

  it('reports inputs the contract rejects', () => {
    const short = { content: { ...DEPOSIT.content, amount: PRICE - 1n } } as typeof DEPOSIT
    const review = reviewTransaction(marloweApplyTx(createId, { inputs: [short] }), resolved())
    expect(review.marlowe.steps[0]?.result).toEqual({ type: 'error', error: 'TEApplyNoMatchError' })
    expect(review.warnings.map((w) => [w.code, w.message])).toContainEqual([
      'marlowe-failure',
      `The Marlowe contract at ${createId}#0 rejects these inputs: "TEApplyNoMatchError".`
    ])
  })

  it('reports payments when the contract closes, and an output sent back to a closed contract', () => {
    const party = (address: string): Party => ({ type: 'Address', address })
    const before = initialDatum(
      when([onDeposit(party(SELLER.enterprise), party(BUYER.enterprise), ADA, PRICE, CLOSE)], slotTime(10_000))
    )
    const closing = reviewTransaction(marloweApplyTx(createId, { before, continuation: false }), resolved(before))
    const result = closing.marlowe.steps[0]?.result
    expect(result).toMatchObject({ type: 'success', closes: true })
    if (result?.type !== 'success') throw new Error('not a success')
    expect(result.payments).toEqual([
      encodePayment({
        from: party(SELLER.enterprise),
        to: { type: 'Party', party: party(SELLER.enterprise) },
        token: ADA,
        amount: MIN_ADA + PRICE
      })
    ])
    expect(result.continuingOutput).toBeUndefined()
    expect(closing.warnings).toEqual([])

    const leftover = reviewTransaction(marloweApplyTx(createId, { before }), resolved(before))
    expect(leftover.marlowe.steps[0]?.result).toMatchObject({
      closes: true,
      continuingOutput: 0n,
      continuationMatches: false
    })
    expect(leftover.warnings.map((w) => w.message)).toContain(
      `The Marlowe validator will fail at ${createId}#0: the contract closes, yet output 0 goes back to the Marlowe script.`
    )
  })

  it('needs era summaries to read the validity interval as Marlowe time', () => {
    const review = reviewTransaction(marloweApplyTx(createId), { ...resolved(), eraSummaries: [] })
    expect(review.marlowe.steps[0]?.result).toEqual({
      type: 'not-run',
      reason: 'Marlowe needs a validity interval bounded on both sides, and era summaries to read it as time'
    })
  })
})

describe('Marlowe apply: arithmetic beyond the limit', () => {
  const addressParty = (k: { enterprise: string }): Party => ({ type: 'Address', address: k.enterprise })
  // The escrow's deposit case, then `Let` squaring: each step doubles the number's length.
  const squaringAfterDeposit = (steps: number) =>
    initialDatum(
      when([onDeposit(addressParty(SELLER), addressParty(BUYER), ADA, PRICE, squaring(steps))], slotTime(10_000))
    )

  it('is not run, and says where and how large the value is', () => {
    for (const steps of [12, 30, 60]) {
      const before = squaringAfterDeposit(steps)
      const tx = marloweApplyTx(createId, { before, outputDatum: encodeMarloweData(initialDatum()) })
      const review = reviewTransaction(tx, resolved(before))
      const path = `contract.when[0].then${'.then'.repeat(12)}.be`
      expect(review.marlowe.steps[0]?.result).toEqual({
        type: 'not-run',
        reason: `the contract computes a value beyond what Marlowe Desk evaluates (${path}: a value of 6493 bits, over the limit of 4096 bits)`
      })
    }
  })

  it('runs up to the limit', () => {
    const before = squaringAfterDeposit(11)
    const tx = marloweApplyTx(createId, { before, continuation: false })
    const result = reviewTransaction(tx, resolved(before)).marlowe.steps[0]?.result
    expect(result).toMatchObject({ type: 'success', closes: true })
    if (result?.type === 'success') expect(result.warnings).toHaveLength(11)
  })
})

describe('Marlowe apply: several inputs from the semantics script', () => {
  it('runs the semantics once: the validator fails on a second input from its script', () => {
    const before = initialDatum()
    const datum = encodeMarloweData(before)
    const redeemer = encodeRedeemer([DEPOSIT])
    const body: Entries = [
      [0, { tag: 258, value: [0, 1, 2].map((i) => [unhex(TX_C), i]) }],
      [1, [[OWN_ADDRESS, 1_000_000]]],
      [2, 200_000],
      [3, APPLY_END],
      [8, APPLY_START]
    ]
    const redeemers = [0, 1, 2].map((i) => [0, i, { raw: redeemer }, [1, 1]])
    const tx = craft(body, {
      witnessSet: [
        [4, [{ raw: datum }]],
        [5, redeemers]
      ]
    })
    const resolvedInputs = [0, 1, 2].map((index) => ({
      ref: { txId: TX_C, index },
      address: scriptAddress(SEMANTICS),
      value: { lovelace: MIN_ADA, assets: {} },
      datumHash: datumHashHex(datum)
    }))
    const steps = reviewTransaction(tx, { ...KNOWN, resolvedInputs }).marlowe.steps
    expect(steps.map((step) => step.result.type)).toEqual(['success', 'not-run', 'not-run'])
    expect(steps[1]?.result).toEqual({
      type: 'not-run',
      reason:
        'the transaction spends another input from the same Marlowe script, and the validator accepts only one (it fails with "w")'
    })
  })
})

describe('Marlowe role payout withdrawal', () => {
  it('names the role whose payout is withdrawn', () => {
    const review = reviewTransaction(payoutWithdrawTx(), {
      resolvedInputs: payoutWithdrawInputs(),
      wallets: [{ id: 'me', keyHashes: [SELLER.hash] }]
    })
    expect(review.marlowe.withdrawals).toEqual([
      { input: { txId: TX_C, index: 1n }, rolesCurrency: ROLES_CURRENCY, role: 'Seller' }
    ])
    const payout = review.inputs.find((i) => i.ref.txId === TX_C)
    expect(payout?.address).toMatchObject({ scriptName: 'marlowe-payout', payment: { hash: PUBLISHED_PAYOUT_HASH } })
    expect(payout?.datum?.content).toEqual({ type: 'marlowe-payout', rolesCurrency: ROLES_CURRENCY, role: 'Seller' })
    expect(review.netEffect[0]).toMatchObject({ wallet: 'me', lovelace: 2_400_000n - 12_000_000n, assets: [] })
    // The collateral input holds the role token and there is no collateral return.
    expect(review.warnings.map((w) => [w.code, w.severity])).toEqual([['collateral-has-tokens', 'danger']])
  })
})
