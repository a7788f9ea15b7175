/**
 * The stores the scale benchmarks measure side by side, in one run: SQLite, filled through the service, and
 * PostgreSQL where it is installed (a throwaway cluster started for the run), each of its stores a copy of a
 * filled SQLite one in a fresh database (bench/copy-store.ts says why). Without PostgreSQL the groups measure
 * SQLite alone and say why.
 */
import { openPostgresStore, type Store } from '../src/store/open-store'
import { missingPostgresMessage, postgresBinDir, startPostgres } from '../tests/support/postgres-cluster'
import { copySqliteToPostgres } from './copy-store'

export interface PostgresCopies {
  /** A new PostgreSQL store holding what the SQLite store at `sqlitePath` holds. */
  copyOf(sqlitePath: string): Promise<Store>
}

export type BenchStores =
  | { readonly postgres: PostgresCopies; readonly skipped?: never; close(): void }
  /** `skipped`: why PostgreSQL is not measured. */
  | { readonly postgres?: never; readonly skipped: string; close(): void }

export async function benchStores(): Promise<BenchStores> {
  if (postgresBinDir() === undefined) return { skipped: missingPostgresMessage, close: () => {} }
  const server = await startPostgres()
  return {
    postgres: {
      async copyOf(sqlitePath) {
        const url = await server.createDatabase()
        // Opened (so migrated) before the copy, and used as opened: the copy only fills its tables.
        const store = await openPostgresStore(url)
        await copySqliteToPostgres(sqlitePath, url)
        return store
      }
    },
    close: () => server.stop()
  }
}
