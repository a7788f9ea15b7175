/**
 * The desk's "burn the role tokens of closed contracts": over the desk's wire, a wallet holding tokens of a closed
 * contract and of an open one gets a reviewed burn of the closed contract's tokens only, signs it, and after
 * confirmation holds the open contract's token alone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import { bytesToHex, utf8Encode } from '../../../src/core/bytes'
import { deskHarness, notify, PASSWORD, type DeskHarness } from './support'

let h: DeskHarness
let sam: WalletSummary
const hex = (s: string): string => bytesToHex(utf8Encode(s)!)

async function signed(txId: string): Promise<void> {
  await h.ok('tx.review', { txId })
  await h.ok('tx.signAndSubmit', { txId, walletId: sam.id, password: PASSWORD })
  await h.opened.follower.sync()
}

/** A contract with role Buyer minted to sam; closed by a notify when `close`. Returns its roles currency. */
async function rolesContract(close: boolean): Promise<string> {
  const roles = {
    type: 'Mint' as const,
    roles: [{ name: 'Buyer', recipients: [{ destination: { address: sam.address }, quantity: 1n }] }]
  }
  const created = await h.opened.service.createContract(
    { changeAddress: sam.address },
    { contract: notify(1n), roles, tags: {}, metadata: {} }
  )
  await signed(created.contractId.slice(0, 64))
  if (close) {
    const applied = await h.opened.service.applyInputs(
      created.contractId,
      { changeAddress: sam.address },
      { inputs: [{ content: { type: 'INotify' } }], tags: {}, metadata: {} }
    )
    await signed(applied.transactionId)
  }
  return (await h.opened.service.getContract(created.contractId)).rolesCurrency
}

beforeAll(async () => {
  h = await deskHarness()
  sam = (await h.ok('wallets.create', { name: 'sam', password: PASSWORD })).wallet
  await h.ok('sandbox.fund', { walletId: sam.id, ada: 100n })
  await h.opened.follower.sync()
})
afterAll(() => h.close())

describe('roles.burnClosed', () => {
  test("burns the closed contract's tokens and keeps the open one's", async () => {
    await h.fails('roles.burnClosed', { walletId: sam.id }, 'BurnNoTokensToBurn')
    const closed = await rolesContract(true)
    const open = await rolesContract(false)
    const prepared = await h.ok('roles.burnClosed', { walletId: sam.id })
    expect(prepared.kind).toBe('burn')
    expect(prepared.review.mint.map((m) => [m.policyId, m.assets.map((a) => [a.assetNameText, a.quantity])])).toEqual([
      [closed, [['Buyer', -1n]]]
    ])
    await signed(prepared.txId)
    const balance = await h.ok('wallets.balance', { walletId: sam.id })
    const held = JSON.stringify(balance, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    expect(held).not.toContain(closed)
    expect(held).toContain(open)
    expect(held).toContain(hex('Buyer'))
    await h.fails('roles.burnClosed', { walletId: sam.id }, 'BurnNoTokensToBurn')
    await h.fails('roles.burnClosed', { walletId: 'no such wallet' }, 'InvalidRequest')
  })
})
