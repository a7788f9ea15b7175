/**
 * Installs the engine's native codecs under core's portable ones, each checked against the portable one first:
 * hash-wasm's WebAssembly blake2b (reviews hash every datum twice, their hashes and the script data hash, and
 * the portable implementation spent most of a review doing it; digest lengths the ledger does not use stay
 * portable) and Node's hex encoder (a review hexes every datum it shows).
 */
import { createBLAKE2b, type IHasher } from 'hash-wasm'
import { portable, useBlake2b } from '../core/blake2b'
import { bytesToHex, portableHex, useHexEncoder, type HexEncoder } from '../core/bytes'

/** Digest lengths in bytes: wallet ids, key and script hashes, tx/datum/aux-data hashes. */
const LENGTHS = [20, 28, 32] as const

let installed: Promise<void> | undefined

/** Resolves once every later core hash and hex uses the native codecs; safe to call more than once. */
export function installNativeCodecs(): Promise<void> {
  installed ??= install()
  return installed
}

const nodeHex: HexEncoder = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')

async function install(): Promise<void> {
  const probe = Uint8Array.from({ length: 300 }, (_, i) => (i * 131) & 0xff)
  if (nodeHex(probe.subarray(1)) !== portableHex(probe.subarray(1))) {
    throw new Error("Node's hex encoder disagrees with the portable one")
  }
  useHexEncoder(nodeHex)
  const hashers = new Map<number, IHasher>()
  for (const length of LENGTHS) hashers.set(length, await createBLAKE2b(length * 8))
  const fast = (parts: readonly Uint8Array[], outputLength: number): Uint8Array => {
    const hasher = hashers.get(outputLength)
    if (hasher === undefined) return portable(parts, outputLength)
    hasher.init()
    for (const part of parts) hasher.update(part)
    return hasher.digest('binary')
  }
  const halves = [probe.subarray(0, 100), probe.subarray(100)]
  for (const length of LENGTHS) {
    if (bytesToHex(fast(halves, length)) !== bytesToHex(portable([probe], length))) {
      throw new Error(`WebAssembly blake2b-${length * 8} disagrees with the portable implementation`)
    }
  }
  useBlake2b(fast)
}
