/**
 * `GET /addresses/{address}/transactions`: the transactions paying to or spending from one address, oldest first
 * (`order=asc`), between two block numbers (`from`/`to`, both inclusive), `count` per page. Every item is checked:
 * a well-formed hash, inside the range asked for, and strictly after the item before it, so a hostile or
 * confused answer is a `BadResponse` and never a page of the wrong transactions.
 */
import type { JsonValue } from '../../core/json/lossless'
import type { BlockfrostHttp } from './http'
import { asArray, asHex, asNatural, asObject, asSmallNatural, badResponse, get } from './shape'

/** Blockfrost's largest `count`. */
export const MAX_COUNT = 100

/** One item of the listing: where the transaction sits on chain. */
export interface ListedTx {
  readonly txId: string
  readonly blockNo: bigint
  /** Its index within the block. */
  readonly index: number
}

export interface AddressListing {
  readonly txs: readonly ListedTx[]
  /** True when the last page came back short: every transaction of the range is listed. */
  readonly complete: boolean
}

export interface BlockRange {
  /** Absent: from the first block. */
  readonly from?: bigint
  readonly to: bigint
}

/** Chain order: by block, then by index within the block. */
export function compareListed(a: ListedTx, b: ListedTx): number {
  if (a.blockNo !== b.blockNo) return a.blockNo < b.blockNo ? -1 : 1
  return a.index - b.index
}

function listedTx(json: JsonValue, what: string, range: BlockRange): ListedTx {
  const o = asObject(json, what)
  const tx: ListedTx = {
    txId: asHex(get(o, 'tx_hash'), `${what}.tx_hash`, 32),
    blockNo: asNatural(get(o, 'block_height'), `${what}.block_height`),
    index: asSmallNatural(get(o, 'tx_index'), `${what}.tx_index`)
  }
  if ((range.from !== undefined && tx.blockNo < range.from) || tx.blockNo > range.to) {
    throw badResponse(
      `${what}.block_height`,
      `block ${tx.blockNo} is outside the blocks asked for (${range.from ?? 0}..${range.to})`
    )
  }
  return tx
}

/**
 * The address's transactions in `range`, page after page until at least `want` are listed or a page comes back
 * short (so at most `want / count` pages, rounded up). An address Blockfrost has never seen (404) has none.
 */
export async function listAddressTxs(
  http: BlockfrostHttp,
  address: string,
  range: BlockRange,
  want: number
): Promise<AddressListing> {
  const count = Math.min(MAX_COUNT, Math.max(1, want))
  const bounds = `${range.from === undefined ? '' : `&from=${range.from}`}&to=${range.to}`
  const txs: ListedTx[] = []
  for (let page = 1; ; page += 1) {
    const path = `/addresses/${encodeURIComponent(address)}/transactions?order=asc&count=${count}&page=${page}${bounds}`
    const what = `addresses/${address}/transactions?page=${page}`
    const json = await http.getJsonOrMissing(path)
    if (json === undefined) return { txs, complete: true }
    const items = asArray(json, what)
    if (items.length > count) throw badResponse(what, `${items.length} items on a page of ${count}`)
    items.forEach((item, i) => {
      const tx = listedTx(item, `${what}[${i}]`, range)
      const previous = txs[txs.length - 1]
      if (previous !== undefined && compareListed(previous, tx) >= 0) {
        throw badResponse(`${what}[${i}]`, `not after block ${previous.blockNo} index ${previous.index}`)
      }
      txs.push(tx)
    })
    if (items.length < count) return { txs, complete: true }
    if (txs.length >= want) return { txs, complete: false }
  }
}
