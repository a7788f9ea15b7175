/**
 * Schema 4 over a store written by schema 3: each creation and application gets its tags and metadata (exact, big
 * integers and escapes as written) and each application the Marlowe UTxOs it spends and leaves, beside its record;
 * payouts get their paying transaction's block and their output index. A record that is not JSON does not stop
 * the migration: its row reads from its record (and is reported unreadable), as does a row written without them.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { expect, test } from 'vitest'
import { JsonSyntaxError, parseJson } from '../../src/core/json/lossless'
import { storedRecord } from '../../src/engine/service/records'
import { transactionHeader } from '../../src/engine/service/views'
import { openDatabase } from '../../src/store/database'
import { SqliteGate } from '../../src/store/sqlite-gate'
import { MIGRATIONS } from '../../src/store/migrations'
import { sqliteServiceStore } from '../../src/store/sqlite-service-store'

const id = (n: number): string => n.toString(16).padStart(64, '0')
const page = { order: 'desc', offset: 0, limit: 10 } as const
const TAGS = '{"big":123456789012345678901234567890,"t\\u00e9":"\\ud83d\\ude00","d":1.50e+3}'

test('a schema-3 store: header columns and payout order filled in, a bad record passed over', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-store-')), 'store.sqlite')
  const old = new Database(path)
  for (const [i, sql] of MIGRATIONS.slice(0, 3).entries()) {
    old.exec(sql)
    old.pragma(`user_version = ${i + 1}`)
  }
  const insertTx = old.prepare(
    `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                      block_slot, block_no, block_hash)
     VALUES (?, ?, ?, 'Conway', x'00', 'confirmed', 'k', 0, ?, ?, ?, ?)`
  )
  const contract = `${id(1)}#0`
  insertTx.run(id(1), 'create', contract, `{"kind":"create","tags":${TAGS},"metadata":{"1":[-0]}}`, 1, 1, id(101))
  const apply = (input: string, output?: string) =>
    `{"kind":"apply","tags":{"n":null},"metadata":{},"input":"${input}"${output === undefined ? '' : `,"output":{"ref":"${output}"}`}}`
  insertTx.run(id(2), 'apply', contract, apply(contract, `${id(2)}#0`), 2, 2, id(102))
  insertTx.run(id(3), 'apply', contract, apply(`${id(2)}#0`), 3, 3, id(103))
  insertTx.run(id(4), 'apply', contract, '{"kind":"apply","tags":', 4, 4, id(104))
  insertTx.run(id(5), 'withdraw', null, '{"kind":"withdraw","payouts":[]}', 5, 5, id(105))
  old
    .prepare('INSERT INTO contracts (contract_id, create_tx_id, roles_currency, head_tx_id) VALUES (?, ?, ?, ?)')
    .run(contract, id(1), 'cc', id(3))
  const insertPayout = old.prepare(
    `INSERT INTO payouts (payout_id, contract_id, tx_id, roles_currency, role, assets, withdrawal_id)
     VALUES (?, ?, ?, 'cc', 'R', '{}', ?)`
  )
  insertPayout.run(`${id(2)}#9`, contract, id(2), null)
  insertPayout.run(`${id(2)}#10`, contract, id(2), id(5))
  insertPayout.run(`${id(3)}#1`, contract, id(3), null)
  old.close()

  const db = openDatabase(path)
  const store = sqliteServiceStore(new SqliteGate(db))
  const columns = db.prepare('SELECT tags, metadata, marlowe_input, marlowe_output FROM txs WHERE tx_id = ?')
  expect(columns.get(id(1))).toEqual({ tags: TAGS, metadata: '{"1":[-0]}', marlowe_input: null, marlowe_output: null })
  expect(parseJson(TAGS)).toEqual(parseJson((columns.get(id(1)) as { tags: string }).tags))
  expect(columns.get(id(2))).toEqual({
    tags: '{"n":null}',
    metadata: '{}',
    marlowe_input: contract,
    marlowe_output: `${id(2)}#0`
  })
  expect(columns.get(id(4))).toEqual({ tags: null, metadata: null, marlowe_input: null, marlowe_output: null })

  const applied = await store.appliedTxPage(contract, page)
  expect(applied?.total).toBe(3)
  expect(applied?.rows.map((r) => r.txId)).toEqual([id(4), id(3), id(2)])
  expect(applied?.rows[1]?.columns).toEqual({ tags: '{"n":null}', metadata: '{}' })
  expect(applied?.rows[2]?.columns).toEqual({ tags: '{"n":null}', metadata: '{}', marloweOutput: `${id(2)}#0` })
  expect(transactionHeader(applied!.rows[2]!)).toMatchObject({ tags: { n: null }, utxo: `${id(2)}#0` })
  // The bad record: no columns; its header is read from the record, which says what is wrong.
  expect(applied?.rows[0]?.columns).toBeUndefined()
  expect(() => transactionHeader(applied!.rows[0]!)).toThrow(JsonSyntaxError)

  expect(await store.spenderOf(`${id(2)}#0`)).toBe(id(3))
  expect(await store.spenderOf(contract)).toBe(id(2))
  expect(await store.spenderOf(`${id(3)}#0`)).toBeUndefined()

  // Runtime's order: block, tx id, then the output index as a number (#10 after #9).
  const paid = store.payoutPage({}, page)
  expect((await paid)?.rows.map((p) => p.payoutId)).toEqual([`${id(3)}#1`, `${id(2)}#10`, `${id(2)}#9`])
  expect((await store.payoutPage({ withdrawn: false }, page))?.rows.map((p) => p.payoutId)).toEqual([
    `${id(3)}#1`,
    `${id(2)}#9`
  ])
  expect((await store.unclaimedPayoutsOf([contract])).map((p) => p.payoutId)).toEqual([`${id(2)}#9`, `${id(3)}#1`])
  expect((await store.payoutsOfTx(id(2))).map((p) => p.payoutId)).toEqual([`${id(2)}#10`, `${id(2)}#9`])
  expect((await store.withdrawalPage([], page))?.rows.map((w) => w.txId)).toEqual([id(5)])
  db.close()
})

test('a row written without the columns reads its header from its record', async () => {
  const db = openDatabase(':memory:')
  const store = sqliteServiceStore(new SqliteGate(db))
  const contract = `${id(1)}#0`
  const { details } = storedRecord({
    kind: 'apply',
    tags: { hand: 'written' },
    metadata: { '7': 7n },
    input: contract,
    inputDatum: Uint8Array.of(0x80),
    inputs: [],
    interval: { from: 0n, to: 1n },
    output: { ref: `${id(2)}#0`, datum: Uint8Array.of(0x80), assets: { lovelace: 2n, assets: {} } },
    payouts: [],
    safetyErrors: []
  })
  db.prepare(
    `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                      block_slot, block_no, block_hash)
     VALUES (?, 'apply', ?, 'Conway', x'00', 'confirmed', 'k', 0, ?, 2, 2, ?)`
  ).run(id(2), contract, details, id(102))
  const [row] = (await store.appliedTxPage(contract, page))?.rows ?? []
  expect(row?.columns).toBeUndefined()
  expect(transactionHeader(row!)).toEqual({
    contractId: contract,
    transactionId: id(2),
    status: 'confirmed',
    block: { slot: 2n, blockNo: 2n, blockHash: id(102) },
    tags: { hand: 'written' },
    metadata: { '7': 7n },
    utxo: `${id(2)}#0`
  })
  db.close()
})
