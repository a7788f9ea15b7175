/**
 * The sandbox running validators it was given (a directory of TextEnvelopes, as `validators fetch` writes) instead
 * of the stand-ins: the deployment follows what was deployed, and a whole lifecycle spends through those scripts.
 * The scripts here are always-succeeding ones of other hashes: the real validators are never committed.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { deploymentOf, marloweDeployment, payoutValidatorAddress } from '../../../src/chain/deployments'
import { bytesToHex } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { ESCROW_CHOICES } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, type Input, type Party } from '../../../src/core/marlowe/types'
import { testValidators, writeTestValidatorDir } from '../../chain/support/validators'
import { expectValidApply, expectValidCreate, expectValidWithdraw, rolesEscrow } from './flows'
import { ADA, harness, testWallet, type Harness } from './support'

const role = (name: string): Party => ({ type: 'Role', role: name })

const alice = testWallet('alice')
const bob = testWallet('bob')
const given = testValidators('given validators')
const dir = writeTestValidatorDir(given)

let h: Harness
afterEach(async () => h.close())

describe('a sandbox given validators', () => {
  test('deploys them at its reference outputs, and its deployment names their hashes', async () => {
    h = harness({}, { validators: dir })
    const d = deploymentOf(h.sandbox)
    expect(d.standIn).toBe(false)
    expect([d.semantics.hash, d.payout.hash, d.openRole.hash]).toEqual([
      given.semantics.hash,
      given.payout.hash,
      given.openRole.hash
    ])
    const standIn = marloweDeployment('sandbox')
    expect(d.semantics.hash).not.toBe(standIn.semantics.hash)
    expect(d.semantics.reference).toEqual(standIn.semantics.reference)
    for (const role of ['semantics', 'payout', 'openRole'] as const) {
      const [utxo] = await h.sandbox.utxosByRef([d[role].reference])
      expect(bytesToHex(utxo!.scriptRef!.bytes)).toBe(bytesToHex(given[role].bytes))
    }
  })

  test('create → deposit → choice → withdraw spends through the given scripts', async () => {
    h = harness({}, { validators: dir })
    const d = deploymentOf(h.sandbox)
    const recipient = (w: typeof alice) => [{ destination: { address: w.address }, quantity: 1n }]
    const created = await h.builder.create(
      { changeAddress: alice.address },
      {
        contract: rolesEscrow(),
        roles: {
          type: 'Mint',
          roles: [
            { name: 'Buyer', recipients: recipient(alice) },
            { name: 'Seller', recipients: recipient(bob) },
            { name: 'Mediator', recipients: recipient(alice) }
          ]
        }
      }
    )
    expectValidCreate(h, created)
    expect(decodeTransaction(created.tx).body.outputs[0]!.address.payment).toEqual({
      type: 'script',
      hash: given.semantics.hash
    })
    await h.submit(created, [alice])

    let current = created.contractId
    let datum = created.datumBytes
    const step = async (inputs: Input[]) => {
      const built = await h.builder.applyInputs(
        { changeAddress: alice.address },
        { contractId: created.contractId, marloweUtxo: current, datum, inputs }
      )
      await expectValidApply(h, built, inputs)
      expect(decodeTransaction(built.tx).body.referenceInputs).toContainEqual(d.semantics.reference)
      await h.submit(built, [alice])
      if (built.output !== undefined) {
        current = built.output.ref
        datum = built.output.datumBytes
      }
      return built
    }
    await step([
      {
        content: {
          type: 'IDeposit',
          account: role('Seller'),
          party: role('Buyer'),
          token: ADA_TOKEN,
          amount: 100n * ADA
        }
      }
    ])
    const { name, chosen } = ESCROW_CHOICES.everythingIsAlright
    const closed = await step([{ content: { type: 'IChoice', choice: { name, owner: role('Buyer') }, chosen } }])
    expect(closed.output).toBeUndefined()
    const [payout] = await h.sandbox.utxosByRef([closed.payouts[0]!.ref])
    expect(payout?.address).toBe(payoutValidatorAddress(d))

    const withdrawn = await h.builder.withdraw({ changeAddress: bob.address }, { payouts: [closed.payouts[0]!.ref] })
    await expectValidWithdraw(h, withdrawn)
    expect(decodeTransaction(withdrawn.tx).body.referenceInputs).toContainEqual(d.payout.reference)
    await h.submit(withdrawn, [bob])
    expect(await h.sandbox.txStatus(withdrawn.txId)).toMatchObject({ status: 'confirmed' })
  })
})
