/**
 * The engine's one error type. `code` is Marlowe Runtime's `errorCode` where Runtime has one (so the HTTP
 * edge maps it without translation); `details` is plain JSON-safe data for the UI and API.
 */
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
