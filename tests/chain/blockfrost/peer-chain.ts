/**
 * The chain of the local Blockfrost: blocks in order (heights may skip, as when a backend is only told about
 * some blocks), each address's transactions, and each transaction's CBOR — and the answers of the endpoints
 * that read them, as the OpenAPI describes: `/blocks/{hash_or_number}`, `/addresses/{a}/transactions` (with
 * `count`, `page`, `order`, `from`/`to` as `block` or `block:index`, both inclusive), `/txs/{h}/cbor`.
 */
import { bytesToHex } from '../../../src/core/bytes'
import { blake2b256Hex, decodeTransaction, TxDecodeError } from '../../../src/core/cardano/tx'
import type { JsonObject, JsonValue } from '../../../src/core/json/lossless'

export interface PeerBlock {
  readonly hash: string
  readonly height: bigint
  readonly slot: bigint
  /** UNIX seconds. */
  readonly time: bigint
  /** Its transactions' hashes, in block order. */
  readonly txs: readonly string[]
}

/** An item of `/addresses/{a}/transactions`. */
export interface AddressTx {
  readonly txHash: string
  readonly txIndex: number
  readonly blockHeight: bigint
  readonly blockTime: bigint
}

export interface ChainState {
  readonly blocks: PeerBlock[]
  readonly addressTxs: Map<string, AddressTx[]>
  /** Tx hash → CBOR hex. */
  readonly txCbor: Map<string, string>
  /** Tx hash → `GET /txs/{h}`. */
  readonly txs: Map<string, JsonObject>
  latestBlock: JsonObject
}

export interface TxSpec {
  /** The whole transaction; its id is the hash of its body. */
  readonly cbor: Uint8Array
  /** Where `/addresses/{a}/transactions` lists it: the addresses it pays to or spends from. */
  readonly addresses: readonly string[]
}

export interface BlockSpec {
  /** Default: a fresh hash. */
  readonly hash?: string
  /** Default: one above the last block. */
  readonly height?: bigint
  /** Default: 20 slots (seconds) after the last block. */
  readonly slot?: bigint
  readonly time?: bigint
  readonly txs?: readonly TxSpec[]
}

const EPOCH_LENGTH = 432_000n
/** Where a chain starts when nothing says otherwise (preprod-like numbers). */
const FIRST = { height: 2_900_000n, slot: 76_000_000n, time: 1_730_000_000n }

let freshHashes = 0

export function txIdOf(cbor: Uint8Array): string {
  return decodeTransaction(cbor).id
}

/**
 * `GET /txs/{h}` for a transaction of `block` at `index`; its fee, lovelace out and size from its bytes when
 * they are given and decode.
 */
export function txContent(
  block: Pick<PeerBlock, 'hash' | 'height' | 'slot' | 'time'>,
  index: number,
  hash: string,
  cbor?: Uint8Array
): JsonObject {
  let fee = 0n
  let outputs = 0n
  let utxoCount = 0n
  try {
    const body = cbor === undefined ? undefined : decodeTransaction(cbor).body
    fee = body?.fee ?? 0n
    outputs = body?.outputs.reduce((sum, o) => sum + o.value.coin, 0n) ?? 0n
    utxoCount = BigInt((body?.inputs.length ?? 0) + (body?.outputs.length ?? 0))
  } catch (e) {
    if (!(e instanceof TxDecodeError)) throw e
  }
  return {
    hash,
    block: block.hash,
    block_height: block.height,
    block_time: block.time,
    slot: block.slot,
    index: BigInt(index),
    output_amount: [{ unit: 'lovelace', quantity: outputs.toString() }],
    fees: fee.toString(),
    deposit: '0',
    size: BigInt(cbor?.length ?? 0),
    invalid_before: null,
    invalid_hereafter: null,
    utxo_count: utxoCount,
    withdrawal_count: 0n,
    mir_cert_count: 0n,
    delegation_count: 0n,
    stake_cert_count: 0n,
    pool_update_count: 0n,
    pool_retire_count: 0n,
    asset_mint_or_burn_count: 0n,
    redeemer_count: 0n,
    valid_contract: true
  }
}

/** `GET /blocks/{hash_or_number}`, with the links and confirmations as of the current tip. */
function blockContent(s: ChainState, i: number): JsonObject {
  const b = s.blocks[i]!
  const tip = s.blocks[s.blocks.length - 1]!
  return {
    time: b.time,
    height: b.height,
    hash: b.hash,
    slot: b.slot,
    epoch: b.slot / EPOCH_LENGTH,
    epoch_slot: b.slot % EPOCH_LENGTH,
    slot_leader: 'pool1peerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeerpeer',
    size: BigInt(b.txs.reduce((n, h) => n + (s.txCbor.get(h)?.length ?? 0) / 2, 0)),
    tx_count: BigInt(b.txs.length),
    output: null,
    fees: null,
    block_vrf: null,
    op_cert: null,
    op_cert_counter: null,
    previous_block: s.blocks[i - 1]?.hash ?? null,
    next_block: s.blocks[i + 1]?.hash ?? null,
    confirmations: tip.height - b.height
  }
}

