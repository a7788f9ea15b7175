/**
 * The store's files are their owner's alone: a new database and the -wal and -shm files SQLite makes beside it
 * are 0600, and files an older version left readable by others are narrowed to 0600 on open (POSIX only).
 */
import { chmodSync, existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/store/database'

const file = (): string => join(mkdtempSync(join(tmpdir(), 'marlowe-desk-store-')), 'store.sqlite')
const modeOf = (path: string): number => statSync(path).mode & 0o777
const filesOf = (path: string): string[] => [path, `${path}-wal`, `${path}-shm`]

describe.skipIf(process.platform === 'win32')('store file modes', () => {
  it('a new database and its -wal and -shm files are 0600', () => {
    const path = file()
    const db = openDatabase(path)
    try {
      db.prepare('INSERT INTO reservations (key, expires_at) VALUES (?, ?)').run('k', 1)
      for (const f of filesOf(path)) {
        expect(existsSync(f), f).toBe(true)
        expect(modeOf(f), f).toBe(0o600)
      }
    } finally {
      db.close()
    }
  })

  it('a database left readable by others is made 0600 on open, its -wal and -shm too', () => {
    const path = file()
    const old = new Database(path)
    old.pragma('journal_mode = WAL')
    old.exec('CREATE TABLE t (x)')
    for (const f of filesOf(path)) chmodSync(f, 0o644)
    const db = openDatabase(path)
    try {
      for (const f of filesOf(path)) expect(modeOf(f), f).toBe(0o600)
    } finally {
      db.close()
      old.close()
    }
  })
})
