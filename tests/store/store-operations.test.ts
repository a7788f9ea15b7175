/**
 * The service store's operations give the same answers from SQLite and from PostgreSQL: a build recorded, rebuilt,
 * submitted, superseded and discarded (each at most once, and a build being submitted is never superseded); the
 * builds holding a wallet's outputs; the lists with every filter (tags and role currencies read from records,
 * parties, payouts by contract, role and status), paged from a start; and the lookups by UTxO and by spender.
 */
import { describe, expect, it } from 'vitest'
import type { BlockRow, BuiltTxRow, ServiceStore } from '../../src/store/service-store'
import { storeBackends } from './backends'

const id = (n: number): string => n.toString(16).padStart(64, '0')
const block = (n: number): BlockRow => ({ slot: BigInt(n * 10), blockNo: BigInt(n), blockHash: id(1000 + n) })
const page = (limit: number, start?: string, order: 'asc' | 'desc' = 'desc') =>
  ({ order, offset: 0, limit, ...(start === undefined ? {} : { start }) }) as const

const create = (n: number, over: Partial<BuiltTxRow> = {}): BuiltTxRow => ({
  txId: id(n),
  kind: 'create',
  contractId: `${id(n)}#1`,
  rolesCurrency: n % 2 === 0 ? 'even' : 'odd',
  era: 'Conway',
  unsignedTx: Uint8Array.of(n),
  reservationKey: `k${n}`,
  createdAt: n,
  details: JSON.stringify({ tags: { [`tag${n % 3}`]: null } }),
  columns: { tags: JSON.stringify({ [`tag${n % 3}`]: null }), metadata: '{}' },
  parties: [`address:addr${n % 2}`],
  ...over
})

async function confirmedContracts(store: ServiceStore, count: number): Promise<void> {
  for (let n = 1; n <= count; n += 1) {
    await store.insertBuilt(create(n))
    await store.confirm(id(n), block(n), { head: { contractId: `${id(n)}#1`, utxo: `${id(n)}#1` } })
  }
}

