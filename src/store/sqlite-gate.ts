/**
 * One SQLite connection shared by asynchronous callers. The driver answers at once, but a transaction whose work
 * awaits (a page of the chain index) lets other callers run meanwhile: they wait here until it commits or rolls
 * back, so that nothing of theirs runs inside it, and no transaction starts inside another.
 */
import type { Db } from './database'

export class SqliteGate {
  private held: Promise<void> | undefined

  constructor(readonly db: Db) {}

  /** Runs `op` once no transaction holds the connection. */
  async run<T>(op: () => T): Promise<T> {
    while (this.held !== undefined) await this.held
    return op()
  }

  /** Runs `work` in one transaction, holding the connection until it ends: all of its writes, or none. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    while (this.held !== undefined) await this.held
    let release = (): void => undefined
    this.held = new Promise<void>((resolve) => (release = resolve))
    try {
      this.db.exec('BEGIN')
      const result = await work()
      this.db.exec('COMMIT')
      return result
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
      throw e
    } finally {
      this.held = undefined
      release()
    }
  }
}
