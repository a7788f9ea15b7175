/**
 * The signed transaction of a stored build, from what the signer gives back: the whole signed transaction, which
 * must be the very one built (same body hash), or key witnesses, spliced into the stored transaction byte for
 * byte. Every signature is checked here, so a wrong one is a clear BadRequest rather than a node's ledger error.
 */
import { bytesToHex } from '../../core/bytes'
import type { Era } from '../../core/cardano/tx-envelope'
import {
  addVkeyWitnesses,
  splitTransaction,
  vkeyWitnessesOfWitnessSet,
  WitnessError,
  type VkeyWitness
} from '../../core/cardano/witnesses'
import { blake2b256Hex } from '../../core/cardano/tx'
import { EngineError } from '../errors'
import { verifyWitness } from '../sign'

export interface StoredBuild {
  readonly txId: string
  readonly era: Era
  readonly unsignedTx: Uint8Array
}

/** What a signer gives back for a build: the signed transaction whole, or the key witnesses it made. */
export type SignedForm = { readonly tx: Uint8Array } | { readonly witnesses: readonly VkeyWitness[] }

const bad = (code: string, message: string, details: Record<string, unknown> = {}): EngineError =>
  new EngineError('BadRequest', code, message, details)

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

function unreadable(e: unknown): never {
  if (e instanceof WitnessError) {
    throw bad('InvalidTransaction', `the signed transaction cannot be read: ${e.message}`, { reason: e.message })
  }
  throw e
}

function fullTransaction(build: StoredBuild, tx: Uint8Array): Uint8Array {
  let parts
  try {
    parts = splitTransaction(tx)
  } catch (e) {
    unreadable(e)
  }
  const id = blake2b256Hex(parts.body)
  if (id !== build.txId) {
    throw bad(
      'TxBodyMismatch',
      `this is transaction ${id}, not ${build.txId}, the one built for this resource: only the built transaction can be submitted here`,
      { expected: build.txId, actual: id }
    )
  }
  const vkeys = parts.witnessSet.entries.find(([k]) => k.kind === 'int' && k.value === 0n)
  let witnesses: VkeyWitness[] = []
  try {
    if (vkeys !== undefined)
      witnesses = vkeyWitnessesOfWitnessSet(tx.slice(parts.witnessSet.start, parts.witnessSet.end))
  } catch (e) {
    unreadable(e)
  }
  if (witnesses.length === 0) {
    throw bad('MissingSignatures', 'the transaction carries no signatures: sign it before submitting')
  }
  checkSignatures(tx, distinct(witnesses))
  return tx
}

function mergeWitnesses(build: StoredBuild, witnesses: readonly VkeyWitness[]): Uint8Array {
  if (witnesses.length === 0) throw bad('MissingSignatures', 'the witness set holds no signatures')
  const unique = distinct(witnesses)
  checkSignatures(build.unsignedTx, unique)
  return addVkeyWitnesses(build.unsignedTx, unique).tx
}

/** The signed transaction of `build`; BadRequest (EngineError) when `signed` is not a signature of it. */
export function signedTransaction(build: StoredBuild, signed: SignedForm): Uint8Array {
  return 'tx' in signed ? fullTransaction(build, signed.tx) : mergeWitnesses(build, signed.witnesses)
}
