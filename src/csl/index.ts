/**
 * CSL objects live in wasm memory that the garbage collector does not see: free them deterministically.
 * `withCsl` hands a scope to a function; everything registered with `scope.own` is freed when it returns
 * or throws, so memory stays flat across thousands of builds.
 */
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs'

export { CSL }

interface Freeable {
  free(): void
}

export interface CslScope {
  /** Registers a CSL object to be freed when the scope ends, and returns it. */
  own<T extends Freeable>(obj: T): T
}

export function withCsl<R>(fn: (scope: CslScope) => R): R {
  const owned: Freeable[] = []
  const scope: CslScope = {
    own(obj) {
      owned.push(obj)
      return obj
    }
  }
  try {
    return fn(scope)
  } finally {
    for (let i = owned.length - 1; i >= 0; i -= 1) owned[i]!.free()
  }
}
export { rootKeyFromEntropy } from './root-key'

/** A CSL scope that also takes secrets: key bytes whose every copy in CSL's memory is wiped when it ends. */
export interface SecretCslScope extends CslScope {
  /** Registers `bytes` (a JS array this scope then owns: it is zeroed too) and returns it. */
  secret(bytes: Uint8Array): Uint8Array
}

/** Secrets are matched in pieces of this many bytes: random key bytes, so a match is a copy, never chance. */
const PIECE = 32
const MIN_PIECE = 16

function wasmMemory(): Buffer {
  const memory = (CSL as unknown as { __wasm?: { memory?: { buffer: ArrayBuffer } } }).__wasm?.memory
  if (memory === undefined) throw new TypeError('CSL no longer exposes its wasm memory: keys cannot be wiped from it')
  return Buffer.from(memory.buffer)
}

/** The size of CSL's wasm memory on this thread: it only ever grows, so a leak of CSL objects shows there. */
export function cslMemoryBytes(): number {
  return wasmMemory().length
}

/** Overwrites with zeros every copy of each piece of each secret in CSL's wasm memory. */
function wipeCopies(secrets: readonly Uint8Array[]): void {
  const memory = wasmMemory()
  for (const secret of secrets) {
    const pieces =
      secret.length <= PIECE
        ? [secret]
        : Array.from({ length: Math.ceil(secret.length / PIECE) }, (_, i) =>
            secret.subarray(i * PIECE, (i + 1) * PIECE)
          )
    for (const piece of pieces) {
      if (piece.length < MIN_PIECE) continue
      for (let at = memory.indexOf(piece); at >= 0; at = memory.indexOf(piece, at + piece.length)) {
        memory.fill(0, at, at + piece.length)
      }
    }
  }
}

/**
 * `withCsl` for private keys. CSL frees its objects without clearing them and copies keys through its memory on
 * every call (measured: 17 copies of the keys left behind by one derivation and signature), so once the scope's
 * objects are freed, every copy of each registered secret still in CSL's memory is zeroed, then the secrets.
 */
export function withSecretCsl<R>(fn: (scope: SecretCslScope) => R): R {
  const secrets: Uint8Array[] = []
  try {
    return withCsl((scope) =>
      fn({
        own: (obj) => scope.own(obj),
        secret: (bytes) => {
          secrets.push(bytes)
          return bytes
        }
      })
    )
  } finally {
    wipeCopies(secrets)
    for (const s of secrets) s.fill(0)
  }
}
