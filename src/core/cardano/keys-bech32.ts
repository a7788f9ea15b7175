/**
 * Bech32 text of Cardano keys (CIP-5), such as `acct_xvk1…`: a CIP-1852 account public key followed by its
 * chain code, the one thing a watch-only wallet needs to derive every address of an account.
 */
import { bech32 } from '@scure/base'

export class KeyEncodingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeyEncodingError'
  }
}

const ACCOUNT_XVK_PREFIX = 'acct_xvk'
/** Ed25519 public key (32 bytes) ‖ chain code (32 bytes). */
const ACCOUNT_XVK_BYTES = 64

/** Keys run past BIP-173's 90-character limit (an acct_xvk has 117); this bounds the checksum work instead. */
const MAX_LENGTH = 1023
const SHAPE = /^[\x21-\x7e]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/

export function encodeBech32Key(prefix: string, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes), MAX_LENGTH)
}

/** Bytes of a bech32 key with the given prefix and length; throws `KeyEncodingError` naming what is wrong. */
export function decodeBech32Key(text: string, prefix: string, byteLength: number): Uint8Array {
  const lowered = text.toLowerCase()
  if (text !== lowered && text !== text.toUpperCase()) {
    throw new KeyEncodingError('not a bech32 string: it mixes upper and lower case')
  }
  if (lowered.length > MAX_LENGTH || !SHAPE.test(lowered)) throw new KeyEncodingError('not a bech32 string')
  let decoded: { prefix: string; words: number[] }
  try {
    decoded = bech32.decode(lowered as `${string}1${string}`, MAX_LENGTH)
  } catch {
    throw new KeyEncodingError('bech32 checksum is invalid')
  }
  if (decoded.prefix !== prefix) {
    throw new KeyEncodingError(`expected a key with the prefix ${prefix}, got ${decoded.prefix}`)
  }
  const bytes = bech32.fromWordsUnsafe(decoded.words)
  if (!(bytes instanceof Uint8Array))
    throw new KeyEncodingError('not a bech32 string: the data part has invalid padding')
  if (bytes.length !== byteLength) {
    throw new KeyEncodingError(`${prefix} keys are ${byteLength} bytes, got ${bytes.length}`)
  }
  return bytes
}

export function encodeAccountXvk(publicKeyAndChainCode: Uint8Array): string {
  if (publicKeyAndChainCode.length !== ACCOUNT_XVK_BYTES) {
    throw new KeyEncodingError(
      `${ACCOUNT_XVK_PREFIX} keys are ${ACCOUNT_XVK_BYTES} bytes, got ${publicKeyAndChainCode.length}`
    )
  }
  return encodeBech32Key(ACCOUNT_XVK_PREFIX, publicKeyAndChainCode)
}

export function decodeAccountXvk(text: string): Uint8Array {
  return decodeBech32Key(text, ACCOUNT_XVK_PREFIX, ACCOUNT_XVK_BYTES)
}
