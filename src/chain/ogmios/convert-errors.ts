/**
 * Ogmios error answers as `ChainError`s. The node's own words (Ogmios' `message`, with the essentials of `data`)
 * become the reason; `details` keep `{ method, code, data }` for whoever wants the structure.
 *
 * Codes (Ogmios v6): 3000–3004 evaluation could not run, 3005 era mismatch (at a hard fork; retrying helps),
 * 3010 script failures (one entry per failing redeemer, codes 3011–3013 and some 31xx inside), 3100–3999
 * ledger rejections of a submitted transaction, -32602 a transaction that could not be decoded, 2001/2003
 * ledger-state queries caught at an era boundary or on an expired state, -32603 an internal error.
 */
import type {
  DeserialisationFailure,
  EvaluateTransactionFailureScriptExecutionFailure,
  ScriptExecutionFailureValidationFailure
} from '@cardano-ogmios/schema'
import { isJsonObject, type JsonValue } from '../../core/json/lossless'
import { ChainError } from '../provider'
import { toRedeemerPointer } from './convert-ledger'
import { Fields } from '../json-shape'
import type { RpcError } from './rpc-client'

const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603
const SCRIPT_FAILURES = 3010
/** Query errors that go away by themselves: an era boundary (2001), an expired acquired state (2003). */
const TRANSIENT_QUERY_CODES = new Set([2001, 2003, INTERNAL_ERROR])

function details(e: RpcError): Record<string, unknown> {
  return { method: e.method, code: e.code, ...(e.data === undefined ? {} : { data: e.data }) }
}

function inTransactionRange(code: number): boolean {
  return code >= 3000 && code < 4000
}

/** Ogmios says why it could not decode a transaction once per era; the latest era's reason is the useful one. */
function deserialisationReason(e: RpcError): string {
  const data = e.data
  if (data === undefined || !isJsonObject(data)) return e.rpcMessage
  for (const era of ['conway', 'babbage'] as const satisfies readonly (keyof DeserialisationFailure['data'])[]) {
    const hint = data[era]
    if (typeof hint === 'string') return `${e.rpcMessage} (${era}: ${hint})`
  }
  return e.rpcMessage
}

type ScriptFailure = EvaluateTransactionFailureScriptExecutionFailure['data'][number]

/** "spend #0: Some of the scripts failed … (validation error: …; traces: a | b)" for one failing redeemer. */
function scriptFailureLine(entry: JsonValue): string | undefined {
  if (!isJsonObject(entry)) return undefined
  const key: keyof ScriptFailure = 'validator'
  let where = 'a redeemer'
  try {
    const pointer = toRedeemerPointer(Fields.of(entry[key], 'validator'))
    where = `${pointer.tag} #${pointer.index}`
  } catch {
    // Without a readable pointer the error itself is still worth reporting.
  }
  const error = entry['error']
  if (error === undefined || !isJsonObject(error)) return where
  const parts: string[] = []
  const data = error['data']
  if (data !== undefined && isJsonObject(data)) {
    const validationKey: keyof ScriptExecutionFailureValidationFailure['data'] = 'validationError'
    const validation = data[validationKey]
    if (typeof validation === 'string') parts.push(`validation error: ${validation}`)
    const traces = data['traces']
    if (Array.isArray(traces) && traces.length > 0) parts.push(`traces: ${traces.map(String).join(' | ')}`)
  }
  const message = typeof error['message'] === 'string' ? error['message'] : `error ${String(error['code'])}`
  return `${where}: ${message}${parts.length === 0 ? '' : ` (${parts.join('; ')})`}`
}

function scriptFailuresReason(e: RpcError): string {
  const lines = Array.isArray(e.data) ? e.data.map(scriptFailureLine).filter((l) => l !== undefined) : []
  return lines.length === 0 ? e.rpcMessage : `${e.rpcMessage} ${lines.join('. ')}`
}

/** An error answer to anything but submit and evaluate (or an unexpected code from those). */
export function queryFailure(e: RpcError): ChainError {
  const kind = TRANSIENT_QUERY_CODES.has(e.code) ? 'Unavailable' : 'BadResponse'
  return new ChainError(kind, `Ogmios refused ${e.method}: ${e.rpcMessage || `error ${e.code}`}`, details(e))
}

/** `submitTransaction` errors: the ledger's rejections, and transactions that do not decode. */
export function submitFailure(e: RpcError): ChainError {
  if (inTransactionRange(e.code)) return new ChainError('Rejected', e.rpcMessage, details(e))
  if (e.code === INVALID_PARAMS) return new ChainError('Rejected', deserialisationReason(e), details(e))
  return queryFailure(e)
}

/** `evaluateTransaction` errors: failing scripts, and transactions that cannot be evaluated. */
export function evaluationFailure(e: RpcError): ChainError {
  if (e.code === SCRIPT_FAILURES) return new ChainError('EvaluationFailed', scriptFailuresReason(e), details(e))
  if (inTransactionRange(e.code)) return new ChainError('EvaluationFailed', e.rpcMessage, details(e))
  if (e.code === INVALID_PARAMS) return new ChainError('EvaluationFailed', deserialisationReason(e), details(e))
  return queryFailure(e)
}
