/**
 * A real PostgreSQL server for a test file (./postgres-cluster.ts): started in beforeAll, a fresh database made
 * for the file, stopped and removed in afterAll.
 *
 *   const pg = usePostgres()            // at the top of a test file (registers beforeAll/afterAll)
 *   describe.skipIf(!pg.available)(…, () => { it(…, () => openPostgresStore(pg.url())) })
 *   await pg.createDatabase()           // another fresh database on the same server, its URL
 */
import { afterAll, beforeAll } from 'vitest'
import {
  checkPostgres,
  missingPostgresMessage,
  postgresBinDir,
  startPostgres,
  type PostgresServer
} from './postgres-cluster'

export {
  checkPostgres,
  missingPostgresMessage,
  REQUIRE_POSTGRES,
  startPostgres,
  type PostgresServer
} from './postgres-cluster'

export interface PostgresFixture {
  /** False where PostgreSQL is not installed (and not required): skip with describe.skipIf(!pg.available). */
  readonly available: boolean
  /** The fresh database made for this test file (valid inside tests, after beforeAll). */
  url(): string
  /** Another fresh database on this file's server. */
  createDatabase(): Promise<string>
  server(): PostgresServer
}

/**
 * One PostgreSQL server and a fresh database for the calling test file: started in beforeAll, stopped and
 * removed in afterAll. Prints why when it skips; throws when required and absent.
 */
export function usePostgres(): PostgresFixture {
  const available = postgresBinDir() !== undefined
  checkPostgres(process.env, available)
  if (!available) console.warn(`${missingPostgresMessage}: skipping the PostgreSQL tests`)
  let started: PostgresServer | undefined
  let database: string | undefined
  const server = (): PostgresServer => {
    if (started === undefined) throw new Error('the PostgreSQL server is not started (use it inside a test)')
    return started
  }
  beforeAll(async () => {
    if (!available) return
    started = await startPostgres()
    database = await started.createDatabase()
  }, 120_000)
  afterAll(() => {
    started?.stop()
    started = undefined
  })
  return {
    available,
    url() {
      if (database === undefined) throw new Error('the PostgreSQL database is not made yet (use it inside a test)')
      return database
    },
    createDatabase: () => server().createDatabase(),
    server
  }
}
