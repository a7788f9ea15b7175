/**
 * `SubmitApiClient`: submits transactions through cardano-submit-api (`POST {url}/api/submit/tx`, the raw CBOR
 * bytes as `application/cbor`). It only submits; pair it with a query provider through `withSubmitter`.
 */
import { exchange } from '../blockfrost'
import { ChainError } from '../provider'
import { nodeRejectionReasonFromText } from '../node-rejection'
import { acceptedTxId } from '../submitted-tx-id'
import type { TxSubmitter } from './with-submitter'

export interface SubmitApiOptions {
  /** The service root (`http://localhost:8090`) or the full endpoint (`…/api/submit/tx`). */
  readonly url: string
  /** For the whole request, including reading the answer (default 30 s). */
  readonly timeoutMs?: number
  /** Extra headers, e.g. the API key of a hosted submit API. */
  readonly headers?: Readonly<Record<string, string>>
}

const ENDPOINT = '/api/submit/tx'

export class SubmitApiClient implements TxSubmitter {
  readonly endpoint: string
  private readonly timeoutMs: number
  private readonly headers: Readonly<Record<string, string>>

  constructor(options: SubmitApiOptions) {
    const root = options.url.replace(/\/+$/, '')
    if (root === '') throw new TypeError('SubmitApiClient: the URL is empty')
    this.endpoint = root.endsWith(ENDPOINT) ? root : root + ENDPOINT
    this.timeoutMs = options.timeoutMs ?? 30_000
    // The body is CBOR whatever the caller's headers say.
    this.headers = Object.fromEntries(
      Object.entries(options.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-type')
    )
  }

  /**
   * Sent once, never retried (a lost answer does not mean a lost transaction). 2xx → the tx id; 400 → `Rejected`
   * with the node's reason; anything else (415, 5xx, no answer, a timeout) → `Unavailable`.
   */
  async submit(tx: Uint8Array): Promise<string> {
    const result = await exchange(
      this.endpoint,
      {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/cbor', accept: 'application/json' },
        body: tx
      },
      this.timeoutMs
    )
    const details = { url: this.endpoint }
    if (result.kind === 'timeout') {
      throw new ChainError('Unavailable', `cardano-submit-api did not answer within ${this.timeoutMs} ms`, details)
    }
    if (result.kind === 'unreachable' || result.kind === 'too-large') {
      throw new ChainError('Unavailable', `cannot reach cardano-submit-api at ${this.endpoint} (${result.cause})`, {
        ...details,
        cause: result.cause
      })
    }
    const { status, text } = result
    if (status >= 200 && status < 300) return acceptedTxId(text, tx, 'cardano-submit-api')
    if (status === 400)
      throw new ChainError('Rejected', nodeRejectionReasonFromText(text), { ...details, answer: text })
    const excerpt = text.trim().slice(0, 200)
    throw new ChainError(
      'Unavailable',
      `cardano-submit-api answered HTTP ${status}${excerpt === '' ? '' : `: ${excerpt}`}`,
      { ...details, status }
    )
  }
}
