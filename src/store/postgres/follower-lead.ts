/**
 * Which of the processes sharing a database runs the follower: the one holding a session advisory lock on a
 * connection of its own (outside the pool, so the lock is never handed to another caller with a pooled
 * connection). The server drops the lock when that connection ends, however its process ended (a kill -9 too),
 * so a process that asks again later takes over.
 */
import pg from 'pg'
import { connectionConfig, LOCKS } from './database'

export class FollowerLead {
  private client: pg.Client | undefined
  private leading = false
  private closed = false

  constructor(private readonly url: string) {}

  /** True while this process holds the lead (taken now or before); ask again to take over from a leader gone. */
  async tryLead(): Promise<boolean> {
    if (this.closed) return false
    if (this.leading && this.client !== undefined) return true
    const client = this.client ?? (await this.connect())
    const [row] = (
      await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, 0) AS locked', [LOCKS.followerLead])
    ).rows
    this.leading = row?.locked === true
    return this.leading
  }

  async close(): Promise<void> {
    this.closed = true
    const client = this.client
    this.client = undefined
    this.leading = false
    await client?.end()
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
