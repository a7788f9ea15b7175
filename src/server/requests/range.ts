/**
 * Pagination as servant-pagination does it (runtime-api.md §7): the `Range` request header
 * `<field> [<value>][;limit <n>][;offset <n>][;order asc|desc]` and the response headers of a page.
 */
import type { TxOutRef } from '../../chain/provider'
import { formatRef } from '../../core/cardano/refs'
import { EngineError } from '../../engine/errors'
import { parseTxOutRef, TX_ID } from './ids'
import { quote } from './problems'

/** The range field of each paginated list, with the type of its start value. */
export interface RangeFields {
  readonly contractId: TxOutRef
  readonly payoutId: TxOutRef
  readonly transactionId: string
  readonly withdrawalId: string
}

export type RangeField = keyof RangeFields
export type RangeOrder = 'asc' | 'desc'

export interface PageRange<F extends RangeField> {
  readonly field: F
  /** The first item of the page (inclusive); absent: from the start of the list. */
  readonly value?: RangeFields[F]
  readonly limit: number
  readonly offset: number
  readonly order: RangeOrder
}

export const DEFAULT_LIMIT = 100

function badRange(header: string, reason: string): EngineError {
  return new EngineError('BadRequest', 'BadRequest', `Invalid Range header ${quote(header)}: ${reason}`, {
    header: 'Range',
    value: header,
    reason
  })
}

/** The start value (URL-decoded, then read as the field's type), or why it is not one. */
function startValue<F extends RangeField>(field: F, text: string): { value: RangeFields[F] } | { reason: string } {
  let decoded: string
  try {
    decoded = decodeURIComponent(text)
  } catch {
    return { reason: 'the start value is not valid URL encoding' }
  }
  // The casts only restate `RangeFields`: TypeScript does not narrow a type parameter by comparing `field`.
  if (field === 'contractId' || field === 'payoutId') {
    const ref = parseTxOutRef(decoded, false)
    return typeof ref === 'string' ? { reason: ref } : { value: ref as RangeFields[F] }
  }
  return TX_ID.test(decoded)
    ? { value: decoded.toLowerCase() as RangeFields[F] }
    : { reason: 'Expected [a-fA-F0-9]{64}' }
}

function count(text: string, option: string): number | string {
  if (!/^[0-9]{1,15}$/.test(text)) return `${option} must be a non-negative integer, got ${JSON.stringify(text)}`
  return Number(text)
}

/** The Range of a list request; no header means the defaults (limit 100, offset 0, order desc). */
export function parseRangeHeader<F extends RangeField>(header: string | undefined, field: F): PageRange<F> {
  if (header === undefined) return { field, limit: DEFAULT_LIMIT, offset: 0, order: 'desc' }
  const fail = (reason: string) => badRange(header, reason)
  const [head = '', ...options] = header.split(';').map((part) =>
    part
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '')
  )
  const [name, value, ...extra] = head
  if (name !== field) throw fail(`expected the field ${field}`)
  if (extra.length > 0) throw fail('expected one start value after the field')
  const start = value === undefined ? undefined : startValue(field, value)
  if (start !== undefined && 'reason' in start) throw fail(start.reason)
  const seen = new Map<string, string>()
  for (const option of options) {
    const [key, arg, ...rest] = option
    if (key === undefined || arg === undefined || rest.length > 0) throw fail('expected options "<name> <value>"')
    if (key !== 'limit' && key !== 'offset' && key !== 'order') throw fail(`unknown option ${JSON.stringify(key)}`)
    if (seen.has(key)) throw fail(`option ${key} is given twice`)
    seen.set(key, arg)
  }
  const limit = count(seen.get('limit') ?? String(DEFAULT_LIMIT), 'limit')
  const offset = count(seen.get('offset') ?? '0', 'offset')
  const order = seen.get('order') ?? 'desc'
  if (typeof limit === 'string') throw fail(limit)
  if (typeof offset === 'string') throw fail(offset)
  if (order !== 'asc' && order !== 'desc') throw fail(`order must be asc or desc, got ${JSON.stringify(order)}`)
  return { field, ...(start === undefined ? {} : { value: start.value }), limit, offset, order }
}

function formatValue(value: TxOutRef | string): string {
  return encodeURIComponent(typeof value === 'string' ? value : formatRef(value))
}

export interface Page<F extends RangeField> {
  /** The range field of each returned item, in order. */
  readonly values: readonly RangeFields[F][]
  /** Size of the whole filtered list. */
  readonly totalCount: number
}

/**
 * The response headers of a page (status 206 always): Content-Range only for a non-empty page, Next-Range
 * only for a full one, starting at its last item (offset 1 skips that item).
 */
export function pageHeaders<F extends RangeField>(range: PageRange<F>, page: Page<F>): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Ranges': range.field, 'Total-Count': String(page.totalCount) }
  const first = page.values[0]
  const last = page.values.at(-1)
  if (first === undefined || last === undefined) return headers
  headers['Content-Range'] = `${range.field} ${formatValue(first)}..${formatValue(last)}`
  if (page.values.length === range.limit) {
    headers['Next-Range'] = `${range.field} ${formatValue(last)};limit ${range.limit};offset 1;order ${range.order}`
  }
  return headers
}
