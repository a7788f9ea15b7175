/**
 * Which of the processes sharing a database runs the follower: the one holding a session advisory lock on a
 * connection of its own (outside the pool, so the lock is never handed to another caller with a pooled
 * connection). The server drops the lock when that connection ends, however its process ended (a kill -9 too),
 * so a process that asks again later takes over.
 */
import pg from 'pg'
import { StorageFailure } from '../storage-failure'
import { connectionConfig, LOCKS } from './database'
import { storeFailure } from './session'

export class FollowerLead {
  private client: pg.Client | undefined
  private leading = false
  private closed = false

  constructor(private readonly url: string) {}

  /**
   * True while this process holds the lead (taken now or before); ask again to take over from a leader gone.
   * False too while the database cannot be reached: a process that cannot reach it cannot follow into it.
   */
  async tryLead(): Promise<boolean> {
    if (this.closed) return false
    if (this.leading && this.client !== undefined) return true
    try {
      const client = this.client ?? (await this.connect())
      const [row] = (
        await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, 0) AS locked', [LOCKS.followerLead])
      ).rows
      this.leading = row?.locked === true
      return this.leading
    } catch (e) {
      const failure = storeFailure(e)
      if (!(failure instanceof StorageFailure)) throw failure
      await this.drop()
      return false
    }
  }

  /** Forgets the connection (ending it if it is still open): its lock, if any, goes with it. */
  private async drop(): Promise<void> {
    const client = this.client
    this.client = undefined
    this.leading = false
    await client?.end().catch(() => undefined)
  }

  async close(): Promise<void> {
    this.closed = true
    await this.drop()
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(connectionConfig(this.url))
    // A lost connection loses the lock with it: the next call connects again and asks again.
    const lost = (): void => {
      if (this.client === client) {
        this.client = undefined
        this.leading = false
      }
    }
    client.on('error', lost)
    client.on('end', lost)
    await client.connect()
    this.client = client
    return client
  }
}
