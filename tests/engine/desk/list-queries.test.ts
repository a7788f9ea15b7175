/**
 * The desk's list of a wallet's contracts on the PostgreSQL store costs a bounded number of queries a page,
 * whatever the page's size: each query is a round trip to the server, so a page that read its contracts one by
 * one (their creations, heads, payouts and next steps) took some 500 sequential queries for 100 contracts. The
 * queries are counted at the driver: every statement any pooled connection sends. The list of every contract (no
 * wallet) is bounded the same way.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { ContractListItem, WalletSummary } from '../../../src/api/contract'
import { onDeposit, when } from '../../../src/core/marlowe/examples/dsl'
import { stringifyContract } from '../../../src/core/marlowe/json'
import { ADA as ADA_TOKEN, CLOSE, type Party } from '../../../src/core/marlowe/types'
import { usePostgres } from '../../support/postgres-server'
import { ADA, T0 } from '../build/support'
import { deskHarness, restoreSandboxWallet, PASSWORD, type DeskHarness } from './support'

const CONTRACTS = 12
const DAY = 86_400_000n

const server = usePostgres()
let h: DeskHarness
let alice: WalletSummary

/** The statements sent to the server while `work` runs, and what it answered. */
async function counted<T>(work: () => Promise<T>): Promise<{ readonly queries: number; readonly answer: T }> {
  const query = vi.spyOn(pg.Client.prototype, 'query')
  try {
    const answer = await work()
    return { queries: query.mock.calls.length, answer }
  } finally {
    query.mockRestore()
  }
}

describe.skipIf(!server.available)('contracts.list on PostgreSQL', () => {
  beforeAll(async () => {
    h = await deskHarness({ storeUrl: await server.createDatabase() })
    alice = await restoreSandboxWallet(h, 'alice')
    const party: Party = { type: 'Address', address: alice.address }
    // On chain, each waiting for alice's deposit: the list works out what each waits for from her.
    for (let n = 1; n <= CONTRACTS; n += 1) {
      const created = await h.ok('contracts.create', {
        walletId: alice.id,
        contractJson: stringifyContract(when([onDeposit(party, party, ADA_TOKEN, BigInt(n) * ADA, CLOSE)], T0 + DAY)),
        roles: [],
        tags: [`list-queries.${n}`]
      })
      await h.ok('tx.signAndSubmit', { txId: created.txId, walletId: alice.id, password: PASSWORD })
      await h.opened.follower.sync()
    }
  }, 300_000)
  afterAll(() => h?.close())

  const page = (limit: number): Promise<ContractListItem[]> =>
    h.ok('contracts.list', { walletId: alice.id, limit }).then((items) => [...items])

  test('a page of 2 and a page of 12 cost the same few queries', async () => {
    const small = await counted(() => page(2))
    const large = await counted(() => page(CONTRACTS))
    expect(small.answer).toHaveLength(2)
    expect(large.answer).toHaveLength(CONTRACTS)
    expect(large.answer.slice(0, 2)).toEqual(small.answer)
    // Each contract is on chain and waits for alice's deposit of its own amount.
    const amounts = large.answer.flatMap((item) =>
      (item.awaiting ?? []).map((awaited) => (awaited.kind === 'deposit' ? awaited.amount : 0n))
    )
    expect(amounts.sort((a, b) => (a < b ? -1 : 1))).toEqual(
      Array.from({ length: CONTRACTS }, (_, i) => BigInt(i + 1) * ADA)
    )
    expect(large.answer.every((item) => item.header.block !== undefined)).toBe(true)
    expect(large.queries).toBe(small.queries)
    expect(large.queries).toBeLessThanOrEqual(10)
  })

  test('so do the pages of every contract, without a wallet', async () => {
    const small = await counted(() => h.ok('contracts.list', { limit: 2 }))
    const large = await counted(() => h.ok('contracts.list', { limit: CONTRACTS }))
    expect(small.answer).toHaveLength(2)
    expect(large.answer).toHaveLength(CONTRACTS)
    expect(large.queries).toBe(small.queries)
    expect(large.queries).toBeLessThanOrEqual(10)
  })

  test('each item waits for what contracts.next says the wallet can do', async () => {
    const [first] = await page(1)
    const contractId = String(first!.header.contractId)
    const next = await h.ok('contracts.next', { contractId, walletId: alice.id })
    const [awaited] = first!.awaiting ?? []
    expect(awaited?.kind).toBe('deposit')
    expect(next.applicableInputs.deposits).toEqual([
      expect.objectContaining({ canDeposit: awaited?.kind === 'deposit' ? awaited.amount : undefined })
    ])
  })
})
