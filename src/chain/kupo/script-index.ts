/**
 * The chain index through Kupo and Ogmios (`ChainProvider.scriptTransactions`): Kupo says where, Ogmios gives
 * the bytes. Kupo lists the outputs created at, and spent from, the Marlowe script credentials (pattern
 * `{hash}/*`: every address with that payment script, whatever its stake part) with the block of each; the
 * blocks holding them are then read whole through Ogmios' chain sync, and the transactions that created those
 * outputs or spent them are taken from there, exactly as on chain.
 *
 * Pages cover slot windows whose width adapts: doubled while they hold nothing, halved when they hold more than
 * a page (or more than Kupo's answer may weigh). A page that stops before Kupo's tip ends at its last block, so
 * the reader goes on at once; one that reaches the tip ends there.
 *
 * Rollbacks: a page after a block Kupo no longer has answers `rollback` without a point, and the chain index
 * probes the blocks it read (Kupo's checkpoints are per block, so each probe is exact). A fork met between the
 * Kupo and Ogmios answers is `Unavailable`: read again shortly, once both agree.
 *
 * Needs Kupo ≥ 2.3 indexing the Marlowe validators (checked: `--match "{hash}/*"` or wider, without
 * `--prune-utxo`, synced from before the contracts of interest) and Ogmios with `--include-transaction-cbor`.
 */
import { formatRef } from '../../core/cardano/refs'
import type { KupoClient, KupoMatch, KupoPoint } from './kupo-client'
import { KupoTooLarge } from './kupo-client'
import type { BlockRef, ReadBlock } from '../ogmios'
import { ChainError, type BlockPoint, type ChainTx, type ScriptTxPage, type ScriptTxQuery } from '../provider'

/** Where the index reads whole blocks (Ogmios' chain sync). */
export interface BlockSource {
  /** `want`, whose predecessor is `before`. */
  read(before: BlockRef | 'origin', want: BlockRef): Promise<ReadBlock>
  /** `want`, if it is within `maxSteps` blocks after the last one read. */
  next(want: BlockRef, maxSteps: number): Promise<ReadBlock | undefined>
}

export interface KupoScriptIndexOptions {
  readonly kupo: KupoClient
  readonly blocks: BlockSource
  /** The first window, in slots (default one day). */
  readonly windowSlots?: bigint
}

/** A block holding Marlowe outputs created or spent, as Kupo tells it. */
interface Candidate {
  readonly point: KupoPoint
  /** Transactions that created matched outputs. */
  readonly creators: Set<string>
  /** Matched outputs spent in this block, `txId#index`. */
  readonly spent: Set<string>
}

const DAY_SLOTS = 86_400n
/** Blocks read on from the last one before asking Kupo for a block's predecessor and intersecting there. */
const READ_ON = 8

export class KupoScriptIndex {
  private window: bigint
  private readonly indexed = new Set<string>()
  /** The block last read at Kupo's tip, kept while the tip stays. */
  private tipBlock: BlockPoint | undefined

  constructor(private readonly options: KupoScriptIndexOptions) {
    this.window = options.windowSlots ?? DAY_SLOTS
  }

  async scriptTransactions(query: ScriptTxQuery): Promise<ScriptTxPage> {
    const { kupo } = this.options
    const tip = await kupo.tip()
    if (tip === undefined) throw new ChainError('Unavailable', `Kupo at ${kupo.url} has not indexed any block yet`)
    await this.checkIndexed(query.scriptHashes)
    const after = query.after
    if (after !== undefined) {
      const still = await kupo.checkpoint(after.slot, true)
      if (still?.headerHash !== after.blockHash) return { kind: 'rollback' }
      if (after.slot >= tip.slot) return { kind: 'forward', txs: [], until: after }
    }
    let from = after === undefined ? 0n : after.slot + 1n
    for (;;) {
      const to = min(tip.slot, from + this.window - 1n)
      const candidates = await this.candidatesIn(query.scriptHashes, from, to)
      if (candidates === 'too-large') continue
      if (candidates.length === 0) {
        if (to >= tip.slot) return { kind: 'forward', txs: [], until: await this.blockAt(tip) }
        from = to + 1n
        this.window *= 2n
        continue
      }
      const taken = wholeBlocks(candidates, query.limit)
      this.adapt(taken, candidates.length, query.limit)
      const read = await this.readBlocks(taken)
      const txs = read.flatMap(({ block, candidate }) => chosen(block, candidate))
      const last = read[read.length - 1]!.block.point
      const complete = taken.length === candidates.length && to >= tip.slot
      return {
        kind: 'forward',
        txs,
        until: complete && last.blockHash !== tip.headerHash ? await this.blockAt(tip) : last
      }
    }
  }

  /** Fails unless Kupo is configured to index each script credential (else it would silently find nothing). */
  private async checkIndexed(hashes: readonly string[]): Promise<void> {
    for (const hash of hashes) {
      if (this.indexed.has(hash)) continue
      const patterns = await this.options.kupo.patternsIncluding(`${hash}/*`)
      if (patterns.length === 0) {
        throw new ChainError(
          'Unavailable',
          `Kupo at ${this.options.kupo.url} does not index the Marlowe script ${hash}: run it with --match "${hash}/*" (or a wider pattern) and without --prune-utxo`,
          { scriptHash: hash }
        )
      }
      this.indexed.add(hash)
    }
  }

