/**
 * The engine's one error type. `code` is Marlowe Runtime's `errorCode` where Runtime has one (so the HTTP
 * edge maps it without translation); `details` is plain JSON-safe data for the UI and API.
 */
import { isStoreFull, storageFailureCode } from '../store/storage-failure'

export type EngineErrorKind = 'BadRequest' | 'NotFound' | 'Conflict' | 'Forbidden' | 'Unavailable' | 'Internal'

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {}
  ) {
    super(message)
    this.name = 'EngineError'
  }
}

/**
 * The engine's error for a store that refused a write or a read (a full disk, an I/O error, a locked file, a
 * database server out of reach), or undefined for any other error. The interrupted transaction was rolled back
 * whole: nothing half-written stays and nothing accepted before is lost, so the caller can try again later.
 */
export function storageError(e: unknown): EngineError | undefined {
  const code = storageFailureCode(e)
  if (code === undefined) return undefined
  return new EngineError(
    'Unavailable',
    'StorageUnavailable',
    isStoreFull(code)
      ? 'The store is full (the disk has no room left): nothing was changed. Free some space and try again'
      : 'The store cannot be written or read now: nothing was changed. Try again later',
    code.startsWith('SQLITE_') ? { sqlite: code } : { postgres: code }
  )
}
