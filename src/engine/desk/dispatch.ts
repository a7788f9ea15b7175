/**
 * The one entry point of both edges (IPC in main, HTTP for the browser UI): a call name and wire text in, the
 * wire text of a `DeskResult` out. The name is checked against the contract, the request decoded and validated
 * at run time, the answer checked against the contract too (an answer it does not declare is a bug of the desk,
 * never sent), and every failure becomes a `DeskErrorBody` — this function never rejects.
 */
import { DESK_CALLS, type DeskCall, type DeskErrorBody, type DeskResult } from '../../api/contract'
import { decodeWire, encodeWire, WireError } from '../../api/wire'
import { INTERNAL_ERROR, knownErrorBody } from './errors'
import type { DeskHandlers } from './handlers'
import { RESPONSE_SCHEMAS } from './response-schemas'
import { describeIssues, REQUEST_SCHEMAS } from './schemas'

/** Larger requests are refused before parsing (a review bundle of a big transaction is well under this). */
const MAX_REQUEST_CHARS = 32 * 1024 * 1024

export interface DispatchOptions {
  /** Where unexpected errors go (with their stack); default `console.error`. Never the UI. */
  readonly logError?: (call: string, error: unknown) => void
}

const CALLS: ReadonlySet<string> = new Set(DESK_CALLS)

export function isDeskCall(name: unknown): name is DeskCall {
  return typeof name === 'string' && CALLS.has(name)
}

const failure = (error: DeskErrorBody): DeskResult<never> => ({ ok: false, error })

function invalid(message: string, issues?: { path: string; message: string }[]): DeskResult<never> {
  return failure({
    code: 'InvalidRequest',
    message,
    ...(issues === undefined ? {} : { details: { issues: issues.map((i) => ({ ...i })) } })
  })
}

async function run(desk: DeskHandlers, name: unknown, requestWire: unknown, options: DispatchOptions) {
  if (!isDeskCall(name)) {
    return failure({ code: 'UnknownCall', message: `Marlowe Desk has no call named ${JSON.stringify(String(name))}.` })
  }
  if (typeof requestWire !== 'string') return invalid('The request must be wire text.')
  if (requestWire.length > MAX_REQUEST_CHARS) return invalid('The request is too large.')
  let decoded: unknown
  try {
    decoded = decodeWire(requestWire)
  } catch (e) {
    if (e instanceof WireError) return invalid(`The request could not be read: ${e.message}.`)
    throw e
  }
  const parsed = REQUEST_SCHEMAS[name].safeParse(decoded)
  if (!parsed.success) {
    const issues = describeIssues(parsed.error)
    return invalid(`The request is not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}.`, issues)
  }
  try {
    const handler = desk[name] as (request: unknown) => Promise<unknown>
    const value = await handler(parsed.data)
    const answer = RESPONSE_SCHEMAS[name].safeParse(value)
    if (!answer.success) throw new UndeclaredAnswer(name, describeIssues(answer.error))
    return { ok: true, value } as const
  } catch (e) {
    const body = knownErrorBody(e)
    if (body !== undefined) return failure(body)
    ;(options.logError ?? defaultLog)(name, e)
    return failure(INTERNAL_ERROR)
  }
}

/** An answer the contract does not declare: logged with what is wrong, answered as an internal error. */
class UndeclaredAnswer extends Error {
  constructor(call: DeskCall, issues: { path: string; message: string }[]) {
    super(
      `${call} answered what the contract does not declare: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`
    )
    this.name = 'UndeclaredAnswer'
  }
}

const defaultLog = (call: string, error: unknown): void => console.error(`marlowe-desk: ${call} failed`, error)

export async function handleDeskCall(
  desk: DeskHandlers,
  name: unknown,
  requestWire: unknown,
  options: DispatchOptions = {}
): Promise<string> {
  const logError = options.logError ?? defaultLog
  try {
    return encodeWire(await run(desk, name, requestWire, options))
  } catch (e) {
    // A response that cannot be encoded (not plain data) is a bug of the desk, not of the caller.
    logError(String(name), e)
    return encodeWire(failure(INTERNAL_ERROR))
  }
}
