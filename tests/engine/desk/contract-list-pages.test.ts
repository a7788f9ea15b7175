/**
 * The app's list of contracts in pages (`contracts.list` with `limit` and `after`): walking the pages gives the
 * whole list once, in its order; a contract built between two pages does not shift the next page; a stored
 * contract that cannot be read back is passed over without shortening a page; a wallet's list pages the same way;
 * a wallet's page builds no other contract's view; an unknown `after` and a limit out of range are refused with a
 * clear error.
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { ContractListItem, WalletSummary } from '../../../src/api/contract'
import { SandboxProvider } from '../../../src/chain/sandbox'
import { ADA } from '../build/support'
import { deskHarness, notify, PASSWORD, type DeskHarness } from './support'

const BUILDS = 7

let h: DeskHarness
let sam: WalletSummary

/** A creation built for sam a millisecond after the previous one, left unsigned: stored, listed. */
async function build(n: bigint): Promise<string> {
  h.clock.ms += 1n
  const built = await h.opened.service.createContract(
    { changeAddress: sam.address },
    { contract: notify(n), tags: { [`page.${n}`]: null }, metadata: {} }
  )
  return built.contractId
}

const idsOf = (items: readonly ContractListItem[]): unknown[] => items.map((item) => item.header.contractId)

/** Every page of `limit`, following each page's last contract. */
async function walk(limit: number, walletId?: string): Promise<ContractListItem[][]> {
  const pages: ContractListItem[][] = []
  let after: string | undefined
  for (;;) {
    const page = await h.ok('contracts.list', {
      limit,
      ...(after === undefined ? {} : { after }),
      ...(walletId === undefined ? {} : { walletId })
    })
    pages.push([...page])
    if (page.length < limit) return pages
    after = String(page[page.length - 1]!.header.contractId)
  }
}

beforeAll(async () => {
  h = await deskHarness()
  sam = (await h.ok('wallets.create', { name: 'sam', password: PASSWORD })).wallet
  // One output a build: each build holds the one it spends.
  for (let i = 0; i < BUILDS + 3; i += 1) await (h.provider as SandboxProvider).fund(sam.address, 20n * ADA)
  for (let n = 1; n <= BUILDS; n += 1) await build(BigInt(n))
})
afterAll(() => h.close())

describe('contracts.list in pages', () => {
  test('the pages walk the whole list once, newest build first, the last one short', async () => {
    const whole = await h.ok('contracts.list', {})
    expect(whole).toHaveLength(BUILDS)
    for (const limit of [1, 2, 3, BUILDS, 100]) {
      const pages = await walk(limit)
      expect(pages.flat()).toEqual(whole)
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true)
      expect(pages[pages.length - 1]!.length).toBeLessThan(limit)
    }
    // Newest build first: the tags say in which order they were built.
    expect(whole.map((item) => Object.keys(item.header.tags as object))).toEqual(
      Array.from({ length: BUILDS }, (_, i) => [`page.${BUILDS - i}`])
    )
    // `after` alone: everything after it.
    expect(await h.ok('contracts.list', { after: String(whole[2]!.header.contractId) })).toEqual(whole.slice(3))
  })

  test('a contract built between two pages comes first in the list and does not shift the next page', async () => {
    const first = await h.ok('contracts.list', { limit: 3 })
    const after = String(first[2]!.header.contractId)
    const second = await h.ok('contracts.list', { limit: 3, after })
    const newest = await build(100n)
    expect(await h.ok('contracts.list', { limit: 3, after })).toEqual(second)
    expect(idsOf(await h.ok('contracts.list', { limit: 1 }))).toEqual([newest])
  })

  test("a wallet's list pages the same way, with what each contract waits for from it", async () => {
    const whole = await h.ok('contracts.list', { walletId: sam.id })
    expect(whole.length).toBeGreaterThan(3)
    const pages = await walk(3, sam.id)
    expect(pages.flat()).toEqual(whole)
    expect(pages[0]!.every((item) => item.parties !== undefined && item.awaiting !== undefined)).toBe(true)
  })

  test("a wallet's page builds the views of that page's contracts only", async () => {
    const whole = idsOf(await h.ok('contracts.list', { walletId: sam.id }))
    const read = vi.spyOn(h.opened.service, 'contractViews')
    const single = vi.spyOn(h.opened.service, 'getContract')
    try {
      const page = await h.ok('contracts.list', { walletId: sam.id, limit: 2, after: String(whole[1]) })
      expect(idsOf(page)).toEqual(whole.slice(2, 4))
      expect(new Set(read.mock.calls.flatMap(([ids]) => ids))).toEqual(new Set(whole.slice(2, 4)))
      expect(single).not.toHaveBeenCalled()
    } finally {
      read.mockRestore()
      single.mockRestore()
    }
  })

  test('a stored contract that cannot be read back is passed over, and the page is still full', async () => {
    const before = await h.ok('contracts.list', {})
    const broken = String(before[1]!.header.contractId)
    const db = new Database(h.databasePath)
    try {
      db.prepare('UPDATE txs SET details = \'{"kind":"create","tags":\' WHERE tx_id = ?').run(broken.slice(0, 64))
    } finally {
      db.close()
    }
    const readable = before.filter((item) => item.header.contractId !== broken)
    expect(await h.ok('contracts.list', {})).toEqual(readable)
    expect(await h.ok('contracts.list', { limit: 3 })).toEqual(readable.slice(0, 3))
    expect((await walk(2)).flat()).toEqual(readable)
  })

  test('an unknown contract to list after, and a limit out of range, are refused', async () => {
    const unknown = `${'ab'.repeat(32)}#0`
    const error = await h.fails('contracts.list', { after: unknown, limit: 2 }, 'ContractNotFound')
    expect(error.message).toContain(unknown)
    await h.fails('contracts.list', { after: unknown }, 'ContractNotFound')
    await h.fails('contracts.list', { after: unknown, walletId: sam.id }, 'ContractNotFound')
    for (const limit of [0, -1, 1.5, 501]) await h.fails('contracts.list', { limit }, 'InvalidRequest')
    await h.fails('contracts.list', { after: 'not a contract', limit: 2 }, 'InvalidRequest')
  })
})
