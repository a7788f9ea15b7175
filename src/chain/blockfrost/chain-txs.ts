/**
 * A listed transaction made whole: its block (`GET /txs/{hash}`: block hash, height, slot, index) and its exact
 * bytes (`GET /txs/{hash}/cbor`), checked to be the transaction asked for (the body hashes to its id).
 *
 * Between the listing and these reads the chain may move on; a transaction that is gone, or sits elsewhere
 * than it was listed, means a rollback happened meanwhile. That is `Unavailable`: the next read starts over.
 */
import { CborError, CborReader } from '../../core/cardano/cbor'
import { blake2b256Hex, MAX_TRANSACTION_BYTES } from '../../core/cardano/tx'
import { ChainError, type ChainTx } from '../provider'
import type { ListedTx } from './address-txs'
import type { BlockfrostHttp } from './http'
import { asHex, asHexBytes, asNatural, asObject, asSmallNatural, badResponse, get } from './shape'

function chainChanged(txId: string, problem: string): ChainError {
  return new ChainError('Unavailable', `transaction ${txId} ${problem}: the chain changed while it was read`, {
    txId
  })
}

/** blake2b-256 of the body (the transaction's first item) as it was encoded: the transaction id. */
function bodyHash(bytes: Uint8Array, what: string): string {
  try {
    const reader = new CborReader(bytes)
    reader.arrayHeader('transaction')
    const start = reader.pos
    reader.skip()
    return blake2b256Hex(bytes.subarray(start, reader.pos))
  } catch (e) {
    if (e instanceof CborError) throw badResponse(what, `not a transaction (${e.message})`)
    throw e
  }
}

async function txCbor(http: BlockfrostHttp, txId: string): Promise<Uint8Array> {
  const what = `txs/${txId}/cbor`
  const json = await http.getJsonOrMissing(`/txs/${txId}/cbor`)
  if (json === undefined) throw chainChanged(txId, 'is no longer known')
  const hex = get(asObject(json, what), 'cbor')
  if (typeof hex === 'string' && hex.length > 2 * MAX_TRANSACTION_BYTES) {
    throw badResponse(`${what}.cbor`, `over ${MAX_TRANSACTION_BYTES} bytes`)
  }
  const bytes = asHexBytes(hex, `${what}.cbor`)
  const id = bodyHash(bytes, `${what}.cbor`)
  if (id !== txId) throw badResponse(`${what}.cbor`, `is the transaction ${id}`)
  return bytes
}

/** The listed transaction with its block and bytes. */
export async function readChainTx(http: BlockfrostHttp, listed: ListedTx): Promise<ChainTx> {
  const { txId } = listed
  const what = `txs/${txId}`
  const [json, cbor] = await Promise.all([http.getJsonOrMissing(`/txs/${txId}`), txCbor(http, txId)])
  if (json === undefined) throw chainChanged(txId, 'is no longer known')
  const o = asObject(json, what)
  const block = {
    slot: asNatural(get(o, 'slot'), `${what}.slot`),
    blockNo: asNatural(get(o, 'block_height'), `${what}.block_height`),
    blockHash: asHex(get(o, 'block'), `${what}.block`, 32)
  }
  const index = asSmallNatural(get(o, 'index'), `${what}.index`)
  if (block.blockNo !== listed.blockNo || index !== listed.index) {
    throw chainChanged(
      txId,
      `was listed at block ${listed.blockNo} index ${listed.index} but is at block ${block.blockNo} index ${index}`
    )
  }
  return { txId, block, cbor }
}
