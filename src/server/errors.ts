/**
 * Errors as Runtime sends them: `{message, errorCode, details}` with the HTTP status as the only status.
 * Engine kinds map to statuses here and nowhere else; a few builder details are reshaped to Runtime's.
 */
import type { JsonValue } from '../core/json/lossless'
import { toJsonValue } from '../core/json/plain'
import { EngineError, storageError, type EngineErrorKind } from '../engine/errors'

export const STATUS_OF_KIND: Readonly<Record<EngineErrorKind, number>> = {
  BadRequest: 400,
  NotFound: 404,
  Conflict: 409,
  Forbidden: 403,
  Unavailable: 503,
  Internal: 500
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly details: JsonValue = null
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export interface ErrorBody {
  readonly status: number
  readonly body: { message: string; errorCode: string; details: JsonValue }
}

function detailsOf(e: EngineError): JsonValue {
  const d = e.details
  // Runtime's SafetyAnalysisFailed carries the list itself.
  if (e.code === 'SafetyAnalysisFailed' && Array.isArray(d.safetyErrors)) return toJsonValue(d.safetyErrors)
  return Object.keys(d).length === 0 ? null : toJsonValue(d)
}

/** The response for anything a handler threw; unknown errors are 500s that say nothing of internals. */
export function errorResponse(thrown: unknown): ErrorBody {
  const e = storageError(thrown) ?? thrown
  if (e instanceof HttpError)
    return { status: e.status, body: { message: e.message, errorCode: e.errorCode, details: e.details } }
  if (e instanceof EngineError) {
    return { status: STATUS_OF_KIND[e.kind], body: { message: e.message, errorCode: e.code, details: detailsOf(e) } }
  }
  return { status: 500, body: { message: 'Internal server error', errorCode: 'InternalError', details: null } }
}
