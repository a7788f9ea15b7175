/**
 * Reads chosen blocks whole through Ogmios' chain sync: intersect at the block before, then `nextBlock` (the
 * first answer rolls back to the intersection, the second is the block). Ogmios has no "block by hash" query;
 * this is how its own clients get one. A block a few blocks past the last one read is reached by reading on
 * (`next`), without an intersection.
 *
 * The transactions' bytes are in the answer only when Ogmios runs with `--include-transaction-cbor` (or
 * `--include-cbor`); without them a read fails with `BadResponse` saying so.
 *
 * Chain sync is a state on the connection, so the reader has its own connection and reads one block at a time.
 */
import type {
  BlockPraos as Praos,
  RollBackward,
  RollForward,
  Transaction,
  TransactionOutputReference
} from '@cardano-ogmios/schema'
import { hexToBytes } from '../../core/bytes'
import type { JsonValue } from '../../core/json/lossless'
import { array, Fields, hex, ShapeError } from '../json-shape'
import { ChainError, type BlockPoint, type TxOutRef } from '../provider'
import { RpcClient, RpcError, type RpcClientOptions } from './rpc-client'

export interface ReadTx {
  readonly id: string
  /** The transaction as on chain. */
  readonly cbor: Uint8Array
  /** The outputs it spends: its inputs, or its collateral when its scripts failed. */
  readonly spends: readonly TxOutRef[]
}

export interface ReadBlock {
  readonly point: BlockPoint
  readonly txs: readonly ReadTx[]
}

export type BlockRef = { readonly slot: bigint; readonly id: string }

const INTERSECTION_NOT_FOUND = 1000

export class OgmiosBlockReader {
  /** The block this connection's chain sync delivered last, while the connection lasts. */
  private at: BlockRef | undefined
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(private readonly client: RpcClient) {
    client.onClose(() => {
      this.at = undefined
    })
  }

  static async connect(options: RpcClientOptions): Promise<OgmiosBlockReader> {
    const client = new RpcClient(options)
    try {
      await client.connect()
    } catch (e) {
      await client.close()
      throw e
    }
    return new OgmiosBlockReader(client)
  }

  get url(): string {
    return this.client.options.url
  }

  /** The block `want`, whose predecessor is `before` ('origin' for the first block). */
  read(before: BlockRef | 'origin', want: BlockRef): Promise<ReadBlock> {
    const next = this.queue.then(() => this.readNow(before, want))
    this.queue = next.catch(() => undefined)
    return next
  }

  /**
   * The block `want`, reached by reading on from the last block read, within `maxSteps` blocks; undefined when
   * there is no last block, or `want` is not among the next ones (the caller then uses `read`).
   */
  next(want: BlockRef, maxSteps: number): Promise<ReadBlock | undefined> {
    const next = this.queue.then(() => this.nextNow(want, maxSteps))
    this.queue = next.catch(() => undefined)
    return next
  }

  close(): Promise<void> {
    return this.client.close()
  }

  private async readNow(before: BlockRef | 'origin', want: BlockRef): Promise<ReadBlock> {
    if (before === 'origin' || this.at?.id !== before.id) await this.intersect(before)
    this.at = undefined
    const block = this.toBlock(await this.client.request('nextBlock'))
    if (block.point.blockHash !== want.id) {
      throw moved(`the block after the one asked for is ${block.point.blockHash}, not ${want.id}`)
    }
    this.at = want
    return block
  }

  private async nextNow(want: BlockRef, maxSteps: number): Promise<ReadBlock | undefined> {
    // Only forward: past the node's tip, `nextBlock` would wait for a block that may never come.
    if (this.at === undefined || want.slot <= this.at.slot) return undefined
    for (let step = 0; step < maxSteps && this.at !== undefined; step += 1) {
      const answer = await this.client.request('nextBlock')
      this.at = undefined
      // The chain rolled back under the last block read: where it stands now is the caller's to find.
      if (this.direction(answer) === 'backward') return undefined
      const block = this.toBlock(answer)
      this.at = { slot: block.point.slot, id: block.point.blockHash }
      if (block.point.blockHash === want.id) return block
      if (block.point.slot >= want.slot) return undefined
    }
    return undefined
  }

  private async intersect(before: BlockRef | 'origin'): Promise<void> {
    this.at = undefined
    const point = before === 'origin' ? 'origin' : { slot: before.slot, id: before.id }
    try {
      await this.client.request('findIntersection', { points: [point] })
    } catch (e) {
      if (e instanceof RpcError && e.code === INTERSECTION_NOT_FOUND) {
        throw moved(`the node no longer has the block at slot ${before === 'origin' ? 0 : before.slot}`)
      }
      throw e instanceof RpcError
        ? new ChainError('Unavailable', `Ogmios refused findIntersection: ${e.rpcMessage}`)
        : e
    }
    // The first step after an intersection rolls back to it.
    const first = await this.client.request('nextBlock')
    this.check(() => Fields.of<RollBackward>(first, 'result').oneOf('direction', ['backward']))
  }

  private direction(answer: JsonValue): 'forward' | 'backward' {
    return this.check(() =>
      Fields.of<RollForward | RollBackward>(answer, 'result').oneOf('direction', ['forward', 'backward'])
    )
  }

  /** The block of a forward step; a backward one means the chain moved under the reader. */
  private toBlock(answer: JsonValue): ReadBlock {
    if (this.direction(answer) === 'backward') throw moved('the node rolled back while a block was read')
    return this.check(() => {
      const block = Fields.of<RollForward>(answer, 'result').fields<Praos>('block')
      const id = block.hex('id', 32)
      const listed = block.opt('transactions')
      const txs = (listed === undefined ? [] : array(listed, block.at('transactions'))).map((tx, i) =>
        readTx(Fields.of<Transaction>(tx, `${block.at('transactions')}[${i}]`))
      )
      return { point: { slot: block.natural('slot'), blockNo: block.natural('height'), blockHash: id }, txs }
    })
  }

  private check<T>(read: () => T): T {
    try {
      return read()
    } catch (e) {
      if (!(e instanceof ShapeError)) throw e
      throw new ChainError('BadResponse', `Ogmios answered nextBlock with something unexpected: ${e.message}`, {
        url: this.url
      })
    }
  }
}

function readTx(tx: Fields<Transaction>): ReadTx {
  const cbor = tx.opt('cbor')
  if (cbor === undefined) {
    throw new ChainError(
      'BadResponse',
      'Ogmios leaves the transactions’ bytes out of its blocks: start it with --include-transaction-cbor',
      {}
    )
  }
  const spent = tx.opt('spends') === 'collaterals' ? tx.opt('collaterals') : tx.opt('inputs')
  const spends = (spent === undefined ? [] : array(spent, tx.at('inputs'))).map((input, i) => {
    const ref = Fields.of<TransactionOutputReference>(input, `${tx.at('inputs')}[${i}]`)
    return { txId: ref.fields<{ id: unknown }>('transaction').hex('id', 32), index: ref.smallNatural('index') }
  })
  return { id: tx.hex('id', 32), cbor: hexToBytes(hex(cbor, tx.at('cbor'))), spends }
}

/** The chain changed under the reader: the index asks again later, when Kupo has seen the change too. */
function moved(what: string): ChainError {
  return new ChainError('Unavailable', `the chain is switching forks (${what}); reading again shortly`)
}
