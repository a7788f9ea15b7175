/**
 * Where a PostgreSQL store's statements run: on the pool (each statement on whichever connection is free, a
 * transaction on one connection taken for it), or inside a transaction already open on one connection, where
 * everything, a nested transaction too, runs on that connection.
 */
import type pg from 'pg'
import { StorageFailure } from '../storage-failure'

export interface PgSession {
  rows<R>(sql: string, values?: readonly unknown[]): Promise<R[]>
  /** How many rows the statement changed. */
  run(sql: string, values?: readonly unknown[]): Promise<number>
  /** Runs `work` in one transaction (READ COMMITTED: each statement sees what others committed before it). */
  transaction<T>(work: (session: PgSession) => Promise<T>): Promise<T>
}

type Queryable = Pick<pg.PoolClient, 'query'>

/**
 * SQLSTATE classes of a server that cannot take the statement now, whatever it was: a connection exception (08),
 * insufficient resources (53: a full disk is 53100, too many connections 53300), or a shutdown (57P01-57P03).
 */
const UNAVAILABLE_STATE = /^(08|53|57P0[1-3])/
/** The driver's words for a connection it lost or could not make in time (it gives them no code). */
const LOST_CONNECTION = /connection terminated|connection error|not queryable|timeout exceeded when trying to connect/i

/** `e` as a StorageFailure where the database could not be used (unreachable, lost, full, shutting down). */
export function storeFailure(e: unknown): unknown {
  if (!(e instanceof Error)) return e
  const code = (e as { code?: unknown }).code
  // Node's network errors (ECONNREFUSED, ECONNRESET, ETIMEDOUT, ENOTFOUND…) reaching the server.
  const network = typeof code === 'string' && /^E[A-Z]+$/.test(code)
  if (network || (typeof code === 'string' && UNAVAILABLE_STATE.test(code))) {
    return new StorageFailure(`the PostgreSQL store is unavailable: ${e.message}`, `POSTGRES_${code}`)
  }
  if (LOST_CONNECTION.test(e.message)) {
    return new StorageFailure(`the PostgreSQL store is unavailable: ${e.message}`, 'POSTGRES_CONNECTION_LOST')
  }
  return e
}

/** Runs `op`, its failure to reach the database rethrown as a StorageFailure. */
async function reaching<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op()
  } catch (e) {
    throw storeFailure(e)
  }
}

abstract class QueryingSession implements PgSession {
  constructor(private readonly db: Queryable) {}

  async rows<R>(sql: string, values: readonly unknown[] = []): Promise<R[]> {
    const result = await reaching(() => this.db.query(sql, [...values]))
    return result.rows as R[]
  }

  async run(sql: string, values: readonly unknown[] = []): Promise<number> {
    const result = await reaching(() => this.db.query(sql, [...values]))
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
    const client = await reaching(() => this.pool.connect())
    let broken: Error | undefined
    try {
      const session = new TransactionSession(client)
      await session.run('BEGIN ISOLATION LEVEL READ COMMITTED')
      const result = await work(session)
      await session.run('COMMIT')
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
