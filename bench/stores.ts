/**
 * The stores the scale benchmarks measure side by side, in one run: SQLite always, and PostgreSQL where it is
 * installed (a throwaway cluster started for the run, a fresh database for each store opened). Without PostgreSQL
 * the groups measure SQLite alone and say why.
 */
import { join } from 'node:path'
import { openPostgresStore, openSqliteStore, type Store } from '../src/store/open-store'
import { missingPostgresMessage, postgresBinDir, startPostgres } from '../tests/support/postgres-cluster'

export interface BenchStore {
  readonly name: 'SQLite' | 'PostgreSQL'
  /** A new, empty store; `label` names its file or database among this run's. */
  open(label: string): Promise<Store>
}

export interface BenchStores {
  readonly stores: readonly BenchStore[]
  /** Why PostgreSQL is not among `stores`, when it is not. */
  readonly skipped?: string
  close(): void
}

/** The stores, SQLite's files in `dir`. */
export async function benchStores(dir: string): Promise<BenchStores> {
  const sqlite: BenchStore = {
    name: 'SQLite',
    open: (label) => Promise.resolve(openSqliteStore(join(dir, `${label}.sqlite`)))
  }
  if (postgresBinDir() === undefined) return { stores: [sqlite], skipped: missingPostgresMessage, close: () => {} }
  const server = await startPostgres()
  const postgres: BenchStore = {
    name: 'PostgreSQL',
    open: async () => openPostgresStore(await server.createDatabase())
  }
  return { stores: [sqlite, postgres], close: () => server.stop() }
}
