/**
 * Keystone: the unsigned transaction as a `cardano-sign-request` UR and the `cardano-signature` UR it answers,
 * both made and read by Keystone's own registry classes (@keystonehq/bc-ur-registry-cardano), so the request is
 * the one a Keystone reads. The request names every key Keystone must sign with: the wallet's UTxOs the tx
 * spends (inputs and collateral, with address, amount and path) and its required signers (with path), under the
 * Keystone's master fingerprint, which it checks. The signature read back must answer this request, and each
 * witness must be a key the request named and sign the body hash; it is then spliced without touching the body.
 */
import { randomUUID } from 'node:crypto'
import type { KeystoneSignatureScan } from '../../api/contract'
import { CardanoSignature, CardanoSignRequest } from '@keystonehq/bc-ur-registry-cardano'
import type { UR } from '@ngraveio/bc-ur'
import { bytesToHex } from '../../core/bytes'
import { AddressError, parseShelleyAddress } from '../../core/cardano/address'
import type { ResolvedOutput } from '../../core/cardano/review'
import { formatRef } from '../../core/cardano/refs'
import { decodeTransaction } from '../../core/cardano/tx'
import { vkeyWitnessesOfWitnessSet, WitnessError, type VkeyWitness } from '../../core/cardano/witnesses'
import { EngineError } from '../errors'
import { DEFAULT_GAP, childPublicKey, formatKeyPath, type KeyPath, ownedKeyHashes } from '../keys'
import type { AccountKey } from '../keys'
import { assembleTransaction, neededKeys, verifyWitness } from '../sign'
import type { UrReading } from '../qr-transfer'

export type { KeystoneSignatureScan }

/** What the Keystone shows as the request's origin. */
export const KEYSTONE_ORIGIN = 'Marlowe Desk'
const SIGNATURE_TYPE = 'cardano-signature'
const MASTER_FINGERPRINT = /^[0-9a-f]{8}$/

export interface KeystoneRequestInput {
  readonly tx: Uint8Array
  readonly account: AccountKey
  /** The Keystone's master fingerprint, 8 hex digits: it refuses a request made for another seed. */
  readonly masterFingerprint: string
  /** The outputs the tx spends (inputs and collateral), from the chain or a review bundle. */
  readonly resolved: readonly ResolvedOutput[]
}

/** A key the request asks the Keystone to sign with. */
export interface KeystoneSigner {
  readonly keyHash: string
  /** m/1852'/1815'/account'/role/index */
  readonly path: string
  /** The 32-byte public key at that path, hex: the key its witness must carry. */
  readonly vkey: string
}

export interface KeystoneRequest {
  /** A UUID: the signature names it back. */
  readonly requestId: string
  readonly ur: UR
  readonly signers: readonly KeystoneSigner[]
  /** Key hashes the tx needs that the account does not hold, each with why. */
  readonly missing: ReadonlyMap<string, readonly string[]>
}

function keystoneError(code: string, message: string, details: Record<string, unknown> = {}): EngineError {
  return new EngineError('BadRequest', code, message, details)
}

function derived(path: KeyPath | undefined): Extract<KeyPath, { kind: 'derived' }> | undefined {
  return path?.kind === 'derived' ? path : undefined
}

/** A request id as the UUID text it was made from. */
function uuidOf(bytes: Uint8Array): string {
  const hex = bytesToHex(bytes)
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-')
}

function paymentKeyHash(address: string): string | undefined {
  try {
    const { payment } = parseShelleyAddress(address)
    return payment.type === 'key' ? payment.hash : undefined
  } catch (e) {
    if (e instanceof AddressError) return undefined
    throw e
  }
}

export async function keystoneSignRequest(input: KeystoneRequestInput): Promise<KeystoneRequest> {
  const xfp = input.masterFingerprint.toLowerCase()
  if (!MASTER_FINGERPRINT.test(xfp)) {
    throw keystoneError(
      'KeystoneBadFingerprint',
      `"${input.masterFingerprint}" is not a master fingerprint: the Keystone's is 8 hexadecimal digits`
    )
  }
  const { body } = decodeTransaction(input.tx)
  const needed = await neededKeys(input.tx, input.resolved)
  const owned = ownedKeyHashes({ account: input.account }, DEFAULT_GAP)
  const signers = new Map<string, KeystoneSigner>()
  const signer = (keyHash: string, path: Extract<KeyPath, { kind: 'derived' }>): KeystoneSigner => {
    const known = signers.get(keyHash)
    if (known !== undefined) return known
    const vkey = bytesToHex(childPublicKey(input.account.xvk, path.role, path.index, false))
    const made = { keyHash, path: formatKeyPath(path), vkey }
    signers.set(keyHash, made)
    return made
  }
  const byRef = new Map(input.resolved.map((o) => [formatRef(o.ref), o]))
  const spent = new Set([...body.inputs, ...body.collateral].map(formatRef))
  const utxos = [...spent].flatMap((ref) => {
    const o = byRef.get(ref)
    const keyHash = o === undefined ? undefined : paymentKeyHash(o.address)
    const path = keyHash === undefined ? undefined : derived(owned.get(keyHash))
    if (o === undefined || keyHash === undefined || path === undefined) return []
    const { txId, index } = o.ref
    const hdPath = signer(keyHash, path).path
    return [{ transactionHash: txId, index, amount: o.value.lovelace.toString(), xfp, hdPath, address: o.address }]
  })
  const extraSigners = body.requiredSigners.flatMap((keyHash) => {
    const path = derived(owned.get(keyHash))
    return path === undefined ? [] : [{ keyHash, xfp, keyPath: signer(keyHash, path).path }]
  })
  // Keystone signs with the keys of the UTxOs and signers it is given: a key needed for anything else cannot be asked.
  const unasked = [...needed.keys.keys()].filter((hash) => owned.has(hash) && !signers.has(hash))
  if (unasked.length > 0) {
    throw keystoneError(
      'KeystoneCannotSign',
      `A Keystone sign request names keys only as spent UTxOs and required signers, and this transaction also needs key ${unasked.join(', ')} (${unasked.map((h) => needed.keys.get(h)?.join('; ')).join(' / ')}). Nothing was shown`,
      { keyHashes: unasked }
    )
  }
  const requestId = randomUUID()
  const request = CardanoSignRequest.constructCardanoSignRequest(
    Buffer.from(input.tx),
    utxos,
    extraSigners,
    requestId,
    KEYSTONE_ORIGIN
  )
  return {
    requestId,
    ur: request.toUR(),
    signers: [...signers.values()],
    missing: new Map([...needed.keys].filter(([hash]) => !owned.has(hash)))
  }
}

