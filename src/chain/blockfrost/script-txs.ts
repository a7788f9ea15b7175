/**
 * The chain index over Blockfrost (`ChainProvider.scriptTransactions`). Blockfrost lists transactions per address,
 * so each script hash is asked about at its script address without a stake part, on the provider's network.
 * Contracts at addresses that also carry a stake credential are therefore not listed by this adapter: the
 * address endpoint takes whole addresses only, and there is no listing by payment credential.
 *
 * A page: the tip first, and every listing bounded by it (`to`), so that the page and its `until` describe one
 * chain; a cursor whose block Blockfrost no longer knows (404) is a rollback, answered without a point; the
 * per-address listings merged in chain order; whole blocks only. A listing that filled its pages may stop
 * inside a block, so only blocks before its last are known complete; should that leave nothing, that one block
 * is read whole on its own. Every transaction kept is then read with its block and bytes (./chain-txs.ts).
 */
import { formatShelleyAddress } from '../../core/cardano/address'
import type { BlockPoint, ChainTx, ScriptTxPage, ScriptTxQuery } from '../provider'
import { ChainError } from '../provider'
import { compareListed, listAddressTxs, type AddressListing, type ListedTx } from './address-txs'
import { readChainTx } from './chain-txs'
import { toTip } from './convert'
import type { BlockfrostHttp } from './http'
import { asNatural, asObject, badResponse, get } from './shape'

/** The most transactions a page may be asked for, so one call stays a bounded number of requests. */
export const MAX_SCRIPT_TX_LIMIT = 1000
const MAX_SCRIPT_HASHES = 16
/** Far above what a block can hold (a few hundred of the smallest transactions): more is not a real block. */
const MAX_BLOCK_TXS = 2000
const SCRIPT_HASH = /^[0-9a-fA-F]{56}$/
const BLOCK_HASH = /^[0-9a-fA-F]{64}$/

/** Sorted, without repeats; two different transactions listed at one place is not an answer we can trust. */
function merge(listings: readonly AddressListing[]): ListedTx[] {
  const all = listings.flatMap((l) => l.txs).sort(compareListed)
  const out: ListedTx[] = []
  const places = new Map<string, ListedTx>()
  for (const tx of all) {
    const previous = out[out.length - 1]
    if (previous !== undefined && compareListed(previous, tx) === 0) {
      if (previous.txId !== tx.txId) {
        throw badResponse(
          'addresses/{address}/transactions',
          `both ${previous.txId} and ${tx.txId} are listed at block ${tx.blockNo} index ${tx.index}`
        )
      }
      continue
    }
    const elsewhere = places.get(tx.txId)
    if (elsewhere !== undefined) {
      throw badResponse(
        'addresses/{address}/transactions',
        `${tx.txId} is listed at block ${elsewhere.blockNo} and at block ${tx.blockNo}`
      )
    }
    places.set(tx.txId, tx)
    out.push(tx)
  }
  return out
}

/** The first whole blocks holding at most `limit` transactions; the first block always, however large. */
function wholeBlocks(listed: readonly ListedTx[], limit: number): ListedTx[] {
  let end = 0
  while (end < listed.length) {
    const blockNo = listed[end]!.blockNo
    let next = end
    while (next < listed.length && listed[next]!.blockNo === blockNo) next += 1
    if (end > 0 && next > limit) break
    end = next
  }
  return listed.slice(0, end)
}

/** The block below which every listing is complete, or undefined when every listing reached the tip. */
function horizonOf(listings: readonly AddressListing[]): bigint | undefined {
  let horizon: bigint | undefined
  for (const listing of listings) {
    const last = listing.txs[listing.txs.length - 1]
    if (listing.complete || last === undefined) continue
    if (horizon === undefined || last.blockNo < horizon) horizon = last.blockNo
  }
  return horizon
}

/** Transactions of one block must agree on it; two versions of a block mean a rollback while reading. */
function checkBlocks(txs: readonly ChainTx[]): void {
  txs.forEach((tx, i) => {
    const previous = txs[i - 1]
    if (previous === undefined || previous.block.blockNo !== tx.block.blockNo) return
    if (previous.block.blockHash !== tx.block.blockHash || previous.block.slot !== tx.block.slot) {
      throw new ChainError(
        'Unavailable',
        `block ${tx.block.blockNo} was read as two different blocks: the chain changed while it was read`,
        { blockNo: tx.block.blockNo }
      )
    }
  })
}

