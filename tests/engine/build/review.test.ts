/**
 * The review model of the transactions our own builder makes on the sandbox: a signer sees the contract
 * opened, each step's inputs and payments, the payout withdrawn — decoded from the bytes, with the script
 * data hash recomputed and no serious warning.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { encodeInt } from '../../../src/core/cardano/cbor'
import type { TxReview } from '../../../src/core/cardano/review/types'
import { ESCROW_CHOICES } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, type Input, type Party } from '../../../src/core/marlowe/types'
import { rolesEscrow } from './flows'
import { ADA, harness, reviewFor, sign, testWallet, type Harness, type TestWallet } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')
const role = (name: string): Party => ({ type: 'Role', role: name })

let h: Harness
afterEach(async () => h.close())

const review = (tx: Uint8Array, wallet: TestWallet): Promise<TxReview> => reviewFor(h, tx, wallet)

/**
 * The builder's fee against the review's ledger minimum on the signed tx, to the lovelace: script and
 * reference-script fees round alike in both, and the only excess is the fee field CSL sizes as a full
 * 8-byte integer while estimating (`minFeeA` per byte the real fee encodes shorter).
 */
async function expectMinimumFee(tx: Uint8Array, wallet: TestWallet): Promise<void> {
  const { fee } = await review(sign(tx, [wallet]), wallet)
  const { minFeeA } = await h.sandbox.protocolParameters()
  const reservedFieldBytes = BigInt(9 - encodeInt(fee.fee).length)
  expect(fee.scriptFee).toBeGreaterThan(0n)
  expect(fee.minimum).toBe(fee.fee - minFeeA * reservedFieldBytes)
}

function serious(r: TxReview): string[] {
  return r.warnings.filter((w) => w.severity === 'danger').map((w) => w.message)
}

describe('review of builder transactions', () => {
  test('create, deposit, choices and withdraw read back as what they do', async () => {
    h = harness()
    const contract = rolesEscrow()
    const recipients = (w: TestWallet) => [{ destination: { address: w.address }, quantity: 1n }]
    const created = await h.builder.create(
      { changeAddress: carol.address },
      {
        contract,
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: recipients(alice) },
            { name: 'Seller', recipients: recipients(bob) },
            { name: 'Mediator', recipients: recipients(carol) }
          ]
        },
        tags: { 'desk.review': null }
      }
    )
    const opened = await review(created.tx, carol)
    expect(opened.txId).toBe(created.txId)
    expect(serious(opened)).toEqual([])
    expect(opened.scriptDataHash.status).toBe('match')
    expect(opened.marlowe.created).toEqual([
      expect.objectContaining({ output: 0n, rolesCurrency: created.rolesCurrency })
    ])
    expect(opened.outputs[0]?.address.scriptName).toBe('marlowe-semantics')
    expect(opened.outputs[0]?.datum?.content?.type).toBe('marlowe-data')
    expect(opened.mint.flatMap((m) => m.assets.map((a) => a.assetNameText)).sort()).toEqual([
      'Buyer',
      'Mediator',
      'Seller'
    ])
    expect(opened.metadata?.marlowe?.tags.map((t) => t.tag)).toEqual(['desk.review'])
    expect(opened.witnesses.needed.find((n) => n.wallet === 'carol')?.signed).toBe(false)
    expect(opened.netEffect.find((e) => e.wallet === 'carol')?.complete).toBe(true)
    await expectMinimumFee(created.tx, carol)
    await h.submit(created, [carol])

    let current = created.contractId
    let datum = created.datumBytes
    let payouts: readonly { ref: { txId: string; index: number } }[] = []
    const step = async (wallet: TestWallet, inputs: Input[]): Promise<TxReview> => {
      const built = await h.builder.applyInputs(
        { changeAddress: wallet.address },
        { contractId: created.contractId, marloweUtxo: current, datum, inputs }
      )
      const r = await review(built.tx, wallet)
      await expectMinimumFee(built.tx, wallet)
      await h.submit(built, [wallet])
      payouts = built.payouts
      if (built.output !== undefined) {
        current = built.output.ref
        datum = built.output.datumBytes
      }
      return r
    }
    const deposit: Input = {
      content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
    }
    const paid = await step(alice, [deposit])
    expect(serious(paid)).toEqual([])
    expect(paid.scriptDataHash.status).toBe('match')
    const [payStep] = paid.marlowe.steps
    expect(payStep?.datumSource).toBe('witness-set')
    expect(payStep?.inputs).toHaveLength(1)
    expect(payStep?.result).toMatchObject({ type: 'success', closes: false, continuationMatches: true })
    expect(paid.redeemers.find((r) => r.marloweInputs !== undefined)?.marloweInputs).toHaveLength(1)

    const c = ESCROW_CHOICES
    const choose = (name: string, owner: Party, chosen: bigint): Input => ({
      content: { type: 'IChoice', choice: { name, owner }, chosen }
    })
    const confirmed = await step(alice, [
      choose(c.everythingIsAlright.name, role('Buyer'), c.everythingIsAlright.chosen)
    ])
    expect(serious(confirmed)).toEqual([])
    const result = confirmed.marlowe.steps[0]?.result
    if (result?.type !== 'success') throw new Error(`the review could not run the step: ${JSON.stringify(result)}`)
    expect(result.closes).toBe(true)
    expect(result.payments.length).toBeGreaterThan(0)

    const withdrawn = await h.builder.withdraw({ changeAddress: bob.address }, { payouts: payouts.map((p) => p.ref) })
    const w = await review(withdrawn.tx, bob)
    expect(serious(w)).toEqual([])
    expect(w.marlowe.withdrawals).toEqual([
      expect.objectContaining({ rolesCurrency: created.rolesCurrency, role: 'Seller' })
    ])
    expect(w.inputs.find((i) => i.owner === 'script')?.address?.scriptName).toBe('marlowe-payout')
    await expectMinimumFee(withdrawn.tx, bob)
    await h.submit(withdrawn, [bob])
  })
})
