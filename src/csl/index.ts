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
