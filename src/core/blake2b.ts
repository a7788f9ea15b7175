/**
 * The one blake2b every hash in core goes through. The portable implementation works everywhere; a host that
 * can offer a faster one with identical output (the engine installs a WebAssembly one, ~25× faster on the
 * datums a review hashes) swaps it in with `useBlake2b`.
 */
import { blake2b as portableBlake2b } from '@noble/hashes/blake2.js'
import { bytesToHex } from './bytes'

/** blake2b of the parts one after another, with a digest of `outputLength` bytes (1–64), unkeyed. */
export type Blake2b = (parts: readonly Uint8Array[], outputLength: number) => Uint8Array

export const portable: Blake2b = (parts, outputLength) => {
  const hash = portableBlake2b.create({ dkLen: outputLength })
  for (const part of parts) hash.update(part)
  return hash.digest()
}

let current: Blake2b = portable

export function blake2b(bytes: Uint8Array, outputLength: number): Uint8Array {
  return current([bytes], outputLength)
}

export function blake2bHex(bytes: Uint8Array, outputLength: number): string {
  return bytesToHex(current([bytes], outputLength))
}

/** blake2b of the parts one after another, hex: a hash of a concatenation without making it. */
export function blake2bPartsHex(parts: readonly Uint8Array[], outputLength: number): string {
  return bytesToHex(current(parts, outputLength))
}

/** Installs `implementation` for every later hash; the caller vouches that it agrees with `portable`. */
export function useBlake2b(implementation: Blake2b): void {
  current = implementation
}
