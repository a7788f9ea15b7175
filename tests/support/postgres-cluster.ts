/**
 * A real PostgreSQL server for the tests: Debian's binaries (/usr/lib/postgresql/N/bin), a throwaway cluster in a
 * temp dir listening on 127.0.0.1 at a free port (its socket in that dir too, never the system's), stopped and
 * removed afterwards. Without PostgreSQL the tests that use it skip and say why; where
 * MARLOWE_REQUIRE_POSTGRES=1 (CI, see .ci/run) they fail instead.
 *
 * Tests use it through ./postgres-server.ts (usePostgres); the bench starts one with startPostgres.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'pg'

export const REQUIRE_POSTGRES = 'MARLOWE_REQUIRE_POSTGRES'
const ROOT = '/usr/lib/postgresql'
/** The superuser initdb makes; trust auth on 127.0.0.1 only, so no password. */
const SUPERUSER = 'postgres'

/** The newest installed PostgreSQL's bin dir that has initdb, or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(ROOT)) return undefined
  const versions = readdirSync(ROOT)
    .filter((v) => existsSync(join(ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length === 0 ? undefined : join(ROOT, versions[0] as string, 'bin')
}

export const missingPostgresMessage = `PostgreSQL not found (no ${ROOT}/*/bin/initdb; Debian's package: postgresql)`

/** Throws when PostgreSQL is required (MARLOWE_REQUIRE_POSTGRES=1) and absent. */
export function checkPostgres(env: Readonly<Record<string, string | undefined>>, present: boolean): void {
  if (env[REQUIRE_POSTGRES] === '1' && !present) {
    throw new Error(`${missingPostgresMessage} (required here: ${REQUIRE_POSTGRES}=1)`)
  }
}

export interface PostgresServer {
  readonly port: number
  /** `postgres://postgres@127.0.0.1:PORT/NAME` */
  urlOf(database: string): string
  /** Creates a fresh, empty database and answers its URL. */
  createDatabase(): Promise<string>
  stop(): void
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => done(port))
    })
  })
}

/** initdb and postgres refuse to run as root: there, run them as the `postgres` system user. */
function asServerUser(bin: string, args: readonly string[]): { file: string; args: string[] } {
  const isRoot = process.getuid?.() === 0
  return isRoot ? { file: 'runuser', args: ['-u', SUPERUSER, '--', bin, ...args] } : { file: bin, args: [...args] }
}

function run(bin: string, args: readonly string[]): void {
  const command = asServerUser(bin, args)
  const result = spawnSync(command.file, command.args, { encoding: 'utf8', timeout: 60_000 })
  if (result.status !== 0) {
    throw new Error(`${bin} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stderr}`)
  }
}

let databases = 0

/** Starts a new cluster; throws (saying why) when PostgreSQL is absent or does not start. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir()
  if (bin === undefined) throw new Error(missingPostgresMessage)
  const dir = mkdtempSync(join(tmpdir(), 'marlowe-pg-'))
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  run(join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-sync'])
  // Durability is not what these tests check (a crash of the test machine loses a throwaway cluster anyway).
  const options = `-c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off -c max_connections=200`
  let port = 0
  for (let attempt = 0; ; attempt++) {
    port = await freePort()
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} ${options}`, 'start'])
      break
    } catch (error) {
      // Another process may have taken the port between freePort and the server's bind: try another.
      if (attempt >= 2) {
        const logText = existsSync(log) ? readFileSync(log, 'utf8') : ''
        rmSync(dir, { recursive: true, force: true })
        throw new Error(`${(error as Error).message}\n${logText}`)
      }
    }
  }
  const urlOf = (database: string): string => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`
  return {
    port,
    urlOf,
    async createDatabase() {
      const name = `test_${process.pid}_${++databases}`
      const client = new Client({ connectionString: urlOf('postgres') })
      await client.connect()
      try {
        await client.query(`CREATE DATABASE ${name}`)
      } finally {
        await client.end()
      }
      return urlOf(name)
    },
    stop() {
      const command = asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
      spawnSync(command.file, command.args, { timeout: 60_000 })
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
