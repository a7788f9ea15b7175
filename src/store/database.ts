/**
 * The SQLite database behind the service: one file, WAL journal (readers never block the writer), full
 * fsync on commit (a 202 must never be forgotten), the schema migrated on open, then foreign keys on.
 */
import { chmodSync, closeSync, openSync, statSync } from 'node:fs'
import Database from 'better-sqlite3'
import { MIGRATIONS } from './migrations'

export type Db = Database.Database

export class StoreError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StoreError'
  }
}

/** Refuses a schema from the future before anything (even the journal mode) changes the file. */
function checkVersion(db: Db, path: string): number {
  const version = db.pragma('user_version', { simple: true }) as number
  if (version > MIGRATIONS.length) {
    throw new StoreError(
      `${path} was written by a newer Marlowe Desk (schema ${version}; this version knows ${MIGRATIONS.length}); it was not changed`
    )
  }
  return version
}

function migrate(db: Db, version: number): void {
  for (let v = version; v < MIGRATIONS.length; v += 1) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!)
      db.pragma(`user_version = ${v + 1}`)
    }).immediate()
  }
}

/**
 * The store holds the user's addresses, contracts and transactions: its files are the owner's alone (0600). SQLite
 * gives the -wal and -shm files it creates the mode of the database file, so the database file is made (or
 * made owner-only) before SQLite opens it; files an older version left readable by others are narrowed too.
 */
function makeOwnerOnly(path: string): void {
  if (path === ':memory:' || path === '' || process.platform === 'win32') return
  closeSync(openSync(path, 'a', 0o600))
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number
    try {
      mode = statSync(file).mode
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw e
    }
    if ((mode & 0o077) !== 0) chmodSync(file, 0o600)
  }
}

/** Opens (creating if needed) and migrates the store at `path`; `:memory:` for a throw-away one. */
export function openDatabase(path: string): Db {
  let db: Db
  try {
    makeOwnerOnly(path)
    db = new Database(path)
    const version = checkVersion(db, path)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    db.pragma('busy_timeout = 5000')
    // Off while migrating (the driver turns them on by default): a migration that rebuilds a table (SQLite's only
    // way to change a CHECK) must not have the rows that refer to it checked while the table is briefly gone.
    db.pragma('foreign_keys = OFF')
    migrate(db, version)
    db.pragma('foreign_keys = ON')
  } catch (e) {
    if (e instanceof StoreError) throw e
    throw new StoreError(`cannot open the store ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  return db
}
