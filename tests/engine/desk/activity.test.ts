/**
 * A wallet's activity on the sandbox, through the wire dispatcher: its own builds newest first (unsigned,
 * submitted, confirmed, with the contract each opened), never a discarded one nor another wallet's, a page at a
 * time without repeats, and bad pages refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WalletSummary } from '../../../src/api/contract'
import type { SandboxProvider } from '../../../src/chain/sandbox'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { ADA } from '../build/support'
import { deskHarness, notify, PASSWORD, type DeskHarness } from './support'

let h: DeskHarness
let sam: WalletSummary
let ola: WalletSummary

/** Builds a contract for `wallet` a minute after the last one; its transaction id. */
async function build(wallet: WalletSummary, days: bigint): Promise<string> {
  h.clock.ms += 60_000n
  const prepared = await h.ok('contracts.create', {
    walletId: wallet.id,
    contractJson: stringifyContract(notify(days)),
    roles: [],
    tags: []
  })
  return prepared.txId
}

beforeAll(async () => {
  h = await deskHarness()
  sam = (await h.ok('wallets.create', { name: 'sam', password: PASSWORD })).wallet
  ola = (await h.ok('wallets.create', { name: 'ola', password: PASSWORD })).wallet
  const sandbox = h.provider as SandboxProvider
  for (const lovelace of [40n * ADA, 30n * ADA, 20n * ADA]) await sandbox.fund(sam.address, lovelace)
  await sandbox.fund(ola.address, 40n * ADA)
})
afterAll(() => h.close())

describe('wallets.activity', () => {
  test('the wallet’s own transactions, newest first, what each did; never a discarded one nor another’s', async () => {
    const first = await build(sam, 5n)
    await h.ok('tx.review', { txId: first })
    expect((await h.ok('tx.signAndSubmit', { txId: first, walletId: sam.id, password: PASSWORD })).status).toBe(
      'submitted'
    )
    const discarded = await build(sam, 6n)
    await h.ok('tx.discard', { txId: discarded })
    const draft = await build(sam, 7n)
    const others = await build(ola, 8n)

    const page = await h.ok('wallets.activity', { walletId: sam.id, offset: 0, limit: 10 })
    expect(page.total).toBe(2)
    expect(page.items.map((i) => i.txId)).toEqual([draft, first])
    expect(page.items[0]).toEqual({
      txId: draft,
      kind: 'create',
      contractId: `${draft}#0`,
      status: 'unsigned',
      origin: 'built',
      at: h.clock.ms - 60_000n
    })
    expect(page.items[1]).toMatchObject({ txId: first, kind: 'create', contractId: `${first}#0`, origin: 'built' })
    expect(['submitted', 'confirmed']).toContain(page.items[1]!.status)

    const olas = await h.ok('wallets.activity', { walletId: ola.id, offset: 0, limit: 10 })
    expect(olas.items.map((i) => i.txId)).toEqual([others])
  })

  test('pages: each item once, in order, and the total', async () => {
    const all = (await h.ok('wallets.activity', { walletId: sam.id, offset: 0, limit: 100 })).items.map((i) => i.txId)
    const one = await h.ok('wallets.activity', { walletId: sam.id, offset: 0, limit: 1 })
    const two = await h.ok('wallets.activity', { walletId: sam.id, offset: 1, limit: 1 })
    const past = await h.ok('wallets.activity', { walletId: sam.id, offset: 5, limit: 1 })
    expect([...one.items, ...two.items].map((i) => i.txId)).toEqual(all)
    expect(one.total).toBe(all.length)
    expect(past).toEqual({ items: [], total: all.length })
  })

  test('a bad page or wallet is refused in words', async () => {
    await h.fails('wallets.activity', { walletId: sam.id, offset: 0, limit: 0 }, 'InvalidRequest')
    await h.fails('wallets.activity', { walletId: sam.id, offset: 0, limit: 101 }, 'InvalidRequest')
    await h.fails('wallets.activity', { walletId: sam.id, offset: -1, limit: 10 }, 'InvalidRequest')
    await h.fails('wallets.activity', { walletId: sam.id, offset: 0.5, limit: 10 }, 'InvalidRequest')
    await h.fails('wallets.activity', { walletId: sam.id }, 'InvalidRequest')
    const unknown = await h.fails(
      'wallets.activity',
      { walletId: 'ab'.repeat(20), offset: 0, limit: 10 },
      'WalletNotFound'
    )
    expect(unknown.message).toContain('ab'.repeat(20))
  })
})
