/** The ledger's hashes: blake2b-256 for transaction bodies, datums and aux data; blake2b-224 for keys and scripts. */
import { blake2bHex } from '../../blake2b'

export function blake2b256Hex(bytes: Uint8Array): string {
  return blake2bHex(bytes, 32)
}

export function blake2b224Hex(bytes: Uint8Array): string {
  return blake2bHex(bytes, 28)
}

/** Hash of a script: blake2b-224 of its language tag byte followed by its bytes. */
export function scriptHashHex(languageTag: number, bytes: Uint8Array): string {
  const prefixed = new Uint8Array(1 + bytes.length)
  prefixed[0] = languageTag
  prefixed.set(bytes, 1)
  return blake2b224Hex(prefixed)
}
