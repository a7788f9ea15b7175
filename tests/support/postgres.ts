/**
 * A throw-away PostgreSQL server for the store tests: a cluster made by initdb in a temporary directory, listening
 * on 127.0.0.1 on a free port, one fresh database per `database()`. The binaries are found on PATH or in Debian's
 * /usr/lib/postgresql/<version>/bin; initdb refuses to run as root, so as root the cluster belongs to the
 * `postgres` user. Where PostgreSQL is missing the tests that need it skip, saying so, unless
 * MARLOWE_REQUIRE_POSTGRES=1 (CI), where they fail.
 *
 *   const pg = usePostgres()            // at the top of a test file (starts the server in beforeAll)
 *   describe.skipIf(!pg.available)(…, () => { … openPostgresStore(await pg.createDatabase()) … })
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { delimiter, join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'

export const REQUIRE_POSTGRES = 'MARLOWE_REQUIRE_POSTGRES'

/** The directory holding initdb and pg_ctl, if PostgreSQL is installed. */
function binaries(): string | undefined {
  const onPath = (process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== '')
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join('/usr/lib/postgresql', v, 'bin'))
    : []
  return [...onPath, ...debian].find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')))
}

const bin = binaries()
export const havePostgres = bin !== undefined
export const missingPostgresMessage =
  'PostgreSQL not found (initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin): the PostgreSQL store tests are skipped'

if (!havePostgres) {
  if (process.env[REQUIRE_POSTGRES] === '1') {
    throw new Error(`${missingPostgresMessage} (required here: ${REQUIRE_POSTGRES}=1)`)
  }
  console.warn(`SKIPPED: ${missingPostgresMessage}`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()))
    })
  })
}

export interface PostgresServer {
  /** A url of a new, empty database on the server. */
  createDatabase(): Promise<string>
  stop(): Promise<void>
}

/** Starts a cluster of its own (call only where `havePostgres`). */
export async function startPostgres(): Promise<PostgresServer> {
  if (bin === undefined) throw new Error(missingPostgresMessage)
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-desk-pg-'))
  const asRoot = userInfo().uid === 0
  const user = asRoot ? 'postgres' : userInfo().username
  const run = (tool: string, args: string[]): void => {
    const command = join(bin, tool)
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
    else execFileSync(command, args, { stdio: 'pipe' })
  }
  if (asRoot) {
    const pgUser = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()
    const pgGroup = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()
    chownSync(dir, Number(pgUser), Number(pgGroup))
  }
  const data = join(dir, 'data')
  run('initdb', ['-D', data, '-U', user, '--auth=trust', '--no-sync', '-E', 'UTF8'])
  const port = await freePort()
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    'start'
  ])
  const root = `postgres://${user}@127.0.0.1:${port}`
  let made = 0
  return {
    async createDatabase() {
      made += 1
      const name = `store_${made}`
      const admin = new pg.Client({ connectionString: `${root}/postgres` })
      await admin.connect()
      try {
        await admin.query(`CREATE DATABASE ${name}`)
      } finally {
        await admin.end()
      }
      return `${root}/${name}`
    },
    stop() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])
      rmSync(dir, { recursive: true, force: true })
      return Promise.resolve()
    }
  }
}

export interface PostgresFixture {
  /** False where PostgreSQL is not installed (and not required): skip with describe.skipIf(!pg.available). */
  readonly available: boolean
  /** A fresh database on this file's server (inside tests, after beforeAll). */
  createDatabase(): Promise<string>
}

/** One server for the calling test file: started in beforeAll, stopped and removed in afterAll. */
export function usePostgres(): PostgresFixture {
  let server: PostgresServer | undefined
  beforeAll(async () => {
    if (havePostgres) server = await startPostgres()
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    server = undefined
  })
  return {
    available: havePostgres,
    createDatabase() {
      if (server === undefined) throw new Error('the PostgreSQL server is not started (use it inside a test)')
      return server.createDatabase()
    }
  }
}

export interface StoreKind {
  readonly name: 'SQLite' | 'PostgreSQL'
  /** False where the database is not installed here (the tests then skip). */
  readonly available: boolean
  /** A fresh PostgreSQL database's url, or undefined for SQLite (a file of the test's own). */
  storeUrl(): Promise<string | undefined>
}

/** The two stores a service test runs on, for describe.each; call at the top of a test file. */
export function storeKinds(): StoreKind[] {
  const server = usePostgres()
  return [
    { name: 'SQLite', available: true, storeUrl: () => Promise.resolve(undefined) },
    { name: 'PostgreSQL', available: server.available, storeUrl: () => server.createDatabase() }
  ]
}
