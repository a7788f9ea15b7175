import { readFileSync } from 'node:fs'
import { Client } from 'pg'
import { describe, expect, it } from 'vitest'
import { checkPostgres, missingPostgresMessage, usePostgres } from './postgres-server'

const pg = usePostgres()

describe('the tests’ PostgreSQL server', () => {
  it('is required where MARLOWE_REQUIRE_POSTGRES=1: missing, the run fails saying what is missing', () => {
    expect(() => checkPostgres({ MARLOWE_REQUIRE_POSTGRES: '1' }, false)).toThrow(
      `${missingPostgresMessage} (required here: MARLOWE_REQUIRE_POSTGRES=1)`
    )
    expect(() => checkPostgres({}, false)).not.toThrow()
    expect(() => checkPostgres({ MARLOWE_REQUIRE_POSTGRES: '1' }, true)).not.toThrow()
    const ci = readFileSync('.ci/run', 'utf8')
    expect(ci).toMatch(/^export MARLOWE_REQUIRE_POSTGRES=1$/m)
  })

  it.skipIf(!pg.available)('serves a fresh database per file on 127.0.0.1, and another on request', async () => {
    expect(pg.url()).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test_\d+_\d+$/)
    const client = new Client({ connectionString: pg.url() })
    await client.connect()
    try {
      await client.query('CREATE TABLE t (n bigint)')
      await client.query('INSERT INTO t VALUES (9007199254740993)')
      const rows = await client.query<{ n: string }>('SELECT n FROM t')
      expect(rows.rows).toEqual([{ n: '9007199254740993' }])
    } finally {
      await client.end()
    }
    const other = new Client({ connectionString: await pg.createDatabase() })
    await other.connect()
    try {
      const tables = await other.query("SELECT 1 FROM information_schema.tables WHERE table_name = 't'")
      expect(tables.rowCount).toBe(0)
    } finally {
      await other.end()
    }
  })
})
