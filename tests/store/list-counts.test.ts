/**
 * The Total-Count of the unfiltered lists (contracts on chain, confirmed withdrawals, payouts, by status) is kept by
 * the store as rows change (schema 8) instead of counted: on a real SQLite file it equals a COUNT(*) of the same
 * rows after every kind of write — builds, confirmations, transactions read from the chain, withdrawals, rollbacks
 * that unconfirm our builds and forget others' — after a restart, and on a store written before schema 8. The
 * same holds in PostgreSQL, whose triggers keep them.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, test } from 'vitest'
import { openDatabase } from '../../src/store/database'
import { SqliteGate } from '../../src/store/sqlite-gate'
import { MIGRATIONS } from '../../src/store/migrations'
import type { BlockRow, ConfirmEffects, TxKind } from '../../src/store/service-store'
import type { ServiceStore } from '../../src/store/service-store'
import { sqliteServiceStore } from '../../src/store/sqlite-service-store'
import { countInSqlite, storeBackends, type StoreDatabase } from './backends'

const id = (n: number): string => n.toString(16).padStart(64, '0')
const block = (n: number): BlockRow => ({ slot: BigInt(n * 10), blockNo: BigInt(n), blockHash: id(1000 + n) })
const all = { order: 'desc', offset: 0, limit: 1 } as const
const NO_COLUMNS = { tags: '{}', metadata: '{}' }

const freshPath = (): string => join(mkdtempSync(join(tmpdir(), 'marlowe-desk-counts-')), 'store.sqlite')

/** The totals the lists report, beside a COUNT(*) of the same rows through a connection of its own. */
async function totals(
  store: ServiceStore,
  db: Pick<StoreDatabase, 'count'>
): Promise<{ reported: number[]; counted: number[] }> {
  const reported = [
    (await store.contractPage({}, all))!.total,
    (await store.withdrawalPage([], all))!.total,
    (await store.payoutPage({}, all))!.total,
    (await store.payoutPage({ withdrawn: false }, all))!.total,
    (await store.payoutPage({ withdrawn: true }, all))!.total
  ]
  const counted = [
    await db.count('contracts WHERE created_block_no IS NOT NULL'),
    await db.count("txs WHERE kind = 'withdraw' AND status = 'confirmed'"),
    await db.count('payouts'),
    await db.count('payouts WHERE withdrawal_id IS NULL'),
    await db.count('payouts WHERE withdrawal_id IS NOT NULL')
  ]
  return { reported, counted }
}

async function expectTotals(store: ServiceStore, db: Pick<StoreDatabase, 'count'>, expected: number[]): Promise<void> {
  const { reported, counted } = await totals(store, db)
  expect(counted).toEqual(expected)
  expect(reported).toEqual(counted)
}

const payout = (tx: number, ix: number, contract: number) => ({
  payoutId: `${id(tx)}#${ix}`,
  contractId: `${id(contract)}#0`,
  txId: id(tx),
  rolesCurrency: 'cc',
  role: 'R',
  assets: '{"lovelace":1}'
})

async function chainTx(
  store: ServiceStore,
  n: number,
  kind: TxKind,
  at: number,
  effects: ConfirmEffects,
  of = n
): Promise<void> {
  await store.insertChainTx(
    {
      txId: id(n),
      kind,
      ...(kind === 'withdraw' ? {} : { contractId: `${id(of)}#0`, rolesCurrency: 'cc' }),
      tx: Uint8Array.of(0),
      block: block(at),
      createdAt: at,
      details: '{}',
      columns: kind === 'withdraw' ? {} : NO_COLUMNS
    },
    effects
  )
}

async function built(store: ServiceStore, n: number, kind: 'create' | 'withdraw'): Promise<void> {
  await store.insertBuilt({
    txId: id(n),
    kind,
    ...(kind === 'create' ? { contractId: `${id(n)}#0`, rolesCurrency: 'cc' } : {}),
    era: 'Conway',
    unsignedTx: Uint8Array.of(0),
    reservationKey: `k${n}`,
    createdAt: n,
    details: '{}',
    columns: kind === 'create' ? NO_COLUMNS : {}
  })
}

