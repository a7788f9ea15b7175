/**
 * Identifiers in paths, queries, headers and bodies: transaction ids (64 hex) and `txid#ix` references,
 * read as Runtime's `FromHttpApiData` instances read them (index a Word16, leading zeros allowed).
 */
import type { TxOutRef } from '../../chain/provider'
import { EngineError } from '../../engine/errors'

export const TX_ID = /^[0-9a-fA-F]{64}$/
/** Runtime's published pattern for references in JSON and headers. */
export const TX_OUT_REF = /^[0-9a-fA-F]{64}#[0-9]+$/
const REF = /^([0-9a-fA-F]{64})#([0-9]+)$/
const REF_IN_URL = /^([0-9a-fA-F]{64})(?:#|%23)([0-9]+)$/
const MAX_INDEX = 65535

/** Runtime's parse errors for a reference (`W/Core/Tx.hs`, `FromHttpApiData TxOutRef`). */
export const REF_EXPECTED = 'Expected [a-fA-F0-9]{64}#[0-9]+'
export const REF_HINT = `${REF_EXPECTED} (hint: do you need to URL-encode the '#' as "%23"?)`

/**
 * `txid#ix`, or `txid%23ix` where the text comes from a URL (a path or query value that is still encoded).
 * Returns the reason when the text is not a reference.
 */
export function parseTxOutRef(text: string, fromUrl: boolean): TxOutRef | string {
  const m = (fromUrl ? REF_IN_URL : REF).exec(text)
  if (m === null) return TX_ID.test(text) ? REF_HINT : REF_EXPECTED
  const index = m[2]!.length > 5 ? Number.POSITIVE_INFINITY : Number(m[2])
  if (index > MAX_INDEX) return `${REF_EXPECTED} (the output index must be at most ${MAX_INDEX})`
  return { txId: m[1]!.toLowerCase(), index }
}

function badParameter(parameter: string, value: string, message: string): EngineError {
  return new EngineError('BadRequest', 'BadRequest', message, { parameter, value, reason: message })
}

function refParameter(parameter: string, value: string): TxOutRef {
  const ref = parseTxOutRef(value, true)
  if (typeof ref === 'string') throw badParameter(parameter, value, ref)
  return ref
}

function txIdParameter(parameter: string, value: string): string {
  if (!TX_ID.test(value)) throw badParameter(parameter, value, 'Expected [a-fA-F0-9]{64}')
  return value.toLowerCase()
}

/** `{contractId}` as Fastify hands it over: already URL-decoded (`#`), or still encoded (`%23`). */
export function decodeContractId(param: string): TxOutRef {
  return refParameter('contractId', param)
}

export function decodePayoutId(param: string): TxOutRef {
  return refParameter('payoutId', param)
}

export function decodeTransactionId(param: string): string {
  return txIdParameter('transactionId', param)
}

export function decodeWithdrawalId(param: string): string {
  return txIdParameter('withdrawalId', param)
}

export function decodeTxId(param: string): string {
  return txIdParameter('txId', param)
}