export class ScriptTxReader {
  constructor(
    private readonly http: BlockfrostHttp,
    private readonly mainnet: boolean
  ) {}

  async page(query: ScriptTxQuery): Promise<ScriptTxPage> {
    const addresses = this.addresses(query.scriptHashes)
    if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > MAX_SCRIPT_TX_LIMIT) {
      throw new RangeError(`scriptTransactions: limit must be 1..${MAX_SCRIPT_TX_LIMIT}, not ${query.limit}`)
    }
    const tip = toTip(await this.http.getJson('/blocks/latest'))
    const { after } = query
    // A cursor above this tip is a block this backend has not seen yet (hosted Blockfrost's instances may lag
    // each other by a block or two), not proof of a rollback: stay there until the backend catches up.
    if (after !== undefined && after.blockNo > tip.blockNo) return { kind: 'forward', txs: [], until: after }
    if (after !== undefined && !(await this.isOnChain(after))) return { kind: 'rollback' }
    if (after !== undefined && after.blockNo === tip.blockNo) return { kind: 'forward', txs: [], until: after }
    const range = { ...(after === undefined ? {} : { from: after.blockNo + 1n }), to: tip.blockNo }
    const listings = await Promise.all(addresses.map((a) => listAddressTxs(this.http, a, range, query.limit + 1)))
    const listed = merge(listings)
    const horizon = horizonOf(listings)
    const complete = horizon === undefined ? listed : listed.filter((tx) => tx.blockNo < horizon)
    const kept =
      complete.length === 0 && horizon !== undefined
        ? await this.wholeBlock(addresses, horizon)
        : wholeBlocks(complete, query.limit)
    const txs = await Promise.all(kept.map((tx) => readChainTx(this.http, tx)))
    checkBlocks(txs)
    const last = txs[txs.length - 1]
    const cut = kept.length < listed.length || horizon !== undefined
    return { kind: 'forward', txs, until: cut && last !== undefined ? last.block : tip }
  }

  /** Each hash's script address without a stake part: the only address Blockfrost can be asked about. */
  private addresses(scriptHashes: readonly string[]): string[] {
    const hashes = [...new Set(scriptHashes.map((h) => h.toLowerCase()))]
    if (hashes.length > MAX_SCRIPT_HASHES) {
      throw new RangeError(`scriptTransactions: at most ${MAX_SCRIPT_HASHES} script hashes, not ${hashes.length}`)
    }
    return hashes.map((hash) => {
      if (!SCRIPT_HASH.test(hash))
        throw new TypeError(`scriptTransactions: ${JSON.stringify(hash)} is not a script hash`)
      return formatShelleyAddress({ mainnet: this.mainnet, payment: { type: 'script', hash } })
    })
  }

  /** Whether the cursor's block is still on chain (a malformed hash names no block on it). */
  private async isOnChain(point: BlockPoint): Promise<boolean> {
    if (!BLOCK_HASH.test(point.blockHash)) return false
    const hash = point.blockHash.toLowerCase()
    const json = await this.http.getJsonOrMissing(`/blocks/${hash}`)
    if (json === undefined) return false
    const what = `blocks/${hash}`
    const height = asNatural(get(asObject(json, what), 'height'), `${what}.height`)
    if (height !== point.blockNo)
      throw badResponse(`${what}.height`, `is ${height}, but the block was read at ${point.blockNo}`)
    return true
  }

  /** Every listed transaction of block `blockNo`, from every address. */
  private async wholeBlock(addresses: readonly string[], blockNo: bigint): Promise<ListedTx[]> {
    const range = { from: blockNo, to: blockNo }
    const listings = await Promise.all(addresses.map((a) => listAddressTxs(this.http, a, range, MAX_BLOCK_TXS + 1)))
    if (listings.some((l) => !l.complete)) {
      throw badResponse('addresses/{address}/transactions', `block ${blockNo} lists over ${MAX_BLOCK_TXS} transactions`)
    }
    const txs = merge(listings)
    // It listed transactions a moment ago: an empty block now means it was rolled back, not that it is empty.
    if (txs.length === 0) {
      throw new ChainError('Unavailable', `block ${blockNo} vanished: the chain changed while it was read`, {
        blockNo
      })
    }
    return txs
  }
}
