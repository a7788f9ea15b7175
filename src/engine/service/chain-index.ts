/**
 * The service's view of every Marlowe contract on its chain, whoever built it. It reads, page by page from the
 * provider's chain index, every transaction that touches the Marlowe semantics or payout script, in chain
 * order from the block it last read (kept in the store): our own builds found there are confirmed (however
 * they reached the chain), anyone else's are recorded as read (./chain-records.ts). When the chain rolls back,
 * what was read after the fork point is undone, and reading goes on from there.
 *
 * Providers without an index (`scriptTransactions`) leave the service knowing only its own builds; the
 * follower then confirms them by asking the node about each one.
 */
import { deploymentOf, payoutValidatorAddress } from '../../chain/deployments'
import type { BlockPoint, ChainProvider, ChainTx } from '../../chain/provider'
import { formatRef } from '../../core/cardano/refs'
import { TxDecodeError, decodeTransaction, type DecodedTx } from '../../core/cardano/tx'
import type { PayoutRow, ServiceStore, StoreOperations, TxRow } from '../../store/service-store'
import { SlotClock } from '../build'
import { chainRecord, type ChainRecordContext } from './chain-records'
import { confirmEffects, storedRecord } from './records'
import { currentOutputOf, recordOf } from './views'

export interface ChainIndexOptions {
  readonly provider: ChainProvider
  readonly store: ServiceStore
  /** Frees a build's reserved inputs once it is confirmed. */
  readonly release: (reservationKey: string) => Promise<void>
  readonly now?: () => number
  /** Transactions asked for per page (default 100). */
  readonly pageSize?: number
  /** Pages read per catch-up at most, so that one call stays short (default 50); the next call goes on. */
  readonly pagesPerCatchUp?: number
}

export interface CatchUpReport {
  /** Our builds found confirmed on chain. */
  readonly confirmed: readonly string[]
  /** Transactions of others, recorded. */
  readonly recorded: readonly string[]
}

/** Blocks asked about when a rollback names no point; past them the index reads again from the start. */
const MAX_PROBES = 64

/** Reading the past needs no forecast horizon: every slot read is already on chain. */
const PAST_SLOTS = 1n << 62n

export class ChainIndex {
  private readonly now: () => number
  private readonly scriptHashes: readonly string[]
  private readonly pageSize: number
  private readonly pagesPerCatchUp: number

  constructor(private readonly options: ChainIndexOptions) {
    this.now = options.now ?? Date.now
    const deployment = deploymentOf(options.provider)
    this.scriptHashes = [deployment.semantics.hash, deployment.payout.hash]
    this.pageSize = options.pageSize ?? 100
    this.pagesPerCatchUp = options.pagesPerCatchUp ?? 50
  }

  /** Reads on from the last block read; throws the provider's `ChainError` when it cannot be asked. */
  async catchUp(): Promise<CatchUpReport> {
    const { provider, store } = this.options
    const report = { confirmed: [] as string[], recorded: [] as string[] }
    if (provider.scriptTransactions === undefined) return report
    let context: ChainContext | undefined
    for (let pages = 0; pages < this.pagesPerCatchUp; pages += 1) {
      const after = await store.chainCursor()
      const page = await provider.scriptTransactions({
        scriptHashes: this.scriptHashes,
        ...(after === undefined ? {} : { after }),
        limit: this.pageSize
      })
      if (page.kind === 'rollback') {
        const to = page.to ?? (await this.intersection(after))
        await store.rollBack(to, this.now(), utxoOf)
        continue
      }
      if (page.txs.length > 0) context ??= await this.recordContext()
      const read = context
      const released: string[] = []
      // One transaction a page: one fsync, and a crash keeps the cursor and what it covers together.
      await store.atomically(async (inside) => {
        for (const tx of page.txs) await this.take(inside, tx, read!, report, released)
        await inside.setChainCursor(page.until)
      })
      for (const key of released) await this.options.release(key)
      // A page cut short ends at its last transaction's block (blocks are never split, so a cut page may hold
      // fewer than asked); one that read to the tip ends past it, or holds nothing.
      const last = page.txs[page.txs.length - 1]
      if (last === undefined || page.until.blockNo !== last.block.blockNo) return report
    }
    return report
  }