export function appendBlock(s: ChainState, spec: BlockSpec = {}): PeerBlock {
  const last = s.blocks[s.blocks.length - 1]
  const height = spec.height ?? (last === undefined ? FIRST.height : last.height + 1n)
  if (last !== undefined && height <= last.height) throw new Error(`block ${height} is not above ${last.height}`)
  const slot = spec.slot ?? (last === undefined ? FIRST.slot : last.slot + 20n)
  freshHashes += 1
  const txs = (spec.txs ?? []).map((tx) => ({ ...tx, hash: txIdOf(tx.cbor) }))
  const block: PeerBlock = {
    hash: spec.hash ?? blake2b256Hex(new TextEncoder().encode(`peer block ${height} #${freshHashes}`)),
    height,
    slot,
    time: spec.time ?? (last === undefined ? FIRST.time : last.time + (slot - last.slot)),
    txs: txs.map((tx) => tx.hash)
  }
  s.blocks.push(block)
  txs.forEach((tx, index) => {
    s.txCbor.set(tx.hash, bytesToHex(tx.cbor))
    s.txs.set(tx.hash, txContent(block, index, tx.hash, tx.cbor))
    for (const address of new Set(tx.addresses)) {
      const listed = s.addressTxs.get(address) ?? []
      listed.push({ txHash: tx.hash, txIndex: index, blockHeight: height, blockTime: block.time })
      s.addressTxs.set(address, listed)
    }
  })
  s.latestBlock = blockContent(s, s.blocks.length - 1)
  return block
}

/** Forgets every block above `height` and its transactions; the tip becomes the last block left. */
export function rollBackTo(s: ChainState, height: bigint): void {
  const gone = s.blocks.filter((b) => b.height > height)
  s.blocks.splice(s.blocks.length - gone.length, gone.length)
  for (const hash of gone.flatMap((b) => b.txs)) {
    s.txCbor.delete(hash)
    s.txs.delete(hash)
  }
  for (const [address, listed] of s.addressTxs) {
    const kept = listed.filter((t) => t.blockHeight <= height)
    if (kept.length === 0) s.addressTxs.delete(address)
    else s.addressTxs.set(address, kept)
  }
  if (s.blocks.length > 0) s.latestBlock = blockContent(s, s.blocks.length - 1)
}

export type Answer = { readonly status: 200; readonly body: JsonValue } | { readonly status: 400 | 404 }

/** `/blocks/{hash_or_number}`: a 64-hex hash or a block number; the canned latest block is found by hash too. */
export function findBlock(s: ChainState, hashOrNumber: string): Answer {
  let i: number
  if (/^[0-9a-f]{64}$/.test(hashOrNumber)) i = s.blocks.findIndex((b) => b.hash === hashOrNumber)
  else if (/^\d{1,20}$/.test(hashOrNumber)) i = s.blocks.findIndex((b) => b.height === BigInt(hashOrNumber))
  else return { status: 400 }
  if (i >= 0) return { status: 200, body: blockContent(s, i) }
  return s.latestBlock['hash'] === hashOrNumber ? { status: 200, body: s.latestBlock } : { status: 404 }
}

interface Position {
  readonly height: bigint
  readonly index: number
}

/** `block` or `block:index`; undefined when malformed. */
function position(text: string, edge: 'from' | 'to'): Position | undefined {
  const m = /^(\d{1,20})(?::(\d{1,9}))?$/.exec(text)
  if (m === null) return undefined
  const index = m[2] === undefined ? (edge === 'from' ? 0 : Number.MAX_SAFE_INTEGER) : Number(m[2])
  return { height: BigInt(m[1]!), index }
}

function before(a: Position, b: Position): boolean {
  return a.height < b.height || (a.height === b.height && a.index < b.index)
}

/** An integer query parameter within `min..max`, `fallback` when absent; undefined when invalid. */
function integer(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number | undefined {
  const text = query.get(name)
  if (text === null) return fallback
  if (!/^\d{1,9}$/.test(text)) return undefined
  const n = Number(text)
  return n < min || n > max ? undefined : n
}

/** `GET /addresses/{a}/transactions`. */
export function addressTransactions(s: ChainState, address: string, query: URLSearchParams): Answer {
  const count = integer(query, 'count', 1, 100, 100)
  const page = integer(query, 'page', 1, 21_474_836, 1)
  const order = query.get('order') ?? 'asc'
  const fromText = query.get('from')
  const toText = query.get('to')
  const from = fromText === null ? undefined : position(fromText, 'from')
  const to = toText === null ? undefined : position(toText, 'to')
  if (count === undefined || page === undefined || (order !== 'asc' && order !== 'desc')) return { status: 400 }
  if ((fromText !== null && from === undefined) || (toText !== null && to === undefined)) return { status: 400 }
  if (from !== undefined && to !== undefined && before(to, from)) return { status: 400 }
  const listed = s.addressTxs.get(address)
  if (listed === undefined) return { status: 404 }
  const inRange = listed.filter((t) => {
    const at = { height: t.blockHeight, index: t.txIndex }
    return (from === undefined || !before(at, from)) && (to === undefined || !before(to, at))
  })
  const ordered = order === 'asc' ? inRange : [...inRange].reverse()
  return {
    status: 200,
    body: ordered.slice((page - 1) * count, page * count).map((t) => ({
      tx_hash: t.txHash,
      tx_index: BigInt(t.txIndex),
      block_height: t.blockHeight,
      block_time: t.blockTime
    }))
  }
}

/** `GET /txs/{h}/cbor`. */
export function txCbor(s: ChainState, hash: string): Answer {
  const cbor = s.txCbor.get(hash)
  return cbor === undefined ? { status: 404 } : { status: 200, body: { cbor } }
}
