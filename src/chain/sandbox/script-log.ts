/**
 * The sandbox's chain index: every confirmed transaction that pays to or spends from a script address, kept
 * with its exact bytes and the payment script hashes it touches, in chain order. The sandbox has one
 * transaction per block, so a page never splits a block.
 */
import type { BlockPoint, ChainTx, ScriptTxPage, ScriptTxQuery } from '../provider'

export interface LoggedTx extends ChainTx {
  /** Payment script hashes of the outputs it creates and of the outputs it spends. */
  readonly scripts: readonly string[]
}

export class ScriptTxLog {
  private readonly txs: LoggedTx[] = []
  private readonly ids = new Set<string>()

  constructor(txs: Iterable<LoggedTx> = []) {
    for (const tx of txs) this.add(tx)
  }

  /** Appends a transaction confirmed after every logged one. */
  add(tx: LoggedTx): void {
    const last = this.txs[this.txs.length - 1]
    if (last !== undefined && tx.block.blockNo <= last.block.blockNo) {
      throw new Error(`script transactions must be logged in chain order (block ${tx.block.blockNo})`)
    }
    this.txs.push(tx)
    this.ids.add(tx.txId)
  }

  has(txId: string): boolean {
    return this.ids.has(txId)
  }

  entries(): readonly LoggedTx[] {
    return this.txs
  }

  /**
   * The page after `query.after`: `isBlock` says whether a point is on this ledger's chain (a cursor from
   * another ledger is rolled back to the start); `tip` is the ledger's last block.
   */
  page(query: ScriptTxQuery, tip: BlockPoint, isBlock: (point: BlockPoint) => boolean): ScriptTxPage {
    const { after } = query
    if (after !== undefined && !isBlock(after)) return { kind: 'rollback' }
    const wanted = new Set(query.scriptHashes)
    const txs: ChainTx[] = []
    for (let i = this.firstAfter(after?.blockNo ?? -1n); i < this.txs.length; i += 1) {
      const tx = this.txs[i]!
      if (!tx.scripts.some((s) => wanted.has(s))) continue
      if (txs.length === query.limit) return { kind: 'forward', txs, until: txs[txs.length - 1]!.block }
      txs.push({ txId: tx.txId, block: tx.block, cbor: tx.cbor })
    }
    return { kind: 'forward', txs, until: tip }
  }

  /** Index of the first logged transaction in a block after `blockNo` (binary search: blocks only grow). */
  private firstAfter(blockNo: bigint): number {
    let lo = 0
    let hi = this.txs.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.txs[mid]!.block.blockNo <= blockNo) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