  /**
   * The newest block we read that is still on chain, for a provider that only says the cursor is gone: the
   * blocks of our confirmed transactions below the cursor, newest first, each asked about; none, the start.
   */
  private async intersection(lost: BlockPoint | undefined): Promise<BlockPoint | undefined> {
    const { provider, store } = this.options
    if (lost === undefined || provider.scriptTransactions === undefined) return undefined
    for (const point of await store.confirmedBlocksBelow(lost.blockNo, MAX_PROBES)) {
      const probe = await provider.scriptTransactions({ scriptHashes: this.scriptHashes, after: point, limit: 1 })
      if (probe.kind === 'forward') return point
    }
    return undefined
  }

  /** Confirms one of our builds in `block`, with what it does; frees its inputs. */
  async confirmBuilt(row: TxRow, block: BlockPoint): Promise<void> {
    await confirmBuiltRow(this.options.store, row, block)
    await this.options.release(row.reservationKey)
  }

  /** Reads one transaction into the store; the reservations of our builds it confirms go to `released`. */
  private async take(
    store: StoreOperations,
    tx: ChainTx,
    context: ChainContext,
    report: { confirmed: string[]; recorded: string[] },
    released: string[]
  ): Promise<void> {
    const ours = await store.tx(tx.txId)
    if (ours !== undefined) {
      if (ours.status !== 'confirmed') {
        await confirmBuiltRow(store, ours, tx.block)
        released.push(ours.reservationKey)
        report.confirmed.push(tx.txId)
      }
      return
    }
    let decoded
    try {
      decoded = decodeTransaction(tx.cbor)
    } catch (e) {
      // The node holds it, so it is a transaction; one we cannot read cannot be a Marlowe step we could show.
      if (e instanceof TxDecodeError) return
      throw e
    }
    const found = chainRecord(decoded, await spentBy(store, decoded, context))
    if (found === undefined) return
    await store.insertChainTx(
      {
        txId: tx.txId,
        kind: found.kind,
        ...(found.contractId === undefined ? {} : { contractId: found.contractId }),
        ...(found.rolesCurrency === undefined ? {} : { rolesCurrency: found.rolesCurrency }),
        ...(found.parties === undefined ? {} : { parties: found.parties }),
        tx: tx.cbor,
        block: tx.block,
        createdAt: this.now(),
        ...storedRecord(found.record)
      },
      confirmEffects(found.record, tx.txId, found.contractId ?? '')
    )
    report.recorded.push(tx.txId)
  }

  private async recordContext(): Promise<ChainContext> {
    const { provider } = this.options
    const [eras, tip] = await Promise.all([provider.eraSummaries(), provider.tip()])
    const deployment = deploymentOf(provider)
    return {
      semanticsHash: deployment.semantics.hash,
      payoutHash: deployment.payout.hash,
      payoutAddress: payoutValidatorAddress(deployment),
      clock: new SlotClock(eras, tip.slot, PAST_SLOTS)
    }
  }
}

/** What reading a page needs besides the store: the scripts and the chain's clock. */
type ChainContext = Omit<ChainRecordContext, 'contractAt' | 'openPayout'>

/** The record context for `tx`: what the store holds at each output it spends (a contract's UTxO, a payout). */
async function spentBy(store: StoreOperations, tx: DecodedTx, context: ChainContext): Promise<ChainRecordContext> {
  const contracts = new Map<string, { readonly contractId: string; readonly datum: Uint8Array }>()
  const payouts = new Map<string, PayoutRow>()
  for (const input of tx.body.inputs) {
    const ref = formatRef(input)
    const contract = await store.contractAtUtxo(ref)
    const head = contract?.headTxId === undefined ? undefined : await store.tx(contract.headTxId)
    const output = head === undefined ? undefined : currentOutputOf(head)
    if (contract !== undefined && output !== undefined) {
      contracts.set(ref, { contractId: contract.contractId, datum: output.datum })
    }
    const payout = await store.payout(ref)
    if (payout !== undefined && payout.withdrawalId === undefined) payouts.set(ref, payout)
  }
  return { ...context, contractAt: (ref) => contracts.get(ref), openPayout: (ref) => payouts.get(ref) }
}

async function confirmBuiltRow(store: StoreOperations, row: TxRow, block: BlockPoint): Promise<void> {
  await store.confirm(row.txId, block, confirmEffects(recordOf(row, row.kind), row.txId, row.contractId ?? ''))
}

/** The UTxO a contract is at after `head` (its head transaction), or null once closed. */
function utxoOf(head: TxRow): string | null {
  return currentOutputOf(head)?.ref ?? null
}
