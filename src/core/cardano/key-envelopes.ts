/**
 * cardano-cli key files: TextEnvelopes whose `cborHex` is one CBOR byte string holding the raw key.
 * Layouts (cardano-api): a normal signing key is the 32-byte Ed25519 seed; an extended (BIP32-Ed25519)
 * signing key is the 64-byte extended secret ‖ 32-byte public key ‖ 32-byte chain code; verification keys
 * are the 32-byte public key, extended ones followed by the 32-byte chain code.
 */
import type { TextEnvelope } from './envelope'

export class KeyFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeyFileError'
  }
}

export const KEY_FILE_TYPES = {
  paymentSigning: 'PaymentSigningKeyShelley_ed25519',
  paymentExtendedSigning: 'PaymentExtendedSigningKeyShelley_ed25519_bip32',
  paymentVerification: 'PaymentVerificationKeyShelley_ed25519',
  paymentExtendedVerification: 'PaymentExtendedVerificationKeyShelley_ed25519_bip32',
  stakeVerification: 'StakeVerificationKeyShelley_ed25519',
  stakeExtendedVerification: 'StakeExtendedVerificationKeyShelley_ed25519_bip32',
  /**
   * A CIP-1852 account key (m/1852'/1815'/N'). cardano-api defines no type for it, and under a payment type
   * cardano-cli would take it for a payment key and build addresses that no wallet watches.
   */
  accountExtendedVerification: 'AccountExtendedVerificationKeyShelley_ed25519_bip32'
} as const

export type KeyFileType = (typeof KEY_FILE_TYPES)[keyof typeof KEY_FILE_TYPES]

const KEY_BYTES: Readonly<Record<KeyFileType, number>> = {
  [KEY_FILE_TYPES.paymentSigning]: 32,
  [KEY_FILE_TYPES.paymentExtendedSigning]: 128,
  [KEY_FILE_TYPES.paymentVerification]: 32,
  [KEY_FILE_TYPES.paymentExtendedVerification]: 64,
  [KEY_FILE_TYPES.stakeVerification]: 32,
  [KEY_FILE_TYPES.stakeExtendedVerification]: 64,
  [KEY_FILE_TYPES.accountExtendedVerification]: 64
}

const DESCRIPTIONS: Readonly<Record<KeyFileType, string>> = {
  [KEY_FILE_TYPES.paymentSigning]: 'Payment Signing Key',
  [KEY_FILE_TYPES.paymentExtendedSigning]: 'Payment Signing Key',
  [KEY_FILE_TYPES.paymentVerification]: 'Payment Verification Key',
  [KEY_FILE_TYPES.paymentExtendedVerification]: 'Payment Verification Key',
  [KEY_FILE_TYPES.stakeVerification]: 'Stake Verification Key',
  [KEY_FILE_TYPES.stakeExtendedVerification]: 'Stake Verification Key',
  [KEY_FILE_TYPES.accountExtendedVerification]: 'Account Extended Verification Key'
}

/** CBOR major type 2 (byte string) with a one-byte length: every key length above is 24..255 bytes. */
const BYTES_ONE_BYTE_LENGTH = 0x58

/** A payment signing key from a key file. The caller zeroes `secret` (and the envelope's `cbor`) after use. */
export interface SigningKeyBytes {
  /** `normal`: the 32-byte Ed25519 seed; `extended`: the 64-byte BIP32-Ed25519 extended secret. */
  readonly form: 'normal' | 'extended'
  readonly secret: Uint8Array
  /** The public key an extended key file states beside the secret, for the caller to check. */
  readonly statedPublicKey?: Uint8Array
}

export function signingKeyFromEnvelope(envelope: TextEnvelope): SigningKeyBytes {
  if (envelope.type === KEY_FILE_TYPES.paymentSigning) {
    return { form: 'normal', secret: keyBytes(envelope, KEY_FILE_TYPES.paymentSigning).slice() }
  }
  if (envelope.type === KEY_FILE_TYPES.paymentExtendedSigning) {
    const bytes = keyBytes(envelope, KEY_FILE_TYPES.paymentExtendedSigning)
    return { form: 'extended', secret: bytes.slice(0, 64), statedPublicKey: bytes.slice(64, 96) }
  }
  throw new KeyFileError(
    `unsupported key file type "${envelope.type}": expected ${KEY_FILE_TYPES.paymentSigning} or ${KEY_FILE_TYPES.paymentExtendedSigning}`
  )
}

/** The key bytes of an envelope of the given type, without copying (a view into `envelope.cbor`). */
export function keyBytes(envelope: TextEnvelope, type: KeyFileType): Uint8Array {
  if (envelope.type !== type) throw new KeyFileError(`expected a ${type} key file, got "${envelope.type}"`)
  const length = KEY_BYTES[type]
  const { cbor } = envelope
  if (cbor.length < 2 || cbor[0] !== BYTES_ONE_BYTE_LENGTH || cbor[1] !== cbor.length - 2) {
    throw new KeyFileError(`${type} key file: cborHex must be one CBOR byte string of ${length} bytes`)
  }
  if (cbor.length !== length + 2) {
    throw new KeyFileError(`${type} key file: the key must be ${length} bytes, got ${cbor.length - 2}`)
  }
  return cbor.subarray(2)
}

/** A key file as cardano-cli writes it; `description` defaults to cardano-cli's own. */
export function keyEnvelope(
  type: KeyFileType,
  key: Uint8Array,
  description: string = DESCRIPTIONS[type]
): TextEnvelope {
  const length = KEY_BYTES[type]
  if (key.length !== length) throw new KeyFileError(`a ${type} key is ${length} bytes, got ${key.length}`)
  const cbor = new Uint8Array(2 + length)
  cbor[0] = BYTES_ONE_BYTE_LENGTH
  cbor[1] = length
  cbor.set(key, 2)
  return { type, description, cbor }
}
