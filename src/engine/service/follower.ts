/**
 * The follower keeps the service in step with the chain. Each round first reads the chain index on
 * (./chain-index.ts: every Marlowe transaction, ours confirmed wherever they were submitted, others' recorded,
 * rollbacks undone), then asks the node about each of our transactions still waiting: confirmed (block
 * recorded, and what the tx does applied: the contract's head moves, payouts appear or are withdrawn), or back
 * to unsigned when the node dropped it (Runtime does the same), so it can be submitted again. It also settles
 * submits a crash interrupted: an attempt the node knows of is recorded as submitted (or confirmed), not lost.
 */
import { ChainError, type ChainProvider, type TxStatus } from '../../chain/provider'
import type { ServiceStore, TxRow } from '../../store/service-store'
import type { ChainIndex } from './chain-index'

export interface FollowerOptions {
  readonly provider: ChainProvider
  readonly store: ServiceStore
  readonly index: ChainIndex
  /** How long a submitted tx may be unknown to the node before it counts as dropped; default 10 minutes. */
  readonly dropAfterMs?: number
  readonly now?: () => number
  /**
   * Whether this process may follow now (default: always). Replicas on one shared store all ask it every
   * round; one leads, and when its process dies another one's next round takes over.
   */
  readonly mayLead?: () => Promise<boolean>
}

export interface SyncReport {
  /** Our transactions confirmed in this round. */
  readonly confirmed: readonly string[]
  /** Others' Marlowe transactions read from the chain in this round. */
  readonly recorded: readonly string[]
  readonly dropped: readonly string[]
  /** False when the node could not be asked; the next round tries again. */
  readonly reachedNode: boolean
}

const DEFAULT_DROP_AFTER_MS = 10 * 60 * 1000

export class Follower {
  private readonly now: () => number
  private running: Promise<SyncReport> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private following = false

  constructor(private readonly options: FollowerOptions) {
    this.now = options.now ?? Date.now
  }

  /** One round over every tx waiting on the chain; concurrent calls share the round in progress. */
  sync(): Promise<SyncReport> {
    this.running ??= this.round().finally(() => (this.running = undefined))
    return this.running
  }

  /**
   * Runs `sync` every `intervalMs` until `stop`, in the rounds this process leads; the timer never keeps the
   * process alive.
   */
  start(intervalMs: number): void {
    if (this.following) return
    this.following = true
    const mayLead = this.options.mayLead ?? (() => Promise.resolve(true))
    const round = async (): Promise<void> => {
      if (await mayLead()) await this.sync()
    }
    const tick = (): void => {
      if (!this.following) return
      this.timer = setTimeout(() => void round().then(tick, tick), intervalMs)
      this.timer.unref()
    }
    tick()
  }

  /** Stops following; resolves once a round in progress has finished. */
  async stop(): Promise<void> {
    this.following = false
    clearTimeout(this.timer)
    await this.running?.catch(() => undefined)
  }

  private async round(): Promise<SyncReport> {
    const { store, index } = this.options
    const confirmed: string[] = []
    const recorded: string[] = []
    const dropped: string[] = []
    const report = (reachedNode: boolean): SyncReport => ({ confirmed, recorded, dropped, reachedNode })
    try {
      const read = await index.catchUp()
      confirmed.push(...read.confirmed)
      recorded.push(...read.recorded)
    } catch (e) {
      if (e instanceof ChainError) return report(false)
      throw e
    }
    for (const row of [...(await store.txsWithStatus('submitted')), ...(await store.attemptedSubmits())]) {
      let status: TxStatus
      try {
        status = await this.options.provider.txStatus(row.txId)
      } catch (e) {
        if (e instanceof ChainError) return report(false)
        throw e
      }
      if (status.status === 'confirmed') {
        await index.confirmBuilt(row, status.block)
        confirmed.push(row.txId)
      } else if (status.status === 'pending' && row.status === 'unsigned' && row.signedTx !== undefined) {
        await store.markSubmitted(row.txId, row.signedTx, this.now())
      } else if (status.status === 'unknown' && row.status === 'submitted' && this.isOverdue(row)) {
        await store.markUnsigned(row.txId)
        dropped.push(row.txId)
      }
    }
    return report(true)
  }

  private isOverdue(row: TxRow): boolean {
    return this.now() - (row.submittedAt ?? row.createdAt) > (this.options.dropAfterMs ?? DEFAULT_DROP_AFTER_MS)
  }
}
