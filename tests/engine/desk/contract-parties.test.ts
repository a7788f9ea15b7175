/**
 * A wallet's place in its contracts: which of its role tokens and addresses are parties (in the list and in one
 * contract), when each contract was created, and unsigned creations (drafts) listed for the wallet that built them
 * only — whoever they name as parties.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ContractListItem, WalletSummary } from '../../../src/api/contract'
import { CLOSE, ADA as ADA_TOKEN, type Party } from '../../../src/core/marlowe/types'
import { onDeposit, when } from '../../../src/core/marlowe/examples/dsl'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { rolesEscrow } from '../build/flows'
import { ADA, T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

const DAY = 86_400_000n
const ids = (items: readonly ContractListItem[]): unknown[] => items.map((c) => c.header.contractId)

let h: DeskHarness
let alice: WalletSummary
let bob: WalletSummary
let carol: WalletSummary

beforeAll(async () => {
  h = await deskHarness()
  const restore = (name: 'alice' | 'bob' | 'carol') => restoreSandboxWallet(h, name)
  ;[alice, bob, carol] = [await restore('alice'), await restore('bob'), await restore('carol')]
})
afterAll(() => h.close())

describe("a wallet's contracts", () => {
  let escrowId: string
  let aliceDepositsId: string

  test('drafts: listed for the wallet that built them, not for the parties they name', async () => {
    const escrow = await h.ok('contracts.create', {
      walletId: carol.id,
      contractJson: stringifyContract(rolesEscrow()),
      roles: [
        { role: 'Buyer', address: alice.address },
        { role: 'Seller', address: bob.address },
        { role: 'Mediator', address: carol.address }
      ],
      tags: []
    })
    const aliceParty: Party = { type: 'Address', address: alice.address }
    const aliceDeposits = await h.ok('contracts.create', {
      walletId: carol.id,
      contractJson: stringifyContract(when([onDeposit(aliceParty, aliceParty, ADA_TOKEN, 5n * ADA, CLOSE)], T0 + DAY)),
      roles: [],
      tags: []
    })
    escrowId = escrow.contractId!
    aliceDepositsId = aliceDeposits.contractId!

    const carols = await h.ok('contracts.list', { walletId: carol.id })
    expect(ids(carols).sort()).toEqual([escrowId, aliceDepositsId].sort())
    // Not signed yet: carol holds no role token of them; her address is a party as the creator's deposit's account.
    expect(carols.map((c) => c.parties)).toEqual([[carol.address], [carol.address]])
    expect(carols.map((c) => c.createdAt)).toEqual([BigInt(h.clock.now()), BigInt(h.clock.now())])
    // Alice's address is a party of the second, but the draft is carol's.
    expect(await h.ok('contracts.list', { walletId: alice.id })).toEqual([])
    expect(await h.ok('contracts.list', { walletId: bob.id })).toEqual([])
  })

  test('on chain: each wallet’s role tokens or address in the list, with the creation’s block time', async () => {
    for (const txId of [escrowId, aliceDepositsId].map((id) => id.slice(0, 64))) {
      await h.ok('tx.signAndSubmit', { txId, walletId: carol.id, password: PASSWORD })
    }
    await h.opened.follower.sync()
    const alices = await h.ok('contracts.list', { walletId: alice.id })
    expect(new Map(alices.map((c) => [c.header.contractId, c.parties]))).toEqual(
      new Map([
        [escrowId, ['role:Buyer']],
        [aliceDepositsId, [alice.address]]
      ])
    )
    for (const c of alices) {
      // The sandbox's slots are a second long, from T0.
      expect(c.createdAt).toBe(T0 + c.header.block!.slot * 1000n)
    }
    const bobs = await h.ok('contracts.list', { walletId: bob.id })
    expect(bobs.map((c) => [c.header.contractId, c.parties])).toEqual([[escrowId, ['role:Seller']]])
  })

  test("pages of a wallet's list: its drafts among its contracts on chain, from any of them", async () => {
    // Built in the same millisecond as the two on chain: equal build times are in the store's order (creation tx
    // id) on every page, whichever of them a page starts after.
    const draft = await h.ok('contracts.create', {
      walletId: carol.id,
      contractJson: stringifyContract(when([], T0 + DAY)),
      roles: [],
      tags: []
    })
    const whole = ids(await h.ok('contracts.list', { walletId: carol.id }))
    expect(whole).toEqual([escrowId, aliceDepositsId, draft.contractId].sort().reverse())
    const walked: unknown[] = []
    let after: string | undefined
    for (;;) {
      const page = await h.ok('contracts.list', {
        walletId: carol.id,
        limit: 1,
        ...(after === undefined ? {} : { after })
      })
      walked.push(...ids(page))
      if (page.length < 1) break
      after = String(page[0]!.header['contractId'])
    }
    expect(walked).toEqual(whole)
    for (const [i, after] of whole.entries()) {
      expect(ids(await h.ok('contracts.list', { walletId: carol.id, after: String(after) }))).toEqual(
        whole.slice(i + 1)
      )
    }
    // A stored contract that is not in the wallet's list is no place to start its page.
    await h.fails('contracts.list', { walletId: alice.id, after: draft.contractId! }, 'ContractNotFound')
    await h.fails('contracts.list', { walletId: bob.id, after: aliceDepositsId, limit: 2 }, 'ContractNotFound')
  })

  test('one contract: the parties of the wallet asked about, none without one', async () => {
    expect((await h.ok('contracts.get', { contractId: escrowId, walletId: alice.id })).parties).toEqual(['role:Buyer'])
    expect((await h.ok('contracts.get', { contractId: escrowId, walletId: carol.id })).parties).toEqual([
      'role:Mediator',
      carol.address
    ])
    expect((await h.ok('contracts.get', { contractId: aliceDepositsId, walletId: bob.id })).parties).toEqual([])
    expect((await h.ok('contracts.get', { contractId: escrowId })).parties).toBeUndefined()
    await h.fails('contracts.get', { contractId: escrowId, walletId: 'nobody' }, 'InvalidRequest')
  })
})
