/**
 * The roles escrow's steps through a service: created by carol, inputs applied by a wallet, each followed; and
 * its end played between our service and another builder, checked at each step (test-only: uses vitest).
 */
import { expect } from 'vitest'
import { ESCROW_CHOICES } from '../../../src/core/marlowe/examples'
import type { Input } from '../../../src/core/marlowe/types'
import { parseRef } from '../../../src/engine/build'
import type { OpenService } from '../../../src/engine/service'
import { rolesEscrow } from '../build/flows'
import { testWallet, type TestWallet } from '../build/support'
import { choose, escrowRoles, role, witnessed } from './support'

/** The roles escrow created by carol (roles to alice, bob and carol), signed, submitted and followed. */
export async function createEscrow(h: Pick<OpenService, 'service' | 'follower'>): Promise<string> {
  const created = await h.service.createContract(
    { changeAddress: testWallet('carol').address },
    {
      contract: rolesEscrow(),
      roles: escrowRoles(),
      tags: { 'desk.test': 'from another builder' },
      metadata: { '674': { msg: ['an escrow'] } }
    }
  )
  await h.service.submitBuild(created.contractId.slice(0, 64), witnessed(created.unsigned.tx, [testWallet('carol')]))
  await h.follower.sync()
  return created.contractId
}

/** Applies `inputs` as `wallet`: built, signed, submitted and followed; the transaction's id. */
export async function applyAs(
  h: Pick<OpenService, 'service' | 'follower'>,
  contractId: string,
  wallet: TestWallet,
  inputs: Input[]
): Promise<string> {
  const built = await h.service.applyInputs(
    contractId,
    { changeAddress: wallet.address },
    { inputs, tags: {}, metadata: {} }
  )
  await h.service.submitBuild(built.transactionId, witnessed(built.unsigned.tx, [wallet]))
  await h.follower.sync()
  return built.transactionId
}

type Builder = Pick<OpenService, 'service' | 'follower'>

/**
 * The escrow's end once the deposit is in: the other builder reports and disputes, ours follows each step and
 * closes it (the mediator dismisses the claim), the other builder withdraws the payout and ours sees it
 * withdrawn.
 */
export async function finishWithOther(desk: Builder, other: Builder, contractId: string): Promise<void> {
  const c = ESCROW_CHOICES
  const reported = await applyAs(other, contractId, testWallet('alice'), [
    choose(c.reportProblem.name, role('Buyer'), c.reportProblem.chosen)
  ])
  expect((await desk.follower.sync()).recorded).toEqual([reported])
  expect((await desk.service.getContract(contractId)).current?.utxo).toBe(`${reported}#0`)
  await applyAs(other, contractId, testWallet('bob'), [
    choose(c.disputeProblem.name, role('Seller'), c.disputeProblem.chosen)
  ])
  await desk.follower.sync()
  const closed = await applyAs(desk, contractId, testWallet('carol'), [
    choose(c.dismissClaim.name, role('Mediator'), c.dismissClaim.chosen)
  ])
  expect((await desk.service.listTransactions(contractId)).map((t) => t.transactionId)[0]).toBe(closed)
  expect(await desk.service.listTransactions(contractId)).toHaveLength(4)
  expect((await desk.service.getContract(contractId)).current).toBeUndefined()

  const payoutId = (await desk.service.getTransaction(contractId, closed)).payouts[0]!.payoutId
  await other.follower.sync()
  expect((await other.service.getPayout(payoutId)).status).toBe('available')
  const bob = testWallet('bob')
  const withdrawal = await other.service.withdraw({ changeAddress: bob.address }, { payouts: [parseRef(payoutId)!] })
  await other.service.submitBuild(withdrawal.withdrawalId, witnessed(withdrawal.unsigned.tx, [bob]))
  expect((await desk.follower.sync()).recorded).toEqual([withdrawal.withdrawalId])
  expect(await desk.service.getPayout(payoutId)).toMatchObject({
    status: 'withdrawn',
    withdrawalId: withdrawal.withdrawalId
  })
  expect((await desk.service.getWithdrawal(withdrawal.withdrawalId)).payouts.map((p) => p.payoutId)).toEqual([payoutId])
  expect((await desk.service.getContract(contractId)).unclaimedPayouts).toEqual([])
}
