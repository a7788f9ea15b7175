/**
 * Schema 3 (the chain index) over a store written by schema 2: contracts confirmed before it know their current
 * UTxO, so the index recognises a transaction that spends it, and the block of their creation, by which lists
 * are ordered and paged; existing rows are our own builds.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { expect, test } from 'vitest'
import { openDatabase } from '../../src/store/database'
import { SqliteGate } from '../../src/store/sqlite-gate'
import { MIGRATIONS } from '../../src/store/migrations'
import { sqliteServiceStore } from '../../src/store/sqlite-service-store'

const id = (n: number): string => n.toString(16).padStart(64, '0')

test('contracts of a schema-2 store get their current UTxO; its transactions are ours', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-store-')), 'store.sqlite')
  const old = new Database(path)
  for (const [i, sql] of MIGRATIONS.slice(0, 2).entries()) {
    old.exec(sql)
    old.pragma(`user_version = ${i + 1}`)
  }
  const insertTx = old.prepare(
    `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                      block_slot, block_no, block_hash)
     VALUES (?, ?, ?, 'Conway', x'00', 'confirmed', 'k', 0, ?, 1, ?, ?)`
  )
  // Contract 1 moved on by an apply with a continuation; contract 2 only created; contract 3 closed.
  insertTx.run(id(1), 'create', `${id(1)}#0`, '{"kind":"create"}', 1, id(101))
  insertTx.run(id(2), 'apply', `${id(1)}#0`, `{"kind":"apply","output":{"ref":"${id(2)}#1"}}`, 2, id(102))
  insertTx.run(id(3), 'create', `${id(3)}#0`, '{"kind":"create"}', 3, id(103))
  insertTx.run(id(4), 'create', `${id(4)}#0`, '{"kind":"create"}', 4, id(104))
  insertTx.run(id(5), 'apply', `${id(4)}#0`, '{"kind":"apply"}', 5, id(105))
  const insertContract = old.prepare(
    'INSERT INTO contracts (contract_id, create_tx_id, roles_currency, head_tx_id) VALUES (?, ?, ?, ?)'
  )
  insertContract.run(`${id(1)}#0`, id(1), '', id(2))
  insertContract.run(`${id(3)}#0`, id(3), '', id(3))
  insertContract.run(`${id(4)}#0`, id(4), '', id(5))
  old.close()

  const store = sqliteServiceStore(new SqliteGate(openDatabase(path)))
  expect((await store.contractAtUtxo(`${id(2)}#1`))?.contractId).toBe(`${id(1)}#0`)
  expect(await store.contractAtUtxo(`${id(1)}#0`)).toBeUndefined()
  expect((await store.contractAtUtxo(`${id(3)}#0`))?.contractId).toBe(`${id(3)}#0`)
  expect((await store.contract(`${id(4)}#0`))?.utxo).toBeUndefined()
  expect((await store.tx(id(2)))?.origin).toBe('built')
  expect(await store.chainCursor()).toBeUndefined()
  // Listed by their creation's block, newest first, as before.
  const page = store.contractPage({}, { order: 'desc', offset: 0, limit: 10 })
  expect((await page)?.rows.map((c) => c.contractId)).toEqual([`${id(4)}#0`, `${id(3)}#0`, `${id(1)}#0`])
  expect((await page)?.total).toBe(3)
})
