/**
 * Failures as the renderer sees them: every error a call can raise becomes a `DeskErrorBody` — a readable
 * sentence, a stable code and plain details — and nothing else leaves the engine. Unknown errors say nothing of
 * their internals (no message, no stack): the caller logs them.
 */
import type { DeskErrorBody } from '../../api/contract'
import { ChainError, type ChainErrorKind } from '../../chain/provider'
import { isJsonObject, type JsonObject } from '../../core/json/lossless'
import { toJsonValue } from '../../core/json/plain'
import { EngineError, storageError, type EngineErrorKind } from '../errors'

/** A refusal of the desk itself, in the engine's one error type. */
export function deskFailure(
  kind: EngineErrorKind,
  code: string,
  message: string,
  details: Readonly<Record<string, unknown>> = {}
): EngineError {
  return new EngineError(kind, code, message, details)
}

export const INTERNAL_ERROR: DeskErrorBody = {
  code: 'InternalError',
  message: 'Something went wrong inside Marlowe Desk; the details are in its log.'
}

const CHAIN_ERRORS: Readonly<Record<ChainErrorKind, { code: string; lead: string }>> = {
  Rejected: { code: 'NodeRejected', lead: 'The node refused the transaction' },
  EvaluationFailed: { code: 'ScriptEvaluationFailed', lead: 'A script of the transaction failed' },
  Unavailable: { code: 'NodeUnavailable', lead: 'The node cannot be reached; try again later' },
  BadResponse: { code: 'NodeBadResponse', lead: 'The node answered something Marlowe Desk does not understand' }
}

/** Capitalised and closed with a full stop, so engine messages read as sentences. */
export function sentence(text: string): string {
  const trimmed = text.trim()
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
  return /[.!?)\]}"]$/.test(capital) ? capital : `${capital}.`
}

function detailsOf(details: Readonly<Record<string, unknown>>): JsonObject | undefined {
  if (Object.keys(details).length === 0) return undefined
  try {
    const json = toJsonValue(details)
    return isJsonObject(json) ? json : undefined
  } catch {
    // Details that are not plain data are for the log, not the UI.
    return undefined
  }
}

function withDetails(code: string, message: string, details: Readonly<Record<string, unknown>>): DeskErrorBody {
  const json = detailsOf(details)
  return json === undefined ? { code, message } : { code, message, details: json }
}

/** The body of a known error, or undefined for an error the desk does not know (log it, show `INTERNAL_ERROR`). */
export function knownErrorBody(thrown: unknown): DeskErrorBody | undefined {
  const e = storageError(thrown) ?? thrown
  if (e instanceof EngineError) {
    // The service words a ledger refusal for Runtime clients (`SubmitFailed "…"`); say it in a sentence.
    const reason = e.details['reason']
    if (e.code === 'SubmissionError' && typeof reason === 'string') {
      return withDetails(e.code, sentence(`The node refused the transaction: ${reason}`), e.details)
    }
    return withDetails(e.code, sentence(e.message), e.details)
  }
  if (e instanceof ChainError) {
    const { code, lead } = CHAIN_ERRORS[e.kind]
    return withDetails(code, sentence(`${lead}: ${e.reason}`), e.details)
  }
  return undefined
}
