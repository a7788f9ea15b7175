/**
 * A SQLite store copied row for row into a PostgreSQL store (schema already migrated), for the scale benchmarks:
 * their PostgreSQL rows then read exactly the records the service wrote to SQLite, instead of the service writing
 * them all again (the follower's 40,000 writes and the 1,111 builds took 2 to 4 times as long on PostgreSQL, 13
 * minutes of a loaded machine). PostgreSQL's schema is SQLite's table for table and column for column
 * (src/store/postgres/migrations.ts): every column of every SQLite table is copied into the PostgreSQL one of
 * that name — one PostgreSQL lacks fails the copy; one only PostgreSQL has (a reservation's server time) takes its
 * default — with triggers and foreign keys off (the kept list counts are copied as they are),
 * the chain sequence moved past the copied numbers, and the tables analysed after, as autovacuum would have.
 */
import Database from 'better-sqlite3'
import pg from 'pg'

/** PostgreSQL takes at most 65,535 parameters a statement. */
const PARAMS_PER_INSERT = 30_000

export async function copySqliteToPostgres(sqlitePath: string, url: string): Promise<void> {
  const from = new Database(sqlitePath, { readonly: true })
  const to = new pg.Client({ connectionString: url })
  await to.connect()
  try {
    const found = await to.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position`
    )
    const tables = new Map<string, Set<string>>()
    for (const r of found.rows) tables.set(r.table_name, (tables.get(r.table_name) ?? new Set()).add(r.column_name))
    await to.query('BEGIN')
    await to.query('SET LOCAL session_replication_role = replica')
    for (const [table, inPostgres] of tables) {
      const names = (from.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name)
      const missing = names.filter((name) => !inPostgres.has(name))
      if (missing.length > 0) throw new Error(`PostgreSQL's ${table} has no column ${missing.join(', ')}`)
      const columns = names.map((name) => `"${name}"`)
      await to.query(`DELETE FROM ${table}`)
      const rows = from
        .prepare(`SELECT ${columns.join(', ')} FROM ${table}`)
        .raw()
        .all() as unknown[][]
      const perInsert = Math.floor(PARAMS_PER_INSERT / columns.length)
      for (let first = 0; first < rows.length; first += perInsert) {
        const batch = rows.slice(first, first + perInsert)
        const tuples = batch.map((_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
        await to.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, batch.flat())
      }
    }
    await to.query("SELECT setval('chain_seq', COALESCE((SELECT MAX(chain_seq) FROM txs), 0) + 1, false)")
    await to.query('COMMIT')
    await to.query('ANALYZE')
  } catch (e) {
    await to.query('ROLLBACK').catch(() => undefined)
    throw e
  } finally {
    await to.end()
    from.close()
  }
}
