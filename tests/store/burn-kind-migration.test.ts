/**
 * Schema 9 rebuilds the txs table so a build may be a role-token burn (of no contract): a store written at schema 8
 * keeps every row, its references, indexes and Total-Count triggers, and its foreign keys are enforced again after.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { expect, test } from 'vitest'
import { openDatabase } from '../../src/store/database'
import { MIGRATIONS } from '../../src/store/migrations'

const id = (n: number): string => n.toString(16).padStart(64, '0')

function schema8Store(path: string): void {
  const db = new Database(path)
  db.pragma('foreign_keys = ON')
  for (const sql of MIGRATIONS.slice(0, 8)) db.exec(sql)
  db.pragma('user_version = 8')
  const insert = db.prepare(
    `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details,
                      block_slot, block_no, block_hash)
     VALUES (?, ?, ?, 'Conway', x'00', ?, 'k', 1, '{}', ?, ?, ?)`
  )
  insert.run(id(1), 'create', `${id(1)}#1`, 'confirmed', 10, 1, id(100))
  insert.run(id(2), 'withdraw', null, 'confirmed', 20, 2, id(101))
  db.prepare('INSERT INTO contracts (contract_id, create_tx_id, roles_currency, head_tx_id) VALUES (?, ?, ?, ?)').run(
    `${id(1)}#1`,
    id(1),
    'cc',
    id(1)
  )
  db.prepare(
    "INSERT INTO payouts (payout_id, contract_id, tx_id, roles_currency, role, assets, withdrawal_id) VALUES (?, ?, ?, 'cc', 'R', '{}', ?)"
  ).run(`${id(1)}#2`, `${id(1)}#1`, id(1), id(2))
  db.close()
}

test('a schema 8 store migrates to 9 with its rows, references and counts', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-burn-kind-')), 'store.sqlite')
  schema8Store(path)
  const db = openDatabase(path)
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(9)
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(db.prepare('SELECT tx_id, kind, status FROM txs ORDER BY tx_id').all()).toEqual([
      { tx_id: id(1), kind: 'create', status: 'confirmed' },
      { tx_id: id(2), kind: 'withdraw', status: 'confirmed' }
    ])
    const names = (type: string): string[] =>
      (
        db.prepare("SELECT name FROM sqlite_schema WHERE tbl_name = 'txs' AND type = ? ORDER BY name").all(type) as {
          name: string
        }[]
      ).map((r) => r.name)
    expect(names('trigger')).toEqual(['withdrawals_counted_in', 'withdrawals_counted_moved', 'withdrawals_counted_out'])
    expect(names('index')).toContain('txs_withdrawals')

    const insert = db.prepare(
      `INSERT INTO txs (tx_id, kind, contract_id, era, unsigned_tx, status, reservation_key, created_at, details)
       VALUES (?, ?, ?, 'Conway', x'00', 'unsigned', 'k', 1, '{}')`
    )
    insert.run(id(3), 'burn', null)
    expect(() => insert.run(id(4), 'burn', `${id(1)}#1`)).toThrow(/CHECK constraint failed/)
    expect(() => insert.run(id(5), 'mint', null)).toThrow(/CHECK constraint failed/)
    expect(() => db.prepare('DELETE FROM txs WHERE tx_id = ?').run(id(1))).toThrow(/FOREIGN KEY constraint failed/)

    const withdrawals = () =>
      (db.prepare("SELECT n FROM list_counts WHERE list = 'withdrawals'").get() as { n: number }).n
    expect(withdrawals()).toBe(1)
    db.prepare("UPDATE txs SET status = 'unsigned', block_hash = NULL WHERE tx_id = ?").run(id(2))
    expect(withdrawals()).toBe(0)
  } finally {
    db.close()
  }
})
