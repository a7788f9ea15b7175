/**
 * Where a PostgreSQL store's statements run: on the pool (each statement on whichever connection is free, a
 * transaction on one connection taken for it), or inside a transaction already open on one connection, where
 * everything, a nested transaction too, runs on that connection.
 */
import type pg from 'pg'

export interface PgSession {
  rows<R>(sql: string, values?: readonly unknown[]): Promise<R[]>
  /** How many rows the statement changed. */
  run(sql: string, values?: readonly unknown[]): Promise<number>
  /** Runs `work` in one transaction (READ COMMITTED: each statement sees what others committed before it). */
  transaction<T>(work: (session: PgSession) => Promise<T>): Promise<T>
}

type Queryable = Pick<pg.PoolClient, 'query'>

abstract class QueryingSession implements PgSession {
  constructor(private readonly db: Queryable) {}

  async rows<R>(sql: string, values: readonly unknown[] = []): Promise<R[]> {
    const result = await this.db.query(sql, [...values])
    return result.rows as R[]
  }

  async run(sql: string, values: readonly unknown[] = []): Promise<number> {
    const result = await this.db.query(sql, [...values])
    return result.rowCount ?? 0
  }

  abstract transaction<T>(work: (session: PgSession) => Promise<T>): Promise<T>
}

/** Inside an open transaction: a nested one is part of it. */
class TransactionSession extends QueryingSession {
  transaction<T>(work: (session: PgSession) => Promise<T>): Promise<T> {
    return work(this)
  }
}

export class PoolSession extends QueryingSession {
  constructor(private readonly pool: pg.Pool) {
    super(pool)
  }

  async transaction<T>(work: (session: PgSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED')
      const result = await work(new TransactionSession(client))
      await client.query('COMMIT')
      return result
    } catch (e) {
      await client.query('ROLLBACK').catch((lost: unknown) => {
        // The connection is gone (the server rolled the transaction back itself): the pool must not reuse it.
        broken = lost instanceof Error ? lost : new Error(String(lost))
      })
      throw e
    } finally {
      client.release(broken)
    }
  }
}
