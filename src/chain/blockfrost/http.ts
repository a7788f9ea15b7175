/**
 * HTTP for the chain adapters. `exchange` is one request with a deadline that also covers reading the body;
 * `BlockfrostHttp` adds the `project_id` header, a cap on requests in flight, bounded retries with backoff for
 * "try later" answers (429, 5xx, dropped connections) on requests without side effects, and turns the statuses
 * Blockfrost documents into `ChainError`s. Bodies are parsed losslessly: quantities above 2^53 stay exact.
 */
import { isJsonObject, JsonSyntaxError, parseJson, type JsonValue } from '../../core/json/lossless'
import { ChainError } from '../provider'
import { badResponse, get } from './shape'

export type Exchange =
  | { readonly kind: 'answer'; readonly status: number; readonly text: string; readonly retryAfter: string | null }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'unreachable'; readonly cause: string }
  /** The body passed the request's `maxBytes`; reading stopped there. */
  | { readonly kind: 'too-large'; readonly cause: string }

export interface ExchangeRequest {
  readonly method: 'GET' | 'POST'
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: Uint8Array | string
  /** Largest body read; past it the request is dropped (default: no limit). */
  readonly maxBytes?: number
}

/** Node's fetch reports "fetch failed" and hides the reason (ECONNREFUSED, ENOTFOUND, …) in `cause`. */
function causeOf(e: unknown): string {
  const cause = e instanceof Error && e.cause !== undefined ? e.cause : e
  if (typeof cause === 'object' && cause !== null) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string') return code
  }
  return cause instanceof Error ? cause.message : String(cause)
}

/** One request; never throws. The deadline runs until the whole body is read, so a trickling answer times out too. */
export async function exchange(url: string, request: ExchangeRequest, timeoutMs: number): Promise<Exchange> {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  try {
    const response = await fetch(url, {
      method: request.method,
      ...(request.headers === undefined ? {} : { headers: request.headers }),
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: controller.signal
    })
    const text = request.maxBytes === undefined ? await response.text() : await boundedText(response, request.maxBytes)
    if (text === undefined) {
      controller.abort()
      return { kind: 'too-large', cause: `the answer is larger than ${request.maxBytes} bytes` }
    }
    return { kind: 'answer', status: response.status, text, retryAfter: response.headers.get('retry-after') }
  } catch (e) {
    return timedOut ? { kind: 'timeout' } : { kind: 'unreachable', cause: causeOf(e) }
  } finally {
    clearTimeout(timer)
  }
}

/** The body as text, or undefined once it passes `maxBytes`. */
async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (response.body === null) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body) {
    size += chunk.byteLength
    if (size > maxBytes) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function parseBody(text: string, what: string): JsonValue {
  try {
    return parseJson(text)
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badResponse(what, `the answer is not JSON (${e.message})`)
    throw e
  }
}

/** The `message` of a Blockfrost error body (`{status_code, error, message}`), when there is one. */
export function errorMessage(text: string): string | undefined {
  try {
    const body = parseJson(text)
    const message = isJsonObject(body) ? get(body, 'message') : undefined
    return typeof message === 'string' ? message : undefined
  } catch {
    return undefined
  }
}

/** Runs at most `limit` tasks at a time: Blockfrost rate-limits per client, and bursts only earn 429s. */
class Gate {
  private active = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.active += 1
    try {
      return await task()
    } finally {
      const next = this.waiting.shift()
      if (next === undefined) this.active -= 1
      else next()
    }
  }
}

export interface BlockfrostHttpOptions {
  readonly baseUrl: string
  readonly projectId: string
  /** For messages: which network the project id should belong to. */
  readonly network: string
  readonly timeoutMs: number
  readonly retries: number
  readonly retryBaseDelayMs: number
  readonly retryMaxDelayMs: number
  readonly maxConcurrent: number
}

export interface BlockfrostRequest {
  readonly method: 'GET' | 'POST'
  /** From the API root, with the query: `/addresses/addr1…/utxos?page=2`. */
  readonly path: string
  readonly contentType?: string
  readonly body?: Uint8Array | string
  /** Safe to send again (reads, evaluation). A submission never is: it may have reached the node. */
  readonly retry: boolean
}

