/**
 * Keys brought in from elsewhere: an account public key for a watch-only wallet (CIP-5 `acct_xvk…` or a
 * cardano-cli extended verification key file), and a cardano-cli payment signing key for a single-key wallet.
 */
import { EnvelopeError, parseTextEnvelope, type TextEnvelope } from '../../core/cardano/envelope'
import { KEY_FILE_TYPES, KeyFileError, keyBytes, signingKeyFromEnvelope } from '../../core/cardano/key-envelopes'
import { decodeAccountXvk, KeyEncodingError } from '../../core/cardano/keys-bech32'
import { bytesToHex } from '../../core/bytes'
import { childKeyHashes } from './derivation'
import { keystoreError } from './errors'
import { publicKeyOfSigningKey } from './signing'

/** The 64 bytes (public key ‖ chain code) of an `acct_xvk` or of an account key file. */
export function parseAccountKey(text: string): Uint8Array {
  const trimmed = text.trim()
  const xvk = guard('account key', () =>
    trimmed.startsWith('{') ? accountKeyOfEnvelope(parseTextEnvelope(trimmed)) : decodeAccountXvk(trimmed)
  )
  try {
    childKeyHashes(xvk, 'payment', 0, 1)
  } catch {
    throw keystoreError('InvalidKey', 'account key: not a valid Ed25519 extended public key')
  }
  return xvk
}

/** The account key file `exportAccountKey` writes, or the payment key type that earlier versions wrote it under. */
function accountKeyOfEnvelope(envelope: TextEnvelope): Uint8Array {
  const { accountExtendedVerification: account, paymentExtendedVerification: earlier } = KEY_FILE_TYPES
  if (envelope.type !== account && envelope.type !== earlier) {
    throw new KeyFileError(
      `expected an ${account} key file (or ${earlier}, as earlier versions wrote), got "${envelope.type}"`
    )
  }
  return keyBytes(envelope, envelope.type).slice()
}

export interface ImportedSigningKey {
  /** A 32-byte seed or a 64-byte extended secret. The caller zeroes it after use. */
  readonly signingKey: Uint8Array
  readonly verificationKey: Uint8Array
}

/** A cardano-cli payment signing key file (normal or extended), checked for consistency. */
export function parseSigningKeyFile(text: string): ImportedSigningKey {
  const envelope: TextEnvelope = guard('signing key file', () => parseTextEnvelope(text))
  try {
    const key = guard('signing key file', () => signingKeyFromEnvelope(envelope))
    let verificationKey: Uint8Array
    try {
      verificationKey = publicKeyOfSigningKey(key.secret)
    } catch {
      key.secret.fill(0)
      throw keystoreError('InvalidKey', 'signing key file: not a valid Ed25519 signing key')
    }
    if (key.statedPublicKey !== undefined && bytesToHex(key.statedPublicKey) !== bytesToHex(verificationKey)) {
      key.secret.fill(0)
      throw keystoreError(
        'InvalidKey',
        'signing key file: the public key it holds does not belong to its private key (the file is damaged)'
      )
    }
    return { signingKey: key.secret, verificationKey }
  } finally {
    envelope.cbor.fill(0)
  }
}

/** Runs a core parser, turning its format errors into the keystore's InvalidKey. */
function guard<T>(what: string, parse: () => T): T {
  try {
    return parse()
  } catch (e) {
    if (e instanceof EnvelopeError || e instanceof KeyFileError || e instanceof KeyEncodingError) {
      throw keystoreError('InvalidKey', `${what}: ${e.message}`)
    }
    throw e
  }
}
