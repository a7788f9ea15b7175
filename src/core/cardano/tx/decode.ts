/**
 * `[body, witness set, is_valid, auxiliary data / null]` (Alonzo to Conway) from bytes, keeping the original
 * body, witness set and auxiliary data bytes: the transaction id is the hash of the body exactly as written,
 * never of a re-encoding.
 */
import { CborError } from '../cbor'
import { readAuxData } from './aux-data'
import { readBody } from './body'
import { TxDecodeError } from './error'
import { blake2b256Hex } from './hash'
import { TxReader } from './reader'
import type { DecodedTx } from './types'
import { readWitnessSet } from './witness-set'

/**
 * Far above the ledger's limit (16 KiB): a bound on the work any input can cause, not a validity rule. Larger
 * bytes are refused outright.
 */
export const MAX_TRANSACTION_BYTES = 1024 * 1024

/** Decodes a transaction. Throws `TxDecodeError` (with the byte offset) for anything that is not one. */
export function decodeTransaction(bytes: Uint8Array): DecodedTx {
  if (bytes.length > MAX_TRANSACTION_BYTES) {
    throw new TxDecodeError(
      `too large: ${bytes.length} bytes, over the decoder's ${MAX_TRANSACTION_BYTES}-byte limit (the ledger's is 16 KiB)`
    )
  }
  try {
    return decode(bytes)
  } catch (e) {
    if (e instanceof CborError) throw new TxDecodeError(e.reason, e.offset)
    throw e
  }
}

function decode(bytes: Uint8Array): DecodedTx {
  const r = new TxReader(bytes)
  const count = r.arrayHeader('transaction')
  if (count === 3) {
    r.fail('a 3-item transaction is the pre-Alonzo (Shelley to Mary) format, which current nodes reject', 0)
  }
  if (count !== undefined && count !== 4) r.fail(`transaction: expected an array of 4 items, got ${count}`, 0)
  const bodyStart = r.pos
  const body = readBody(r)
  const bodyRange = { start: bodyStart, end: r.pos }
  const bodyBytes = bytes.subarray(bodyStart, r.pos)
  const witnessStart = r.pos
  const witnessSet = readWitnessSet(r)
  const witnessSetBytes = bytes.subarray(witnessStart, r.pos)
  const isValid = r.bool('transaction validity flag')
  const auxStart = r.pos
  const auxData = r.nullable(() => readAuxData(r))
  const auxEnd = r.pos
  r.closeArray(count, 'transaction')
  r.expectEnd('the transaction')
  const tx: DecodedTx = {
    id: blake2b256Hex(bodyBytes),
    size: bytes.length,
    body,
    bodyBytes,
    bodyRange,
    witnessSet,
    witnessSetBytes,
    isValid,
    issues: r.issues,
    setTags: r.setTags
  }
  return auxData === undefined ? tx : { ...tx, auxData, auxDataRange: { start: auxStart, end: auxEnd } }
}
