/**
 * The PostgreSQL database behind a shared store: a pool of connections whose 64-bit integers read as BigInt (as
 * SQLite's safe integers do), the schema migrated on open — each version in its own transaction, under a lock
 * that makes two processes opening one new database at once migrate it once — and a database written by a newer
 * version refused before anything in it changes.
 */
import pg from 'pg'
import { StoreError } from '../database'
import { PG_MIGRATIONS } from './migrations'

/** The advisory-lock namespaces this store takes (the first key of pg_advisory_lock's two-key form). */
export const LOCKS = { migrate: 0x4d4c0001, followerLead: 0x4d4c0002, reservedRefs: 0x4d4c0003 } as const

const INT8_OID = 20

/** 64-bit integers as BigInt; every other type as the driver reads it (bytea as Buffer, text as string). */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (text: string) => BigInt(text)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser']
}

/** The url as it may be shown: without its password. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'the PostgreSQL database'
  }
}

/**
 * Connection settings for `url`, with this store's type parsers. A server that does not answer a connection within
 * 10 s is out of reach (StorageUnavailable), instead of a request waiting on the network's own timeout.
 */
export function connectionConfig(url: string): pg.ClientConfig {
  return { connectionString: url, types, connectionTimeoutMillis: 10_000 }
}

async function migrate(pool: pg.Pool, url: string): Promise<void> {
  for (;;) {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCKS.migrate])
      await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
      const found = await client.query<{ version: number }>('SELECT version FROM schema_version')
      const version = found.rows[0]?.version ?? 0
      if (version > PG_MIGRATIONS.length) {
        throw new StoreError(
          `${shownUrl(url)} was written by a newer Marlowe Desk (schema ${version}; this version knows ${PG_MIGRATIONS.length}); it was not changed`
        )
      }
      if (version === PG_MIGRATIONS.length) {
        await client.query('COMMIT')
        return
      }
      await client.query(PG_MIGRATIONS[version]!)
      if (found.rows.length === 0) await client.query('INSERT INTO schema_version (version) VALUES (1)')
      else await client.query('UPDATE schema_version SET version = $1', [version + 1])
      await client.query('COMMIT')
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw e
    } finally {
      client.release()
    }
  }
}

/** Connects to `url` and migrates its schema; the pool's idle connections that fail are dropped and made again. */
export async function openPool(url: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...connectionConfig(url), max: 10 })
  // An idle connection the server closed is discarded by the pool; the next query opens another. Without a
  // listener the error would end the process.
  pool.on('error', () => undefined)
  try {
    await migrate(pool, url)
  } catch (e) {
    await pool.end()
    if (e instanceof StoreError) throw e
    throw new StoreError(`cannot open the store ${shownUrl(url)}: ${e instanceof Error ? e.message : String(e)}`)
  }
  return pool
}
