/**
 * Follows the chain from the tip with Ogmios' chain sync (`findIntersection`, then `nextBlock` forever) and
 * remembers which block holds each transaction, for `txStatus`: Ogmios has no "transaction by id" query.
 *
 * Limits, by design:
 * - only blocks seen since the follower started are known: an older transaction is not found here;
 * - only the last `maxBlocks` blocks are kept (bounded memory); older confirmations are forgotten;
 * - a rollback removes the rolled-back blocks, so their transactions are no longer confirmed.
 *
 * After a reconnection the follower resumes from the newest blocks it knows (so a rollback that happened while
 * it was away is seen as one), or from the tip when none of them is on the chain any more. A session that goes
 * wrong (no block for `nextBlockTimeoutMs`, a malformed answer) drops the connection, after a growing pause.
 */
import type { BlockPraos as Praos, RollBackward, RollForward, Transaction } from '@cardano-ogmios/schema'
import type { JsonValue } from '../../core/json/lossless'
import type { TxStatus } from '../provider'
import { toPoint } from './convert-ledger'
import { array, Fields } from '../json-shape'
import { RpcError, type RpcClient } from './rpc-client'

export type ConfirmedIn = Extract<TxStatus, { status: 'confirmed' }>['block']

interface BlockRecord extends ConfirmedIn {
  readonly txIds: readonly string[]
}

type ChainPoint = { readonly slot: bigint; readonly id: string } | 'origin'

export interface ChainFollowerOptions {
  /** Blocks whose transactions are remembered. */
  readonly maxBlocks: number
  /** Longest wait for the next block before the session is considered stuck and restarted. */
  readonly nextBlockTimeoutMs: number
  /** First pause before restarting a failed session; it doubles with each failure in a row, up to 30 s. */
  readonly restartDelayMs: number
}

const INTERSECTION_NOT_FOUND = 1000
const MAX_RESTART_DELAY_MS = 30_000

export class ChainFollower {
  private readonly blocks: BlockRecord[] = []
  private readonly byTx = new Map<string, BlockRecord>()
  /** Bumped on every (re)start and disconnection, so that a stale loop stops at its next step. */
  private session = 0
  private failures = 0
  private restartTimer: ReturnType<typeof setTimeout> | undefined
  private unsubscribe: (() => void)[] = []

  constructor(
    private readonly client: RpcClient,
    private readonly options: ChainFollowerOptions
  ) {}

  /** Starts following on the client's connection, and again after every reconnection. */
  start(): void {
    this.unsubscribe = [
      this.client.onOpen(() => this.begin()),
      this.client.onClose(() => {
        this.session += 1
      })
    ]
    if (this.client.isOpen) this.begin()
  }

  stop(): void {
    this.session += 1
    for (const unsubscribe of this.unsubscribe) unsubscribe()
    this.unsubscribe = []
    if (this.restartTimer !== undefined) clearTimeout(this.restartTimer)
  }

  /** The block holding `txId`, among the blocks remembered. */
  lookup(txId: string): ConfirmedIn | undefined {
    const block = this.byTx.get(txId)
    return block === undefined ? undefined : { slot: block.slot, blockNo: block.blockNo, blockHash: block.blockHash }
  }

  private begin(): void {
    if (this.restartTimer !== undefined) clearTimeout(this.restartTimer)
    this.restartTimer = undefined
    const session = ++this.session
    this.follow(session).catch(() => this.failed(session))
  }

  private async follow(session: number): Promise<void> {
    await this.intersect()
    while (this.session === session) {
      const result = await this.client.request('nextBlock', undefined, { timeoutMs: this.options.nextBlockTimeoutMs })
      if (this.session !== session) return
      this.apply(result)
      this.failures = 0
    }
  }

  /** A failure on a live connection leaves the chain-sync state unknown: pause, then start over on a new one. */
  private failed(session: number): void {
    if (this.session !== session || !this.client.isOpen) return // a disconnection: the reconnection restarts us
    const delay = Math.min(MAX_RESTART_DELAY_MS, this.options.restartDelayMs * 2 ** Math.min(this.failures, 20))
    this.failures += 1
    this.restartTimer = setTimeout(() => {
      if (this.session === session) this.client.reset()
    }, delay)
    this.restartTimer.unref()
  }

  private async intersect(): Promise<void> {
    const known = this.knownPoints()
    if (known.length > 0) {
      try {
        await this.client.request('findIntersection', { points: known.map(pointJson) })
        return
      } catch (e) {
        if (!(e instanceof RpcError && e.code === INTERSECTION_NOT_FOUND)) throw e
        this.forget(0) // the chain moved past everything we knew
      }
    }
    const tip = toPoint(await this.client.request('queryNetwork/tip'))
    await this.client.request('findIntersection', { points: [pointJson(tip)] })
  }

  /** The newest blocks first, then ever sparser ones, as Ogmios advises for finding an intersection. */
  private knownPoints(): ChainPoint[] {
    const points: ChainPoint[] = []
    for (let back = 0; back < this.blocks.length; back = back < 4 ? back + 1 : back * 2) {
      const block = this.blocks[this.blocks.length - 1 - back]!
      points.push({ slot: block.slot, id: block.blockHash })
    }
    return points
  }

  private apply(result: JsonValue): void {
    const step = Fields.of<RollForward | RollBackward>(result, 'result')
    if (step.oneOf('direction', ['forward', 'backward']) === 'backward') {
      const backward = Fields.of<RollBackward>(result, 'result')
      this.rollBackTo(toPoint(backward.get('point'), backward.at('point')))
      return
    }
    const block = Fields.of<RollForward>(result, 'result').fields<Praos>('block')
    // Epoch boundary blocks (Byron) have no slot of their own and no transactions.
    if (block.oneOf('type', ['ebb', 'bft', 'praos']) === 'ebb') return
    const transactions = block.opt('transactions')
    const txIds = (transactions === undefined ? [] : array(transactions, block.at('transactions'))).map((tx, i) =>
      Fields.of<Transaction>(tx, `${block.at('transactions')}[${i}]`).hex('id', 32)
    )
    this.add({ slot: block.natural('slot'), blockNo: block.natural('height'), blockHash: block.hex('id', 32), txIds })
  }

  private add(block: BlockRecord): void {
    this.blocks.push(block)
    for (const txId of block.txIds) this.byTx.set(txId, block)
    if (this.blocks.length > this.options.maxBlocks) {
      const dropped = this.blocks.splice(0, this.blocks.length - this.options.maxBlocks)
      for (const old of dropped) this.unindex(old)
    }
  }

  private rollBackTo(point: ChainPoint): void {
    let keep = this.blocks.length
    if (point === 'origin') keep = 0
    else {
      while (keep > 0) {
        const block = this.blocks[keep - 1]!
        if (block.slot < point.slot || (block.slot === point.slot && block.blockHash === point.id)) break
        keep -= 1
      }
    }
    this.forget(keep)
  }

  /** Drops every block from position `keep` on, and their transactions. */
  private forget(keep: number): void {
    for (const block of this.blocks.splice(keep)) this.unindex(block)
  }

  private unindex(block: BlockRecord): void {
    for (const txId of block.txIds) if (this.byTx.get(txId) === block) this.byTx.delete(txId)
  }
}

function pointJson(point: ChainPoint): JsonValue {
  return point === 'origin' ? 'origin' : { slot: point.slot, id: point.id }
}
