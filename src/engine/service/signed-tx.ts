/**
 * Turns the body of a submit (Runtime's PUT) into the signed transaction to hand to the node: a full `Tx <era>`
 * must be the very transaction that was built (same body hash); a witness set (`ShelleyTxWitness <era>`, or a
 * cardano-cli `TxWitness <era>`) has its key witnesses spliced into the stored transaction byte for byte.
 * Every signature is checked here, so a wrong one is a clear 400 rather than a node's ledger error.
 */
import { BytesError, bytesToHex, hexToBytes } from '../../core/bytes'
import {
  envelopeContent,
  keyWitnessEnvelopeType,
  txEnvelopeType,
  witnessSetEnvelopeType,
  type Era
} from '../../core/cardano/tx-envelope'
import {
  addVkeyWitnesses,
  splitTransaction,
  vkeyWitnessesOfWitnessSet,
  vkeyWitnessOfKeyWitness,
  WitnessError,
  type VkeyWitness
} from '../../core/cardano/witnesses'
import { blake2b256Hex } from '../../core/cardano/tx/hash'
import { EngineError } from '../errors'
import { verifyWitness } from '../sign'

export interface StoredBuild {
  readonly txId: string
  readonly era: Era
  readonly unsignedTx: Uint8Array
}

/** A raw submit body as it arrives (the HTTP layer has checked the three keys are strings). */
export interface SubmitEnvelope {
  readonly type: string
  readonly description: string
  readonly cborHex: string
}

const bad = (code: string, message: string, details: Record<string, unknown> = {}): EngineError =>
  new EngineError('BadRequest', code, message, details)

/**
 * Runtime's message, word for word (clients match on it); the details list every type this service takes, which
 * beside Runtime's are cardano-cli's key witness and, for a Conway build, the Babbage witness set the published
 * Runtime client sends.
 */
function unknownType(envelope: SubmitEnvelope, era: Era): EngineError {
  const allowed = [txEnvelopeType(era), witnessSetEnvelopeType(era)]
  const taken = [...allowed, keyWitnessEnvelopeType(era)]
  const accepted = era === 'Babbage' ? taken : [...taken, witnessSetEnvelopeType('Babbage')]
  return bad(
    'BadRequest',
    `Unknown envelope type - allowed types are: ${allowed.map((t) => JSON.stringify(t)).join(', ')}`,
    { type: envelope.type, accepted }
  )
}

function cborOf(envelope: SubmitEnvelope): Uint8Array {
  try {
    const bytes = hexToBytes(envelope.cborHex)
    if (bytes.length === 0) throw new BytesError('empty')
    return bytes
  } catch (e) {
    if (e instanceof BytesError) throw bad('BadRequest', 'Invalid text envelope cbor value', { reason: e.message })
    throw e
  }
}

/** Each witness once: copies of one signature are one signature (and are checked once). */
function distinct(witnesses: readonly VkeyWitness[]): VkeyWitness[] {
  const seen = new Set<string>()
  return witnesses.filter((w) => {
    const key = `${bytesToHex(w.vkey)}:${bytesToHex(w.signature)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function checkSignatures(tx: Uint8Array, witnesses: readonly VkeyWitness[]): void {
  witnesses.forEach((w, i) => {
    if (!verifyWitness(tx, w)) {
      throw bad(
        'InvalidWitness',
        `signature ${i + 1} (key ${bytesToHex(w.vkey)}) does not sign transaction ${blake2b256Hex(splitTransaction(tx).body)}`,
        { vkey: bytesToHex(w.vkey) }
      )
    }
  })
}

function invalidCbor(e: unknown): never {
  if (e instanceof WitnessError) throw bad('BadRequest', `Invalid text envelope cbor value: ${e.message}`)
  throw e
}

function fullTransaction(build: StoredBuild, cbor: Uint8Array): Uint8Array {
  let body: Uint8Array
  try {
    body = splitTransaction(cbor).body
  } catch (e) {
    invalidCbor(e)
  }
  const id = blake2b256Hex(body)
  if (id !== build.txId) {
    throw bad(
      'TxBodyMismatch',
      `this is transaction ${id}, not ${build.txId}, the one built for this resource: only the built transaction can be submitted here`,
      { expected: build.txId, actual: id }
    )
  }
  const witnesses = (() => {
    try {
      const parts = splitTransaction(cbor)
      const vkeys = parts.witnessSet.entries.find(([k]) => k.kind === 'int' && k.value === 0n)
      if (vkeys === undefined) return []
      return vkeyWitnessesOfWitnessSet(cbor.slice(parts.witnessSet.start, parts.witnessSet.end))
    } catch (e) {
      return invalidCbor(e)
    }
  })()
  if (witnesses.length === 0) {
    throw bad('MissingSignatures', 'the transaction carries no signatures: sign it before submitting')
  }
  checkSignatures(cbor, distinct(witnesses))
  return cbor
}

function mergeWitnesses(build: StoredBuild, witnesses: readonly VkeyWitness[]): Uint8Array {
  if (witnesses.length === 0) throw bad('MissingSignatures', 'the witness set holds no signatures')
  const unique = distinct(witnesses)
  checkSignatures(build.unsignedTx, unique)
  return addVkeyWitnesses(build.unsignedTx, unique).tx
}

/** The signed transaction a submit body stands for; 400 (EngineError BadRequest) for anything else. */
export function signedTransaction(build: StoredBuild, envelope: SubmitEnvelope): Uint8Array {
  const content = envelopeContent({ type: envelope.type, description: envelope.description, cbor: new Uint8Array() })
  if (content === undefined) throw unknownType(envelope, build.era)
  const cbor = cborOf(envelope)
  switch (content.kind) {
    case 'tx':
      if (content.era !== build.era) throw unknownType(envelope, build.era)
      return fullTransaction(build, cbor)
    case 'witness-set':
      // The published Runtime client labels every witness set Babbage, whatever the era.
      if (content.era !== build.era && content.era !== 'Babbage') throw unknownType(envelope, build.era)
      try {
        return mergeWitnesses(build, vkeyWitnessesOfWitnessSet(cbor))
      } catch (e) {
        return invalidCbor(e)
      }
    case 'key-witness':
      if (content.era !== build.era) throw unknownType(envelope, build.era)
      try {
        return mergeWitnesses(build, [vkeyWitnessOfKeyWitness(cbor)])
      } catch (e) {
        return invalidCbor(e)
      }
    case 'body':
      throw bad(
        'MissingSignatures',
        `a "${envelope.type}" holds a body without signatures: send the signed "${txEnvelopeType(build.era)}" or a "${witnessSetEnvelopeType(build.era)}"`
      )
  }
}
