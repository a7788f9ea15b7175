/**
 * `KupoClient`: the few Kupo HTTP queries the chain index needs (Kupo ≥ 2.3: slot ranges on matches).
 * Answers are parsed losslessly and checked field by field; a Kupo that cannot be reached or answers 5xx is
 * `Unavailable` (the caller tries again later), an answer we cannot read is `BadResponse`, and one larger than
 * `maxResponseBytes` is `TooLarge` so that the caller can ask for less.
 */
import { exchange, parseBody } from '../blockfrost'
import { array, Fields, ShapeError } from '../json-shape'
import { ChainError } from '../provider'
import type { JsonValue } from '../../core/json/lossless'

/** A block as Kupo names it. */
export interface KupoPoint {
  readonly slot: bigint
  readonly headerHash: string
}

/** One output matched by a pattern: where it was created and, once spent, in which block. */
export interface KupoMatch {
  readonly txId: string
  readonly outputIndex: number
  readonly createdAt: KupoPoint
  readonly spentAt?: KupoPoint
}

/** Matches created, or spent, in the inclusive slot range `from`..`to`. */
export interface MatchRange {
  readonly by: 'created' | 'spent'
  readonly from: bigint
  readonly to: bigint
}

export interface KupoClientOptions {
  /** Kupo's HTTP root, e.g. `http://localhost:1442`. */
  readonly url: string
  /** Deadline of each request, reading the answer included (default 30 s). */
  readonly timeoutMs?: number
  /** Largest answer read (default 32 MiB). */
  readonly maxResponseBytes?: number
}

/** An answer past `maxResponseBytes`: ask for a narrower range. */
export class KupoTooLarge extends Error {
  constructor(readonly path: string) {
    super(`Kupo's answer to ${path} is too large`)
    this.name = 'KupoTooLarge'
  }
}

interface PointJson {
  slot_no: unknown
  header_hash: unknown
}

interface MatchJson {
  transaction_id: unknown
  output_index: unknown
  created_at: unknown
  spent_at: unknown
}

export class KupoClient {
  readonly url: string
  private readonly timeoutMs: number
  private readonly maxResponseBytes: number

  constructor(options: KupoClientOptions) {
    this.url = options.url.replace(/\/+$/, '')
    if (!/^https?:\/\/[^/]/.test(this.url)) throw new TypeError(`KupoClient: ${options.url} is not an http(s) URL`)
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.maxResponseBytes = options.maxResponseBytes ?? 32 * 1024 * 1024
  }

  /** The most recent block Kupo has indexed, or undefined before its first. */
  async tip(): Promise<KupoPoint | undefined> {
    const path = '/checkpoints'
    const points = await this.get(path, (v) => array(v, 'checkpoints').map((p, i) => point(p, `checkpoints[${i}]`)))
    return points[0]
  }

  /** The block at `slot` (`strict`), or else the closest one before it. */
  checkpoint(slot: bigint, strict: boolean): Promise<KupoPoint | undefined> {
    return this.get(`/checkpoints/${slot}${strict ? '?strict' : ''}`, (v) =>
      v === null ? undefined : point(v, 'checkpoint')
    )
  }

  /** The configured patterns that include `pattern` (empty: Kupo does not index what it matches). */
  patternsIncluding(pattern: string): Promise<string[]> {
    return this.get(`/patterns/${pattern}`, (v) =>
      array(v, 'patterns').map((p, i) => {
        if (typeof p !== 'string') throw new ShapeError(`patterns[${i}]`, 'a pattern')
        return p
      })
    )
  }

  /** Outputs matching `pattern` created or spent within `range`. */
  matches(pattern: string, range: MatchRange): Promise<KupoMatch[]> {
    // Kupo's lower bounds start at slot 1; slot 0 is the same as none.
    const lower = range.from > 0n ? `${range.by}_after=${range.from}&` : range.by === 'spent' ? 'spent&' : ''
    const path = `/matches/${pattern}?${lower}${range.by}_before=${range.to}`
    return this.get(path, (v) => array(v, 'matches').map((m, i) => match(m, `matches[${i}]`)))
  }

  private async get<T>(path: string, read: (v: JsonValue) => T): Promise<T> {
    const url = this.url + path
    const result = await exchange(
      url,
      { method: 'GET', headers: { accept: 'application/json' }, maxBytes: this.maxResponseBytes },
      this.timeoutMs
    )
    const details = { url: this.url, path }
    switch (result.kind) {
      case 'timeout':
        throw new ChainError('Unavailable', `Kupo did not answer ${path} within ${this.timeoutMs} ms`, details)
      case 'unreachable':
        throw new ChainError('Unavailable', `cannot reach Kupo at ${this.url} (${result.cause})`, details)
      case 'too-large':
        throw new KupoTooLarge(path)
    }
    if (result.status >= 500) {
      throw new ChainError('Unavailable', `Kupo failed on ${path} (HTTP ${result.status})`, {
        ...details,
        status: result.status
      })
    }
    if (result.status !== 200) {
      throw new ChainError('BadResponse', `Kupo answered ${path} with HTTP ${result.status}${hint(result.text)}`, {
        ...details,
        status: result.status
      })
    }
    const body = parseBody(result.text, `Kupo GET ${path}`)
    try {
      return read(body)
    } catch (e) {
      if (!(e instanceof ShapeError)) throw e
      throw new ChainError('BadResponse', `Kupo answered ${path} with something unexpected: ${e.message}`, details)
    }
  }
}

function point(v: JsonValue, path: string): KupoPoint {
  const fields = Fields.of<PointJson>(v, path)
  return { slot: fields.natural('slot_no'), headerHash: fields.hex('header_hash', 32) }
}

function match(v: JsonValue, path: string): KupoMatch {
  const fields = Fields.of<MatchJson>(v, path)
  const spent = fields.opt('spent_at')
  return {
    txId: fields.hex('transaction_id', 32),
    outputIndex: fields.smallNatural('output_index'),
    createdAt: point(fields.get('created_at'), fields.at('created_at')),
    ...(spent === undefined ? {} : { spentAt: point(spent, fields.at('spent_at')) })
  }
}

/** Kupo's 400 answers carry `{ hint }`. */
function hint(text: string): string {
  try {
    const body = Fields.of<{ hint: unknown }>(parseBody(text, 'hint'), 'error')
    return `: ${body.string('hint')}`
  } catch {
    return ''
  }
}
