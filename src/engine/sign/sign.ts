/**
 * Signing: work out which keys a transaction needs, ask the keystore for exactly those it holds, and add
 * the witnesses without re-serialising the body (the tx id before and after is the same). Assembling
 * merges witnesses made elsewhere (another signer, an air-gapped machine), checking each one first.
 */
import { bytesToHex, hexToBytes, utf8DecodeStrict } from '../../core/bytes'
import {
  addVkeyWitnesses,
  vkeyWitnessesOfWitnessSet,
  vkeyWitnessOfKeyWitness,
  WitnessError,
  type VkeyWitness
} from '../../core/cardano/witnesses'
import { EnvelopeError, parseTextEnvelope } from '../../core/cardano/envelope'
import { envelopeContent } from '../../core/cardano/tx-envelope'
import type { WitnessProvider } from '../keys'
import { CSL, withCsl } from '../../csl'
import { EngineError } from '../errors'
import { reviewOffThread } from '../worker'
import type { OutRef, ResolvedOutput } from '../../core/cardano/review'

export interface SignRequest {
  readonly tx: Uint8Array
  readonly walletId: string
  readonly keys: WitnessProvider
  /** The outputs the tx spends (inputs and collateral), from the chain or a review bundle. */
  readonly resolved: readonly ResolvedOutput[]
}

export interface SignResult {
  readonly tx: Uint8Array
  readonly txId: string
  /** The witnesses this wallet added. */
  readonly witnesses: readonly VkeyWitness[]
  /** Key hashes the tx needs that this wallet cannot sign for, each with why. */
  readonly missing: ReadonlyMap<string, readonly string[]>
  /** Inputs and collateral whose owner is unknown, so their signers could not be worked out. */
  readonly unresolved: readonly OutRef[]
}

/**
 * The keys the transaction still needs, from the same analysis the review shows (inputs and collateral
 * it spends, required signers, withdrawals, certificates, votes, native scripts), and what is unresolved.
 */
export async function neededKeys(
  tx: Uint8Array,
  resolved: readonly ResolvedOutput[]
): Promise<{ keys: Map<string, string[]>; unresolved: OutRef[] }> {
  const review = await reviewOffThread(tx, { resolvedInputs: resolved })
  const keys = new Map(review.witnesses.needed.filter((n) => !n.signed).map((n) => [n.keyHash, [...n.reasons]]))
  const unresolved = [...review.inputs, ...review.collateral.inputs]
    .filter((i) => !i.resolved)
    .map((i) => ({ txId: i.ref.txId, index: i.ref.index }))
  return { keys, unresolved }
}

function bodyHash(tx: Uint8Array): Uint8Array {
  return withCsl((scope) => scope.own(scope.own(CSL.FixedTransaction.from_bytes(tx)).transaction_hash()).to_bytes())
}

function toWitness(cbor: Uint8Array): VkeyWitness {
  return withCsl((scope) => {
    const w = scope.own(CSL.Vkeywitness.from_bytes(cbor))
    const vkey = scope.own(scope.own(w.vkey()).public_key()).as_bytes()
    return { cbor, vkey, signature: scope.own(w.signature()).to_bytes() }
  })
}

export async function signTransaction(request: SignRequest): Promise<SignResult> {
  const needed = await neededKeys(request.tx, request.resolved)
  const hash = bodyHash(request.tx)
  const { witnesses, missing } = await request.keys.witness(request.walletId, hash, [...needed.keys.keys()])
  const added = witnesses.map(toWitness)
  const { tx } = addVkeyWitnesses(request.tx, added)
  return {
    tx,
    txId: bytesToHex(hash),
    witnesses: added,
    missing: new Map(missing.map((k) => [k, needed.keys.get(k) ?? []])),
    unresolved: needed.unresolved
  }
}

/** Whether a witness is a valid signature of this transaction's body. */
export function verifyWitness(tx: Uint8Array, witness: VkeyWitness): boolean {
  return withCsl((scope) => {
    const key = scope.own(CSL.PublicKey.from_bytes(witness.vkey))
    return key.verify(bodyHash(tx), scope.own(CSL.Ed25519Signature.from_bytes(witness.signature)))
  })
}

/** The vkey witnesses in a witness file: a `ShelleyTxWitness` or `TxWitness` envelope, or raw witness-set hex. */
export function readWitnessFile(contents: Uint8Array, name: string): VkeyWitness[] {
  const text = utf8DecodeStrict(contents)?.trim()
  const bad = (why: string): EngineError => new EngineError('BadRequest', 'InvalidWitness', `${name}: ${why}`)
  try {
    if (text !== undefined && text.startsWith('{')) {
      const envelope = parseTextEnvelope(text)
      const content = envelopeContent(envelope)
      if (content?.kind === 'witness-set') return vkeyWitnessesOfWitnessSet(envelope.cbor)
      if (content?.kind === 'key-witness') return [vkeyWitnessOfKeyWitness(envelope.cbor)]
      throw bad(`a "${envelope.type}" envelope is not a witness (expected ShelleyTxWitness <Era> or TxWitness <Era>)`)
    }
    if (text !== undefined && /^[0-9a-fA-F]+$/.test(text)) return vkeyWitnessesOfWitnessSet(hexToBytes(text))
    return vkeyWitnessesOfWitnessSet(contents)
  } catch (e) {
    if (e instanceof WitnessError || e instanceof EnvelopeError) throw bad(e.message)
    throw e
  }
}

/** Adds witnesses to a transaction after checking that each one signs this transaction's body. */
export function assembleTransaction(
  tx: Uint8Array,
  witnesses: readonly VkeyWitness[]
): { tx: Uint8Array; added: number } {
  witnesses.forEach((w, i) => {
    if (!verifyWitness(tx, w)) {
      throw new EngineError(
        'BadRequest',
        'InvalidWitness',
        `witness ${i + 1} (key ${bytesToHex(w.vkey).slice(0, 16)}…) does not sign this transaction: it was made for another one`
      )
    }
  })
  return addVkeyWitnesses(tx, witnesses)
}