describe.each(storeBackends())('$name', ({ available, fresh }) => {
  test.skipIf(!available)(
    'the kept counts equal COUNT(*) after builds, confirmations, chain transactions, rollbacks and a restart',
    async () => {
      const db = await fresh()
      let store = (await db.open()).records
      const utxoOf = () => null
      // [contracts, withdrawals, payouts, available, withdrawn]
      await expectTotals(store, db, [0, 0, 0, 0, 0])
      await built(store, 1, 'create')
      await expectTotals(store, db, [0, 0, 0, 0, 0])
      await store.confirm(id(1), block(1), { head: { contractId: `${id(1)}#0`, utxo: `${id(1)}#0` } })
      await expectTotals(store, db, [1, 0, 0, 0, 0])
      // The same confirmation again changes nothing.
      await store.confirm(id(1), block(1), {})
      await chainTx(store, 2, 'create', 2, {})
      await chainTx(store, 2, 'create', 2, {})
      await expectTotals(store, db, [2, 0, 0, 0, 0])
      await chainTx(store, 3, 'apply', 3, { newPayouts: [payout(3, 1, 2), payout(3, 2, 2), payout(3, 3, 2)] }, 2)
      await expectTotals(store, db, [2, 0, 3, 3, 0])
      await chainTx(store, 4, 'withdraw', 4, { withdrawn: [`${id(3)}#1`] })
      await expectTotals(store, db, [2, 1, 3, 2, 1])
      await built(store, 5, 'withdraw')
      await expectTotals(store, db, [2, 1, 3, 2, 1])
      await store.confirm(id(5), block(5), { withdrawn: [`${id(3)}#2`, `${id(3)}#3`] })
      await expectTotals(store, db, [2, 2, 3, 0, 3])

      store = (await db.open()).records
      await expectTotals(store, db, [2, 2, 3, 0, 3])
      // Our withdrawal goes back to submitted, theirs is forgotten, and both payouts it took are available again.
      await store.rollBack(block(3), 6, utxoOf)
      await expectTotals(store, db, [2, 0, 3, 3, 0])
      // Their contract is forgotten with its payouts; ours goes back to submitted.
      await store.rollBack(block(1), 7, utxoOf)
      await expectTotals(store, db, [1, 0, 0, 0, 0])
      await store.rollBack(undefined, 8, utxoOf)
      await expectTotals(store, db, [0, 0, 0, 0, 0])
      await store.confirm(id(1), block(9), {})
      await store.confirm(id(5), block(9), {})
      await expectTotals(store, db, [1, 1, 0, 0, 0])
      // Filtered lists are counted as they ask.
      expect((await store.contractPage({ roleCurrencies: ['cc'] }, all))?.total).toBe(1)
      expect((await store.contractPage({ roleCurrencies: ['dd'] }, all))?.total).toBe(0)
    }
  )
})

test('a store written before schema 8 starts with the counts of what it holds', async () => {
  const path = freshPath()
  const old = new Database(path)
  for (const [i, sql] of MIGRATIONS.slice(0, 6).entries()) {
    old.exec(sql)
    old.pragma(`user_version = ${i + 1}`)
  }
  old.close()
  let store = sqliteServiceStore(new SqliteGate(openDatabase(path)))
  await chainTx(store, 1, 'create', 1, {})
  await chainTx(store, 2, 'create', 2, {})
  await chainTx(store, 3, 'apply', 3, { newPayouts: [payout(3, 1, 2), payout(3, 2, 2)] }, 2)
  await chainTx(store, 4, 'withdraw', 4, { withdrawn: [`${id(3)}#1`] })
  await built(store, 5, 'create')
  const db = openDatabase(path)
  // Back to schema 7 with the same rows: the counts are made again from them.
  db.exec('DROP TABLE list_counts')
  for (const trigger of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as {
    name: string
  }[]) {
    db.exec(`DROP TRIGGER "${trigger.name}"`)
  }
  db.exec('DROP INDEX txs_creations')
  db.pragma('user_version = 7')
  db.close()
  store = sqliteServiceStore(new SqliteGate(openDatabase(path)))
  await expectTotals(store, { count: (from) => Promise.resolve(countInSqlite(path, from)) }, [2, 1, 2, 1, 1])
})