  /** The blocks in `from`..`to` that create or spend outputs at the scripts, in chain order. */
  private async candidatesIn(hashes: readonly string[], from: bigint, to: bigint): Promise<Candidate[] | 'too-large'> {
    const { kupo } = this.options
    let lists: KupoMatch[][]
    try {
      lists = await Promise.all(
        hashes.flatMap((hash) => [
          kupo.matches(`${hash}/*`, { by: 'created', from, to }),
          kupo.matches(`${hash}/*`, { by: 'spent', from, to })
        ])
      )
    } catch (e) {
      if (!(e instanceof KupoTooLarge)) throw e
      if (this.window === 1n) {
        throw new ChainError('BadResponse', `Kupo's matches for a single slot (${from}) are larger than allowed`)
      }
      this.window = max(1n, this.window / 2n)
      return 'too-large'
    }
    const blocks = new Map<string, Candidate>()
    const at = (point: KupoPoint): Candidate => {
      let block = blocks.get(point.headerHash)
      if (block === undefined) {
        block = { point, creators: new Set(), spent: new Set() }
        blocks.set(point.headerHash, block)
      }
      return block
    }
    const within = (point: KupoPoint | undefined): point is KupoPoint =>
      point !== undefined && point.slot >= from && point.slot <= to
    for (const match of lists.flat()) {
      if (within(match.createdAt)) at(match.createdAt).creators.add(match.txId)
      if (within(match.spentAt)) at(match.spentAt).spent.add(formatRef({ txId: match.txId, index: match.outputIndex }))
    }
    return [...blocks.values()].sort((a, b) => (a.point.slot < b.point.slot ? -1 : a.point.slot > b.point.slot ? 1 : 0))
  }

  /** Halves the window when a page could not hold it, doubles it when pages come back far from full. */
  private adapt(taken: readonly Candidate[], found: number, limit: number): void {
    if (taken.length < found) this.window = max(1n, this.window / 2n)
    else if (taken.reduce((n, c) => n + weight(c), 0) * 4 < limit) this.window *= 2n
  }

  /** Each block read on from the previous one when it is near, else from its predecessor. */
  private async readBlocks(taken: readonly Candidate[]): Promise<{ block: ReadBlock; candidate: Candidate }[]> {
    const { blocks } = this.options
    const read: { block: ReadBlock; candidate: Candidate }[] = []
    for (const candidate of taken) {
      const want = ref(candidate.point)
      let block = await blocks.next(want, READ_ON)
      if (block === undefined) {
        block = await blocks.read(await this.predecessor(candidate.point), want)
      }
      read.push({ block, candidate })
    }
    return read
  }

  /** The block before `point`, from Kupo's checkpoints (it keeps one per block). */
  private async predecessor(point: KupoPoint): Promise<BlockRef | 'origin'> {
    const before = point.slot === 0n ? undefined : await this.options.kupo.checkpoint(point.slot - 1n, false)
    return before === undefined ? 'origin' : ref(before)
  }

  /** Kupo's tip as a block point (its height is only in the block itself). */
  private async blockAt(tip: KupoPoint): Promise<BlockPoint> {
    if (this.tipBlock?.blockHash === tip.headerHash) return this.tipBlock
    const block =
      (await this.options.blocks.next(ref(tip), READ_ON)) ??
      (await this.options.blocks.read(await this.predecessor(tip), ref(tip)))
    this.tipBlock = block.point
    return block.point
  }
}

/** The first blocks whose transactions fit in `limit` (by Kupo's count), at least one: blocks are never split. */
function wholeBlocks(candidates: readonly Candidate[], limit: number): Candidate[] {
  const taken: Candidate[] = []
  let count = 0
  for (const candidate of candidates) {
    count += weight(candidate)
    if (taken.length > 0 && count > limit) break
    taken.push(candidate)
  }
  return taken
}

/** At most this many transactions of the block are ours. */
function weight(candidate: Candidate): number {
  return candidate.creators.size + candidate.spent.size
}

/** The block's transactions that Kupo pointed at, in block order; each creator Kupo named must be there. */
function chosen(block: ReadBlock, candidate: Candidate): ChainTx[] {
  const txs = block.txs.filter(
    (tx) => candidate.creators.has(tx.id) || tx.spends.some((r) => candidate.spent.has(formatRef(r)))
  )
  for (const creator of candidate.creators) {
    if (!txs.some((tx) => tx.id === creator)) {
      throw new ChainError(
        'Unavailable',
        `Kupo places transaction ${creator} in block ${candidate.point.headerHash}, which does not hold it; reading again shortly`
      )
    }
  }
  return txs.map((tx) => ({ txId: tx.id, block: block.point, cbor: tx.cbor }))
}

function ref(point: KupoPoint): BlockRef {
  return { slot: point.slot, id: point.headerHash }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}
