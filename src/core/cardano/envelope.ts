/**
 * cardano-cli TextEnvelopes: `{"type", "description", "cborHex"}`, the file format for keys, transactions
 * and witnesses that cardano-cli, cardano-hw-cli and Marlowe Runtime read and write.
 */
import { BytesError, bytesToHex, hexToBytes } from '../bytes'
import { isJsonObject, JsonSyntaxError, parseJson, stringifyJson } from '../json/lossless'

export interface TextEnvelope {
  readonly type: string
  readonly description: string
  readonly cbor: Uint8Array
}

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EnvelopeError'
  }
}

/** Parses envelope text; `type` and `cborHex` are required, `description` defaults to empty. */
export function parseTextEnvelope(text: string): TextEnvelope {
  let json
  try {
    json = parseJson(text, { maxLength: 32 * 1024 * 1024, maxDepth: 4 })
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new EnvelopeError(`not a TextEnvelope: ${e.message}`)
    throw e
  }
  if (!isJsonObject(json)) throw new EnvelopeError('not a TextEnvelope: expected a JSON object')
  const { type, description, cborHex } = json
  if (typeof type !== 'string' || type === '') throw new EnvelopeError('TextEnvelope has no "type" string')
  if (typeof cborHex !== 'string') throw new EnvelopeError('TextEnvelope has no "cborHex" string')
  if (description !== undefined && typeof description !== 'string') {
    throw new EnvelopeError('TextEnvelope "description" must be a string')
  }
  try {
    return { type, description: description ?? '', cbor: hexToBytes(cborHex) }
  } catch (e) {
    if (e instanceof BytesError) throw new EnvelopeError(`TextEnvelope "cborHex" is not hex: ${e.message}`)
    throw e
  }
}

/** Writes an envelope as cardano-cli does: indented JSON with the keys in its order. */
export function stringifyTextEnvelope(envelope: TextEnvelope): string {
  return (
    stringifyJson(
      { type: envelope.type, description: envelope.description, cborHex: bytesToHex(envelope.cbor) },
      { indent: 4 }
    ) + '\n'
  )
}
