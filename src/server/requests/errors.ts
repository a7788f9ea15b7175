/**
 * The request layer's failures, in Runtime's terms (runtime-api.md §8.1): a body of the wrong JSON shape is
 * `RequestBodyParseError`; a well-formed value the service cannot use is `BadRequest` with Runtime's message
 * for that field, followed by where and why.
 */
import { EngineError } from '../../engine/errors'
import type { Problem } from './problems'

export function bodyParseError(problem: Problem): EngineError {
  return new EngineError('BadRequest', 'RequestBodyParseError', `${problem.where}: ${problem.reason}`, {
    path: problem.where,
    reason: problem.reason
  })
}

/** `runtimeMessage` is Runtime's text for the field ("Invalid roles value"); `where` a JSON path or a name. */
export function invalid(runtimeMessage: string, where: string, reason: string, code = 'BadRequest'): EngineError {
  return new EngineError('BadRequest', code, `${runtimeMessage}: ${where}: ${reason}`, { path: where, reason })
}

/** A bad HTTP header: `Invalid change address value: X-Change-Address: not a bech32 string`. */
export function invalidHeader(runtimeMessage: string, header: string, reason: string): EngineError {
  return new EngineError('BadRequest', 'BadRequest', `${runtimeMessage}: ${header}: ${reason}`, { header, reason })
}

/** A bad query parameter; `value` is the offending value of a repeated parameter. */
export function invalidParameter(
  runtimeMessage: string,
  parameter: string,
  value: string | undefined,
  reason: string
): EngineError {
  const where = value === undefined ? parameter : `${parameter} ${JSON.stringify(value)}`
  return new EngineError('BadRequest', 'BadRequest', `${runtimeMessage}: ${where}: ${reason}`, {
    parameter,
    ...(value === undefined ? {} : { value }),
    reason
  })
}

/** Re-labels a builder check's error (`"<path>: <reason>"`, details.path) with Runtime's message. */
export function relabel(runtimeMessage: string, error: EngineError): EngineError {
  const path = typeof error.details.path === 'string' ? error.details.path : undefined
  const reason =
    path !== undefined && error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : error.message
  return path === undefined
    ? new EngineError('BadRequest', 'BadRequest', `${runtimeMessage}: ${reason}`, { reason })
    : invalid(runtimeMessage, path, reason)
}

/** Public decoders throw only EngineErrors: anything else escaping them is a bug, reported as such. */
export function engineErrorsOnly<T>(decode: () => T): T {
  try {
    return decode()
  } catch (e) {
    if (e instanceof EngineError) throw e
    const message = e instanceof Error ? e.message : String(e)
    throw new EngineError('Internal', 'InternalError', `The request could not be decoded: ${message}`)
  }
}
