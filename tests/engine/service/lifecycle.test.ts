/**
 * The service operations over a sandbox and a real store (a SQLite file, and a PostgreSQL database): a roles escrow from creation to withdrawal,
 * with each step built, stored, signed as a CIP-30 wallet would, submitted, and followed to confirmation.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { ESCROW_CHOICES } from '../../../src/core/marlowe/examples'
import { ADA as ADA_TOKEN, type Input } from '../../../src/core/marlowe/types'
import { parseRef } from '../../../src/engine/build'
import { rolesEscrow } from '../build/flows'
import { ADA, testWallet } from '../build/support'
import { choose, escrowRoles, role, serviceHarness, type ServiceHarness, storeKinds, witnessed } from './support'

const alice = testWallet('alice')
const bob = testWallet('bob')
const carol = testWallet('carol')

let h: ServiceHarness
afterEach(async () => {
  await h.close()
  await h.sandbox.close()
})

describe.each(storeKinds())('MarloweService on the sandbox, stored in $name', ({ available, storeUrl }) => {
  test.skipIf(!available)('escrow: create → submit → confirmed → deposit → choices → payout → withdraw', async () => {
    h = await serviceHarness({ storeUrl: await storeUrl() })
    const { service, follower } = h
    const created = await service.createContract(
      { changeAddress: carol.address },
      {
        contract: rolesEscrow(),
        roles: escrowRoles(),
        tags: { 'desk.test': null },
        metadata: {}
      }
    )
    expect(created.contractId).toMatch(/^[0-9a-f]{64}#0$/)
    let view = service.getContract(created.contractId)
    expect((await view).status).toBe('unsigned')
    expect((await view).unsigned?.tx).toEqual(created.unsigned.tx)
    expect((await view).current?.utxo).toBeUndefined()
    expect(await service.listContracts()).toEqual([])

    await service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [carol]))
    expect((await service.getContract(created.contractId)).status).toBe('submitted')
    await expect(
      service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [carol]))
    ).rejects.toMatchObject({ kind: 'Conflict', code: 'AlreadySubmitted' })

    expect((await follower.sync()).confirmed).toEqual([created.contractId.slice(0, 64)])
    view = service.getContract(created.contractId)
    expect((await view).status).toBe('confirmed')
    expect((await view).block?.blockHash).toMatch(/^[0-9a-f]{64}$/)
    expect((await view).current?.utxo).toBe(created.contractId)
    expect((await view).unsigned).toBeUndefined()
    expect((await service.listContracts()).map((c) => c.contractId)).toEqual([created.contractId])
    expect(await service.listContracts({ tags: ['other'] })).toEqual([])
    expect(
      await service.listContracts({ partyRoles: [{ policyId: (await view).rolesCurrency, role: 'Buyer' }] })
    ).toHaveLength(1)

    const next = service.next(created.contractId, { interval: { from: h.clock.ms, to: h.clock.ms + 1000n } })
    expect((await next).applicableInputs.deposits).toHaveLength(1)
    expect((await next).applicableInputs.deposits[0]?.canDeposit).toBe(100n * ADA)

    const step = async (wallet: typeof alice, inputs: Input[]) => {
      const built = await service.applyInputs(
        created.contractId,
        { changeAddress: wallet.address },
        { inputs, tags: {}, metadata: {} }
      )
      expect((await service.getTransaction(created.contractId, built.transactionId)).status).toBe('unsigned')
      await service.submitBuild(built.transactionId, witnessed(built.unsigned.tx, [wallet]))
      await follower.sync()
      return service.getTransaction(created.contractId, built.transactionId)
    }
    const c = ESCROW_CHOICES
    const deposit: Input = {
      content: { type: 'IDeposit', account: role('Seller'), party: role('Buyer'), token: ADA_TOKEN, amount: 100n * ADA }
    }
    const paid = await step(alice, [deposit])
    expect(paid.status).toBe('confirmed')
    expect(paid.inputUtxo).toBe(created.contractId)
    expect((await service.getContract(created.contractId)).current?.utxo).toBe(paid.output?.utxo)
    await step(alice, [choose(c.reportProblem.name, role('Buyer'), c.reportProblem.chosen)])
    await step(bob, [choose(c.disputeProblem.name, role('Seller'), c.disputeProblem.chosen)])
    const closed = await step(carol, [choose(c.dismissClaim.name, role('Mediator'), c.dismissClaim.chosen)])
    expect(closed.output).toBeUndefined()
    expect(closed.payouts.map((p) => [p.role, p.assets.lovelace, p.status])).toEqual([
      ['Seller', 100n * ADA, 'available']
    ])
    expect((await service.getTransaction(created.contractId, paid.transactionId)).consumingTx).toBeDefined()
    const txs = await service.listTransactions(created.contractId)
    expect(txs).toHaveLength(4)
    expect(txs[0]?.transactionId).toBe(closed.transactionId)
    const contract = service.getContract(created.contractId)
    expect((await contract).current).toBeUndefined()
    expect((await contract).assets).toEqual({ lovelace: 0n, assets: {} })
    expect((await contract).unclaimedPayouts.map((p) => p.payoutId)).toEqual([closed.payouts[0]?.payoutId])
    await expect(service.next(created.contractId, { interval: { from: 0n, to: 1n } })).rejects.toThrow(
      expect.objectContaining({ code: 'contractClosed' })
    )
    await expect(
      service.applyInputs(created.contractId, { changeAddress: alice.address }, { inputs: [], tags: {}, metadata: {} })
    ).rejects.toMatchObject({ code: 'ScriptOutputNotFound' })

    const payoutId = closed.payouts[0]!.payoutId
    expect((await service.listPayouts({ status: 'available' })).map((p) => p.payoutId)).toEqual([payoutId])
    const withdrawal = await service.withdraw({ changeAddress: bob.address }, { payouts: [parseRef(payoutId)!] })
    expect((await service.getWithdrawal(withdrawal.withdrawalId)).status).toBe('unsigned')
    await service.submitBuild(withdrawal.withdrawalId, witnessed(withdrawal.unsigned.tx, [bob]))
    await follower.sync()
    const done = service.getWithdrawal(withdrawal.withdrawalId)
    expect((await done).status).toBe('confirmed')
    expect((await done).payouts.map((p) => [p.payoutId, p.status, p.withdrawalId])).toEqual([
      [payoutId, 'withdrawn', withdrawal.withdrawalId]
    ])
    expect((await service.getPayout(payoutId)).status).toBe('withdrawn')
    expect((await service.getContract(created.contractId)).unclaimedPayouts).toEqual([])
    expect((await service.listWithdrawals([(await contract).rolesCurrency])).map((w) => w.withdrawalId)).toEqual([
      withdrawal.withdrawalId
    ])
    expect(await service.listWithdrawals(['00'.repeat(28)])).toEqual([])
  })
})
