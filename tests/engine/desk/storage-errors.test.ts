/**
 * The desk words a store that cannot take a write (a full disk) as a readable failure, not an internal error:
 * the error is SQLite's own, raised by a real database over its page quota.
 */
import Database from 'better-sqlite3'
import { describe, expect, test } from 'vitest'
import { INTERNAL_ERROR, knownErrorBody } from '../../../src/engine/desk/errors'

function sqliteFull(): unknown {
  const db = new Database(':memory:')
  try {
    db.exec('CREATE TABLE t (x BLOB)')
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`)
    for (;;) db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(4096))
  } catch (e) {
    return e
  } finally {
    db.close()
  }
}

describe('desk errors', () => {
  test('SQLITE_FULL is StorageUnavailable, with what to do; other errors stay internal', () => {
    expect(knownErrorBody(sqliteFull())).toEqual({
      code: 'StorageUnavailable',
      message: 'The store is full (the disk has no room left): nothing was changed. Free some space and try again.',
      details: { sqlite: 'SQLITE_FULL' }
    })
    expect(knownErrorBody(new TypeError('x'))).toBeUndefined()
    expect(INTERNAL_ERROR.code).toBe('InternalError')
  })
})