describe.each(storeBackends())('store operations in $name', ({ available, fresh }) => {
  it.skipIf(!available)('records a build through its life; each change happens once', async () => {
    const store = (await (await fresh()).open()).records
    await store.insertBuilt(create(1))
    expect(await store.markSuperseded(id(1), 10)).toBe(true)
    expect(await store.markDiscarded(id(1), 11)).toBe(true)
    expect(await store.markDiscarded(id(1), 12)).toBe(false)
    expect(await store.tx(id(1))).toMatchObject({ status: 'unsigned', supersededAt: 10, discardedAt: 11 })
    // Superseded or discarded (by another process, after this one read the build): its submit does not start.
    expect(await store.recordSubmitAttempt(id(1), Uint8Array.of(9))).toBe(false)
    expect(await store.attemptedSubmits()).toEqual([])
    // Built again from the same inputs: whole again, under the new reservation.
    await store.insertBuilt(create(1, { reservationKey: 'k1-again', createdAt: 20 }))
    const again = await store.tx(id(1))
    expect(again).toMatchObject({ reservationKey: 'k1-again', createdAt: 1 })
    expect(again?.supersededAt).toBeUndefined()
    expect(again?.discardedAt).toBeUndefined()

    // A build whose submit is under way is neither superseded nor discarded: its signed form may be at the node.
    expect(await store.recordSubmitAttempt(id(1), Uint8Array.of(1, 2))).toBe(true)
    expect((await store.attemptedSubmits()).map((r) => r.txId)).toEqual([id(1)])
    expect(await store.markSuperseded(id(1), 30)).toBe(false)
    expect(await store.markDiscarded(id(1), 31)).toBe(false)
    await store.clearSubmitAttempt(id(1))
    expect(await store.attemptedSubmits()).toEqual([])
    expect(await store.markSubmitted(id(1), Uint8Array.of(1, 2, 3), 40)).toBe(true)
    expect(await store.markSubmitted(id(1), Uint8Array.of(1, 2, 3), 41)).toBe(false)
    expect(await store.markSuperseded(id(1), 42)).toBe(false)
    expect(await store.tx(id(1))).toMatchObject({
      status: 'submitted',
      submittedAt: 40,
      signedTx: Uint8Array.of(1, 2, 3)
    })
    expect((await store.txsWithStatus('submitted')).map((r) => r.txId)).toEqual([id(1)])
    await store.markUnsigned(id(1))
    expect((await store.tx(id(1)))?.submittedAt).toBeUndefined()
    expect((await store.txsOfContract(`${id(1)}#1`)).map((r) => r.status)).toEqual(['unsigned'])
  })

  it.skipIf(!available)('names the builds holding outputs, oldest first, while their reservations live', async () => {
    const opened = await (await fresh()).open()
    const refs = [1, 2, 3].map((n) => ({ txId: id(100 + n), index: 0 }))
    const text = refs.map((r) => `${r.txId}#0`)
    await opened.reservations.tryReserve({ key: 'k2', spend: [refs[0]!, refs[1]!], collateral: [], expiresAt: 50 }, 0)
    await opened.reservations.tryReserve({ key: 'k1', spend: [refs[2]!], collateral: [], expiresAt: 500 }, 0)
    await opened.records.insertBuilt(create(2))
    await opened.records.insertBuilt(create(1))
    await opened.records.markSuperseded(id(2), 5)
    expect(await opened.records.heldBy(text, 10)).toEqual([
      { txId: id(1), status: 'unsigned', reservationKey: 'k1', superseded: false, refs: [text[2]] },
      { txId: id(2), status: 'unsigned', reservationKey: 'k2', superseded: true, refs: [text[0], text[1]].sort() }
    ])
    expect((await opened.records.heldBy(text, 50)).map((h) => h.txId)).toEqual([id(1)])
    expect(await opened.records.heldBy([`${id(999)}#0`], 10)).toEqual([])
  })

  it.skipIf(!available)(
    'lists contracts by every filter, paged from a start, and stored ones newest first',
    async () => {
      const store = (await (await fresh()).open()).records
      await confirmedContracts(store, 6)
      await store.insertBuilt(create(7))
      const ids = async (q: Parameters<ServiceStore['contractPage']>[0], p = page(100)) => {
        const answer = await store.contractPage(q, p)
        return answer === undefined ? undefined : { ids: answer.rows.map((r) => r.contractId), total: answer.total }
      }
      const c = (n: number) => `${id(n)}#1`
      expect(await ids({})).toEqual({ ids: [6, 5, 4, 3, 2, 1].map(c), total: 6 })
      expect(await ids({ roleCurrencies: ['even'] })).toEqual({ ids: [6, 4, 2].map(c), total: 3 })
      expect(await ids({ tags: ['tag0', 'tag2'] })).toEqual({ ids: [6, 5, 3, 2].map(c), total: 4 })
      expect(await ids({ parties: ['address:addr1'], roleCurrencies: ['odd'] })).toEqual({
        ids: [5, 3, 1].map(c),
        total: 3
      })
      expect(await ids({}, page(2, c(4)))).toEqual({ ids: [4, 3].map(c), total: 6 })
      expect(await ids({ roleCurrencies: ['odd'] }, page(5, c(3), 'asc'))).toEqual({ ids: [3, 5].map(c), total: 3 })
      expect(await ids({}, page(2, c(99)))).toBeUndefined()
      expect(await ids({}, page(-1, c(2)))).toEqual({ ids: [2, 1].map(c), total: 6 })
      expect((await store.storedContractPage(page(3)))?.map((r) => r.contractId)).toEqual([7, 6, 5].map(c))
      expect((await store.storedContractPage(page(2, c(2))))?.map((r) => r.contractId)).toEqual([2, 1].map(c))
      expect(await store.storedContractPage(page(2, c(99)))).toBeUndefined()
      expect((await store.contractsWhere({ tags: ['tag1'] })).map((r) => r.contractId)).toEqual([7, 4, 1].map(c))
      expect((await store.contractAtUtxo(c(3)))?.contractId).toBe(c(3))
      expect(await store.contractAtUtxo(c(7))).toBeUndefined()
      const header = (await store.contractPage({}, page(1)))?.rows[0]
      expect(header).toEqual({
        contractId: c(6),
        rolesCurrency: 'even',
        status: 'confirmed',
        block: block(6),
        columns: { tags: '{"tag0":null}', metadata: '{}' }
      })
    }
  )

  it.skipIf(!available)('pages applications, payouts and withdrawals, and finds who spent a UTxO', async () => {
    const store = (await (await fresh()).open()).records
    await confirmedContracts(store, 1)
    const contractId = `${id(1)}#1`
    for (const n of [2, 3]) {
      await store.insertChainTx(
        {
          txId: id(n),
          kind: 'apply',
          contractId,
          tx: Uint8Array.of(n),
          block: block(n),
          createdAt: n,
          details: '{}',
          columns: { tags: '{}', metadata: '{}', marloweInput: `${id(n - 1)}#1`, marloweOutput: `${id(n)}#1` }
        },
        {
          head: { contractId, utxo: `${id(n)}#1` },
          newPayouts: [1, 2].map((ix) => ({
            payoutId: `${id(n)}#${ix + 1}`,
            contractId,
            txId: id(n),
            rolesCurrency: 'even',
            role: ix === 1 ? 'A' : 'B',
            assets: '{"lovelace":18446744073709551617}'
          }))
        }
      )
    }
    const applied = await store.appliedTxPage(contractId, page(10))
    expect(applied?.total).toBe(2)
    expect(applied?.rows.map((r) => [r.txId, r.columns?.marloweOutput])).toEqual([
      [id(3), `${id(3)}#1`],
      [id(2), `${id(2)}#1`]
    ])
    expect(await store.spenderOf(`${id(2)}#1`)).toBe(id(3))
    expect(await store.spenderOf(`${id(3)}#1`)).toBeUndefined()
    expect((await store.payout(`${id(3)}#2`))?.assets).toBe('{"lovelace":18446744073709551617}')

    await store.insertChainTx(
      {
        txId: id(4),
        kind: 'withdraw',
        tx: Uint8Array.of(4),
        block: block(4),
        createdAt: 4,
        details: JSON.stringify({ payouts: [{ rolesCurrency: 'even' }] }),
        columns: {}
      },
      { withdrawn: [`${id(2)}#2`, `${id(3)}#2`] }
    )
    const payouts = async (q: Parameters<ServiceStore['payoutPage']>[0], p = page(10)) => {
      const answer = await store.payoutPage(q, p)
      return { ids: answer?.rows.map((r) => r.payoutId), total: answer?.total }
    }
    expect(await payouts({})).toEqual({ ids: [`${id(3)}#3`, `${id(3)}#2`, `${id(2)}#3`, `${id(2)}#2`], total: 4 })
    expect(await payouts({ withdrawn: false })).toEqual({ ids: [`${id(3)}#3`, `${id(2)}#3`], total: 2 })
    expect(await payouts({ withdrawn: true }, page(1, `${id(2)}#2`, 'asc'))).toEqual({ ids: [`${id(2)}#2`], total: 2 })
    expect(await payouts({ roleTokens: [{ rolesCurrency: 'even', role: 'B' }], contractIds: [contractId] })).toEqual({
      ids: [`${id(3)}#3`, `${id(2)}#3`],
      total: 2
    })
    expect((await store.unclaimedPayoutsOf([contractId])).map((p) => p.payoutId)).toEqual([`${id(2)}#3`, `${id(3)}#3`])
    expect((await store.payoutsOfWithdrawal(id(4))).map((p) => p.payoutId)).toEqual([`${id(2)}#2`, `${id(3)}#2`])
    expect((await store.payoutsOfTx(id(2))).map((p) => p.payoutId)).toEqual([`${id(2)}#2`, `${id(2)}#3`])
    const withdrawals = async (currencies: string[]) => {
      const answer = await store.withdrawalPage(currencies, page(10))
      return { ids: answer?.rows.map((r) => r.txId), total: answer?.total }
    }
    expect(await withdrawals([])).toEqual({ ids: [id(4)], total: 1 })
    expect(await withdrawals(['even', 'other'])).toEqual({ ids: [id(4)], total: 1 })
    expect(await withdrawals(['odd'])).toEqual({ ids: [], total: 0 })
  })

  it.skipIf(!available)('keeps parties, and knows which contracts have none recorded yet', async () => {
    const store = (await (await fresh()).open()).records
    const { parties: _unknown, ...withoutParties } = create(1)
    await store.insertBuilt(withoutParties)
    await store.insertBuilt(create(2))
    expect((await store.contractsWithoutParties(10)).map((r) => r.contractId)).toEqual([`${id(1)}#1`])
    await store.setContractParties(`${id(1)}#1`, ['role:cc:A', 'role:cc:A'])
    expect(await store.contractsWithoutParties(10)).toEqual([])
    expect((await store.contractsWhere({ parties: ['role:cc:A'] })).map((r) => r.contractId)).toEqual([`${id(1)}#1`])
  })
})
