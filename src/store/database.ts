/**
 * The SQLite database behind the service: one file, WAL journal (readers never block the writer), full
 * fsync on commit (a 202 must never be forgotten), foreign keys on, and the schema migrated on open.
 */
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

/** Opens (creating if needed) and migrates the store at `path`; `:memory:` for a throw-away one. */
export function openDatabase(path: string): Db {
  let db: Db
  try {
    db = new Database(path)
    const version = checkVersion(db, path)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    migrate(db, version)
  } catch (e) {
    if (e instanceof StoreError) throw e
    throw new StoreError(`cannot open the store ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  return db
}