/** The answers a caller interprets itself; every other status has become a `ChainError`. */
export interface BlockfrostAnswer {
  readonly status: 200 | 400 | 404
  readonly text: string
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504])

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export class BlockfrostHttp {
  private readonly gate: Gate
  private readonly root: string

  constructor(private readonly options: BlockfrostHttpOptions) {
    this.gate = new Gate(Math.max(1, options.maxConcurrent))
    this.root = options.baseUrl.replace(/\/+$/, '')
  }

  async request(request: BlockfrostRequest): Promise<BlockfrostAnswer> {
    const url = this.root + request.path
    const headers: Record<string, string> = { project_id: this.options.projectId, accept: 'application/json' }
    if (request.contentType !== undefined) headers['content-type'] = request.contentType
    const init: ExchangeRequest = {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: request.body })
    }
    for (let attempt = 0; ; attempt += 1) {
      const result = await this.gate.run(() => exchange(url, init, this.options.timeoutMs))
      const delay = request.retry && attempt < this.options.retries ? this.retryDelay(result, attempt) : undefined
      if (delay !== undefined) {
        await sleep(delay)
        continue
      }
      return this.interpret(result, request, attempt + 1)
    }
  }

  /** GET of a resource that must exist. */
  async getJson(path: string): Promise<JsonValue> {
    const answer = await this.request({ method: 'GET', path, retry: true })
    if (answer.status !== 200) throw this.unexpected(path, answer)
    return parseBody(answer.text, `GET ${path}`)
  }

  /** GET of a resource that may not exist (404 → undefined). */
  async getJsonOrMissing(path: string): Promise<JsonValue | undefined> {
    const answer = await this.request({ method: 'GET', path, retry: true })
    if (answer.status === 404) return undefined
    if (answer.status !== 200) throw this.unexpected(path, answer)
    return parseBody(answer.text, `GET ${path}`)
  }

  private unexpected(path: string, answer: BlockfrostAnswer): ChainError {
    const message = errorMessage(answer.text)
    return badResponse(`GET ${path}`, `HTTP ${answer.status}${message === undefined ? '' : `: ${message}`}`, {
      status: answer.status
    })
  }

  /** How long to wait before trying again, or undefined when this result is final. */
  private retryDelay(result: Exchange, attempt: number): number | undefined {
    if (result.kind === 'timeout') return undefined // the request already used its whole budget
    if (result.kind === 'answer' && !RETRY_STATUSES.has(result.status)) return undefined
    const backoff = Math.min(this.options.retryMaxDelayMs, this.options.retryBaseDelayMs * 2 ** attempt)
    const jittered = backoff / 2 + Math.random() * (backoff / 2)
    const asked = result.kind === 'answer' ? retryAfterMs(result.retryAfter) : undefined
    if (asked === undefined) return jittered
    // A server asking for a longer pause than we are willing to wait gets an Unavailable now, not a stuck caller.
    return asked > this.options.retryMaxDelayMs ? undefined : Math.max(asked, jittered)
  }

  private interpret(result: Exchange, request: BlockfrostRequest, attempts: number): BlockfrostAnswer {
    const where = `${request.method} ${request.path.split('?')[0]}`
    const details = { url: this.root, attempts }
    if (result.kind === 'timeout') {
      throw new ChainError(
        'Unavailable',
        `Blockfrost did not answer ${where} within ${this.options.timeoutMs} ms`,
        details
      )
    }
    if (result.kind === 'unreachable' || result.kind === 'too-large') {
      throw new ChainError('Unavailable', `cannot reach Blockfrost at ${this.root} (${result.cause})`, {
        ...details,
        cause: result.cause
      })
    }
    const { status, text } = result
    if (status === 200 || status === 400 || status === 404) return { status, text }
    if (status >= 200 && status < 300) return { status: 200, text }
    const message = errorMessage(text)
    const said = message === undefined ? `HTTP ${status}` : `HTTP ${status}: ${message}`
    const wait = retryAfterMs(result.retryAfter)
    const more = {
      ...details,
      status,
      ...(message === undefined ? {} : { message }),
      ...(wait === undefined ? {} : { retryAfterMs: wait })
    }
    switch (status) {
      case 403:
        throw new ChainError(
          'Unavailable',
          `Blockfrost refused the project id (${said}): check that it is set and is a ${this.options.network} project`,
          more
        )
      case 402:
        throw new ChainError('Unavailable', `the Blockfrost project is over its daily request limit (${said})`, more)
      case 418:
        throw new ChainError(
          'Unavailable',
          `Blockfrost has banned this client for a while after too many requests (${said})`,
          more
        )
      case 425:
        throw new ChainError('Unavailable', `the node's mempool is full (${said}): try again later`, more)
      case 429:
        throw new ChainError('Unavailable', `Blockfrost is rate-limiting this client (${said})`, more)
    }
    if (status >= 500) throw new ChainError('Unavailable', `Blockfrost failed on ${where} (${said})`, more)
    throw badResponse(where, `unexpected ${said}`, more)
  }
}

/** `Retry-After` in seconds (the HTTP-date form is not worth supporting here). */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return undefined
  return Number(header.trim()) * 1000
}
