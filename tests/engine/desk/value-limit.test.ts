/**
 * Marlowe arithmetic beyond the core's limit, through the desk API as the window calls it (issue 13): creating
 * such a contract is a readable `MarloweValueTooLarge` failure, and a review bundle whose transaction would square
 * a number thirty times is reviewed at once, saying what it could not check and why, instead of blocking the
 * engine for minutes and answering hundreds of megabytes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { deploymentOf } from '../../../src/chain/deployments'
import { stringifyBundle } from '../../../src/core/cardano/bundle'
import { onDeposit, when } from '../../../src/core/marlowe/examples/dsl'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { encodeMarloweData } from '../../../src/core/marlowe/plutus/marlowe-data'
import { ADA, type Party } from '../../../src/core/marlowe/types'
import {
  BUYER,
  ERAS,
  FAKE_SEMANTICS,
  PRICE,
  SELLER,
  initialDatum,
  marloweApplyInputs,
  marloweApplyTx,
  marloweCreateTx,
  scriptAddress,
  scriptHash,
  slotTime,
  txIdOf
} from '../../core/cardano/tx/fixtures'
import { squaring } from '../../support/arithmetic'
import { deskHarness, restoreSandboxWallet, type DeskHarness } from './support'

const TWELFTH = `${'.then'.repeat(12)}.be`

let h: DeskHarness
let walletId = ''
beforeAll(async () => {
  h = await deskHarness()
  walletId = (await restoreSandboxWallet(h, 'alice')).id
})
afterAll(() => h.close())

describe('the desk API', () => {
  test('contracts.create: a sentence naming the path and the size, and its details', async () => {
    const error = await h.fails(
      'contracts.create',
      { walletId, contractJson: stringifyContract(squaring(40)), roles: [], tags: [] },
      'MarloweValueTooLarge'
    )
    expect(error.message).toBe(
      `The Marlowe contract computes a value of 6493 bits at contract${TWELFTH}, over the limit of 4096 bits.`
    )
    expect(error.details).toEqual({ path: `contract${TWELFTH}`, bits: 6493n, limitBits: 4096n })
  })

  test('tx.import: a bundle that squares thirty times is reviewed, the step not run, saying why', async () => {
    const party = (k: { enterprise: string }): Party => ({ type: 'Address', address: k.enterprise })
    const contract = when([onDeposit(party(SELLER), party(BUYER), ADA, PRICE, squaring(30))], slotTime(10_000))
    const before = initialDatum(contract)
    const createId = txIdOf(marloweCreateTx(scriptHash(FAKE_SEMANTICS)))
    // The spent output read as sitting at this Desk's Marlowe semantics script, with `before` as its datum.
    const tx = marloweApplyTx(createId, { before, outputDatum: encodeMarloweData(initialDatum()) })
    const [spent, ...others] = marloweApplyInputs(createId, before)
    const semantics = scriptAddress(deploymentOf(h.opened.service.provider).semantics.hash)
    const text = stringifyBundle({
      tx,
      era: 'Conway',
      network: 'sandbox',
      createdAt: '2025-01-01T00:00:00.000Z',
      resolvedInputs: [{ ...spent!, address: semantics }, ...others],
      eraSummaries: ERAS
    })
    const imported = await h.ok('tx.import', { text })
    const [step] = imported.review.marlowe.steps
    expect(step?.datumSource).toBe('witness-set')
    expect(step?.result).toEqual({
      type: 'not-run',
      reason: `the contract computes a value beyond what Marlowe Desk evaluates (contract.when[0].then${TWELFTH}: a value of 6493 bits, over the limit of 4096 bits)`
    })
  })

  test('nothing above was an unexpected error', () => {
    expect(h.logged).toEqual([])
  })
})