function readSignature(cbor: Uint8Array): { requestId: string | undefined; witnessSet: Uint8Array } {
  let signature: CardanoSignature
  try {
    signature = CardanoSignature.fromCBOR(Buffer.from(cbor))
  } catch {
    throw keystoneError('KeystoneSignatureUnreadable', 'The scanned code is not a readable Keystone cardano-signature')
  }
  const id = signature.getRequestId()
  const witnessSet = signature.getWitnessSet()
  if (!(witnessSet instanceof Uint8Array)) {
    throw keystoneError('KeystoneSignatureUnreadable', 'The scanned cardano-signature carries no witness set')
  }
  return { requestId: id instanceof Uint8Array && id.length === 16 ? uuidOf(id) : undefined, witnessSet }
}

/** Scanned `cardano-signature` sequences: read as the registry reads them; verified when spliced. */
export const KEYSTONE_SIGNATURE_READING: UrReading<'keystone-signature', KeystoneSignatureScan> = {
  kindOf: (type) => (type === SIGNATURE_TYPE ? 'keystone-signature' : undefined),
  describe: () => 'Keystone signature',
  notOurs: (type) => `This QR code carries a "${type}", not a Keystone signature (ur:${SIGNATURE_TYPE})`,
  read: (_kind, cbor) => {
    const { requestId } = readSignature(cbor)
    if (requestId === undefined) {
      throw keystoneError('KeystoneSignatureUnreadable', 'The scanned cardano-signature names no request')
    }
    return { requestId, cbor: bytesToHex(cbor) }
  }
}

/** The request a signature must answer: its id and the keys it named. */
export interface IssuedKeystoneRequest {
  readonly requestId: string
  readonly signers: readonly KeystoneSigner[]
}

/**
 * The transaction with the Keystone's witnesses: the signature must answer `request`, and each witness must be a
 * key the request named and sign this body. Nothing is spliced unless every witness passes.
 */
export function spliceKeystoneSignature(
  tx: Uint8Array,
  request: IssuedKeystoneRequest,
  signatureCbor: Uint8Array
): { tx: Uint8Array; witnesses: VkeyWitness[] } {
  const { requestId, witnessSet } = readSignature(signatureCbor)
  if (requestId !== request.requestId) {
    throw keystoneError(
      'KeystoneOtherRequest',
      `This Keystone signature answers request ${requestId ?? '(none named)'}, not the one shown for this transaction (${request.requestId}): scan the signature of this request`,
      { requestId: request.requestId, ...(requestId === undefined ? {} : { answered: requestId }) }
    )
  }
  let witnesses: VkeyWitness[]
  try {
    witnesses = vkeyWitnessesOfWitnessSet(witnessSet)
  } catch (e) {
    if (e instanceof WitnessError) throw keystoneError('KeystoneSignatureUnreadable', `The Keystone's ${e.message}`)
    throw e
  }
  if (witnesses.length === 0) throw keystoneError('KeystoneSignatureEmpty', 'The Keystone signature holds no witness')
  const byKey = new Map(request.signers.map((s) => [s.vkey, s]))
  for (const w of witnesses) {
    const vkey = bytesToHex(w.vkey)
    const named = byKey.get(vkey)
    if (named === undefined) {
      throw keystoneError(
        'KeystoneUnknownKey',
        `The Keystone signed with key ${vkey}, which the request did not name: it signed with another account or seed`,
        { vkey }
      )
    }
    if (!verifyWitness(tx, w)) {
      throw keystoneError(
        'KeystoneBadSignature',
        `The Keystone's signature by the key at ${named.path} does not sign this transaction's body: it is refused`,
        { path: named.path }
      )
    }
  }
  return { tx: assembleTransaction(tx, witnesses).tx, witnesses }
}
