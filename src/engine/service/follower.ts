/**
 * The follower moves statuses on after a submit: submitted → confirmed (block recorded, and what the tx does
 * applied: the contract's head moves, payouts appear or are withdrawn), and back to unsigned when the node
 * dropped a tx (Runtime does the same), so it can be submitted again. It also settles submits a crash
 * interrupted: an attempt the node knows of is recorded as submitted (or confirmed), not lost.
 */
import { ChainError, type ChainProvider, type TxStatus } from '../../chain/provider'
import { stringifyJson } from '../../core/json/lossless'
import { toJsonValue } from '../../core/json/plain'
import type { BlockRow, ServiceStore, TxRow } from '../../store/service-store'
import { recordOf } from './views'

export interface FollowerOptions {
  readonly provider: ChainProvider
  readonly store: ServiceStore
  /** Frees a build's reserved inputs once it is confirmed (until then the ledger still lists them unspent). */
  readonly release: (reservationKey: string) => Promise<void>
  /** How long a submitted tx may be unknown to the node before it counts as dropped; default 10 minutes. */
  readonly dropAfterMs?: number
  readonly now?: () => number
}

export interface SyncReport {
  readonly confirmed: readonly string[]
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

  /** Runs `sync` every `intervalMs` until `stop`; the timer never keeps the process alive. */
  start(intervalMs: number): void {
    if (this.following) return
    this.following = true
    const tick = (): void => {
      if (!this.following) return
      this.timer = setTimeout(() => void this.sync().then(tick, tick), intervalMs)
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
    const { store } = this.options
    const confirmed: string[] = []
    const dropped: string[] = []
    for (const row of [...store.txsWithStatus('submitted'), ...store.attemptedSubmits()]) {
      let status: TxStatus
      try {
        status = await this.options.provider.txStatus(row.txId)
      } catch (e) {
        if (e instanceof ChainError) return { confirmed, dropped, reachedNode: false }
        throw e
      }
      if (status.status === 'confirmed') {
        this.confirm(row, status.block)
        confirmed.push(row.txId)
        await this.options.release(row.reservationKey)
      } else if (status.status === 'pending' && row.status === 'unsigned' && row.signedTx !== undefined) {
        store.markSubmitted(row.txId, row.signedTx, this.now())
      } else if (status.status === 'unknown' && row.status === 'submitted' && this.isOverdue(row)) {
        store.markUnsigned(row.txId)
        dropped.push(row.txId)
      }
    }
    return { confirmed, dropped, reachedNode: true }
  }

  private isOverdue(row: TxRow): boolean {
    return this.now() - (row.submittedAt ?? row.createdAt) > (this.options.dropAfterMs ?? DEFAULT_DROP_AFTER_MS)
  }

  private confirm(row: TxRow, block: BlockRow): void {
    const { store } = this.options
    if (row.kind === 'create') {
      store.confirm(row.txId, block, { head: { contractId: row.contractId ?? '' } })
    } else if (row.kind === 'apply') {
      const record = recordOf(row, 'apply')
      const contractId = row.contractId ?? ''
      store.confirm(row.txId, block, {
        head: { contractId },
        newPayouts: record.payouts.map((p) => ({
          payoutId: p.ref,
          contractId,
          txId: row.txId,
          rolesCurrency: p.rolesCurrency,
          role: p.role,
          assets: stringifyJson(toJsonValue(p.assets))
        }))
      })
    } else {
      store.confirm(row.txId, block, { withdrawn: recordOf(row, 'withdraw').payouts.map((p) => p.ref) })
    }
  }
}
