/**
 * Reads a transaction from whatever a user or another tool hands us: a TextEnvelope of any transaction
 * type (full tx, or a body alone), hex text, or raw CBOR bytes. The bytes are kept exactly as given.
 */
import { BytesError, hexToBytes, utf8DecodeStrict } from '../../core/bytes'
import { EnvelopeError, parseTextEnvelope, type TextEnvelope } from '../../core/cardano/envelope'
import { envelopeContent, SUPPORTED_ENVELOPE_TYPES, type Era } from '../../core/cardano/tx-envelope'
import { splitTransaction, WitnessError } from '../../core/cardano/witnesses'
import { CSL, withCsl } from '../../csl'
import { EngineError } from '../errors'

export interface TransactionFile {
  /** The whole transaction `[body, witnesses, isValid, auxData]`. */
  readonly tx: Uint8Array
  readonly era: Era
  /** blake2b-256 of the original body bytes. */
  readonly txId: string
  /** The envelope type it came in, or 'raw' for bytes/hex. */
  readonly source: string
}

function invalid(message: string): EngineError {
  return new EngineError('BadRequest', 'InvalidTransaction', message)
}

/** An unwitnessed transaction around a body: `[body, {}, true, null]`. */
function wrapBody(body: Uint8Array): Uint8Array {
  const tx = new Uint8Array(body.length + 4)
  tx[0] = 0x84
  tx.set(body, 1)
  tx.set([0xa0, 0xf5, 0xf6], body.length + 1)
  return tx
}

function txIdOf(tx: Uint8Array): string {
  try {
    splitTransaction(tx)
  } catch (e) {
    if (e instanceof WitnessError) throw invalid(`not a Cardano transaction: ${e.message}`)
    throw e
  }
  return withCsl((scope) => {
    try {
      const fixed = scope.own(CSL.FixedTransaction.from_bytes(tx))
      return scope.own(fixed.transaction_hash()).to_hex()
    } catch (e) {
      throw invalid(`not a Cardano transaction the ledger would read: ${e instanceof Error ? e.message : String(e)}`)
    }
  })
}

function fromEnvelope(text: string): TransactionFile {
  let envelope
  try {
    envelope = parseTextEnvelope(text)
  } catch (e) {
    if (e instanceof EnvelopeError) throw invalid(e.message)
    throw e
  }
  return transactionOfEnvelope(envelope)
}

/** The transaction a parsed TextEnvelope holds: a whole tx, or a body alone (witnesses are refused). */
export function transactionOfEnvelope(envelope: TextEnvelope): TransactionFile {
  const content = envelopeContent(envelope)
  if (content === undefined) {
    throw invalid(`a "${envelope.type}" envelope holds no transaction; expected one of: ${SUPPORTED_ENVELOPE_TYPES}`)
  }
  if (content.kind === 'witness-set' || content.kind === 'key-witness') {
    throw invalid(
      `"${envelope.type}" is a witness, not a transaction: give it to assemble together with its transaction`
    )
  }
  const tx = content.kind === 'body' ? wrapBody(envelope.cbor) : envelope.cbor
  return { tx, era: content.era, txId: txIdOf(tx), source: envelope.type }
}

/** Reads file contents; the era of raw bytes is taken to be Conway, the current one. */
export function readTransaction(contents: Uint8Array): TransactionFile {
  const text = utf8DecodeStrict(contents)?.trim()
  if (text !== undefined && text.startsWith('{')) return fromEnvelope(text)
  if (text !== undefined && /^[0-9a-fA-F]+$/.test(text)) {
    try {
      const tx = hexToBytes(text)
      return { tx, era: 'Conway', txId: txIdOf(tx), source: 'raw' }
    } catch (e) {
      if (e instanceof BytesError) throw invalid(`hex text is not a transaction: ${e.message}`)
      throw e
    }
  }
  return { tx: contents, era: 'Conway', txId: txIdOf(contents), source: 'raw' }
}
