/**
 * The stores the shared store tests run against: SQLite (a real file) and PostgreSQL (a real server, skipped
 * where it is not installed; see ../support/postgres-server.ts). A test gets a fresh database and opens stores on it;
 * each store opened is another process's worth of connections to the same data. Stores are closed after each test.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterEach } from 'vitest'
import { openPostgresStore, openSqliteStore, type Store } from '../../src/store/open-store'
import { usePostgres } from '../support/postgres-server'

export interface StoreDatabase {
  /** A new store on this database, as another process would open it. */
  open(): Promise<Store>
  /** SELECT COUNT(*) `from` (`table WHERE …`), through a connection of its own. */
  count(from: string): Promise<number>
}

export interface StoreBackend {
  readonly name: string
  /** False where the database is not installed here (the tests then skip). */
  readonly available: boolean
  fresh(): Promise<StoreDatabase>
}

/** SELECT COUNT(*) `from` in the SQLite file at `path`, through a read-only connection of its own. */
export function countInSqlite(path: string, from: string): number {
  const db = new Database(path, { readonly: true })
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${from}`).get() as { n: number }).n
  } finally {
    db.close()
  }
}

/** Both backends, for describe.each; call at the top of a test file (it registers the server's hooks). */
export function storeBackends(): StoreBackend[] {
  const server = usePostgres()
  const opened: Store[] = []
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
  })
  const sqlite: StoreBackend = {
    name: 'SQLite',
    available: true,
    fresh: () => {
      const path = join(mkdtempSync(join(tmpdir(), 'marlowe-desk-stores-')), 'store.sqlite')
      return Promise.resolve({
        open: () => {
          const store = openSqliteStore(path)
          opened.push(store)
          return Promise.resolve(store)
        },
        count: (from) => Promise.resolve(countInSqlite(path, from))
      })
    }
  }
  const postgres: StoreBackend = {
    name: 'PostgreSQL',
    available: server.available,
    fresh: async () => {
      const url = await server.createDatabase()
      return {
        open: async () => {
          const store = await openPostgresStore(url)
          opened.push(store)
          return store
        },
        count: async (from) => {
          const client = new pg.Client({ connectionString: url })
          await client.connect()
          try {
            const { rows } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${from}`)
            return Number(rows[0]?.n)
          } finally {
            await client.end()
          }
        }
      }
    }
  }
  return [sqlite, postgres]
}
