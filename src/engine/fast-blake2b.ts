/**
 * Installs hash-wasm's WebAssembly blake2b as core's blake2b: reviews hash every datum twice (their hashes and
 * the script data hash), and the portable implementation spends most of a review doing it. Digest lengths the
 * ledger does not use stay portable. The installed hashers are checked against the portable one first.
 */
import { createBLAKE2b, type IHasher } from 'hash-wasm'
import { portable, useBlake2b } from '../core/blake2b'
import { bytesToHex } from '../core/bytes'

/** Digest lengths in bytes: wallet ids, key and script hashes, tx/datum/aux-data hashes. */
const LENGTHS = [20, 28, 32] as const

let installed: Promise<void> | undefined

/** Resolves once every later core hash uses WebAssembly; safe to call more than once. */
export function installFastBlake2b(): Promise<void> {
  installed ??= install()
  return installed
}

async function install(): Promise<void> {
  const hashers = new Map<number, IHasher>()
  for (const length of LENGTHS) hashers.set(length, await createBLAKE2b(length * 8))
  const fast = (bytes: Uint8Array, outputLength: number): Uint8Array => {
    const hasher = hashers.get(outputLength)
    return hasher === undefined ? portable(bytes, outputLength) : hasher.init().update(bytes).digest('binary')
  }
  const probe = Uint8Array.from({ length: 300 }, (_, i) => (i * 131) & 0xff)
  for (const length of LENGTHS) {
    if (bytesToHex(fast(probe, length)) !== bytesToHex(portable(probe, length))) {
      throw new Error(`WebAssembly blake2b-${length * 8} disagrees with the portable implementation`)
    }
  }
  useBlake2b(fast)
}
