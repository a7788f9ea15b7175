/**
 * A local Blockfrost for tests, speaking the API as its OpenAPI describes it: the paths the adapter uses, the
 * `project_id` check (403), Blockfrost's error bodies (`{status_code, error, message}`), `count`/`page`
 * pagination, `order`, `from`/`to` block ranges, amounts as strings. State is canned per test, and a chain of
 * blocks can be grown (`appendBlock`) and rolled back (`rollBackTo`); `state.refresh` lets a live backend bring
 * the state up to date before each answer (./sandbox-peer.ts). Faults are scripted per path: statuses, delays,
 * dropped connections and malformed bodies, for a number of requests, after which the peer answers normally.
 * `stop()` refuses connections until `restart()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { hexToBytes } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import {
  isJsonObject,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue
} from '../../../src/core/json/lossless'
import { listen, readBody, shut } from '../submit-api/peer'
import {
  addressTransactions,
  appendBlock,
  findBlock,
  rollBackTo,
  txCbor,
  type Answer,
  type BlockSpec,
  type ChainState,
  type PeerBlock
} from './peer-chain'

export interface Fault {
  /** Against `METHOD /path` (no query), e.g. /^GET \/blocks\/latest$/. */
  readonly match: RegExp
  /** How many matching requests it affects (default 1). */
  times?: number
  readonly status?: number
  /** The raw body (default Blockfrost's error body for `status`). */
  readonly body?: string
  readonly retryAfter?: string
  /** Wait before answering (with `status`, or normally when no status is given). */
  readonly delayMs?: number
  /** Drop the connection without an answer. */
  readonly hangUp?: boolean
}

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: IncomingMessage['headers']
  readonly body: Uint8Array
}

export interface ScriptRecord {
  readonly type: 'timelock' | 'plutusV1' | 'plutusV2' | 'plutusV3'
  /** Hex as `/scripts/{hash}/cbor` serves it; null for timelocks, as Blockfrost does. */
  readonly cbor: string | null
  readonly json?: JsonValue
}

/** An answer of the evaluation endpoints: status and JSON body. */
export interface EvaluationAnswer {
  readonly status: number
  readonly body: JsonValue
}

export interface SubmitAnswer {
  readonly status: number
  readonly body: string
}

const ERRORS: Readonly<Record<number, [string, string]>> = {
  400: ['Bad Request', 'Backend did not understand your request.'],
  402: ['Project Over Limit', 'Usage is over limit.'],
  403: ['Forbidden', 'Invalid project token.'],
  404: ['Not Found', 'The requested component has not been found.'],
  418: [
    'Requested Banned',
    'IP has been auto-banned for extensive sending of requests after usage limit has been reached.'
  ],
  425: ['Mempool Full', 'Mempool is full, please try resubmitting again later.'],
  429: ['Project Over Limit', 'Usage is over limit.'],
  500: ['Internal Server Error', 'An unexpected response was received from the backend.']
}

export function errorBody(status: number, message?: string): string {
  const [error, text] = ERRORS[status] ?? ['Error', 'Something went wrong.']
  return JSON.stringify({ status_code: status, error, message: message ?? text })
}

export interface PeerState extends ChainState {
  parameters: JsonObject
  eras: JsonValue
  genesis: JsonObject
  /** Address → its UTxOs, items of `GET /addresses/{a}/utxos`. */
  readonly addressUtxos: Map<string, JsonObject[]>
  /** Tx hash → `GET /txs/{h}/utxos`. */
  readonly txUtxos: Map<string, JsonObject>
  /** Tx hash → `GET /mempool/{h}`. */
  readonly mempool: Map<string, JsonObject>
  /** Datum hash → CBOR hex. */
  readonly datums: Map<string, string>
  readonly scripts: Map<string, ScriptRecord>
  evaluate: (request: {
    readonly path: string
    readonly tx: string
    readonly json?: JsonValue
  }) => EvaluationAnswer | Promise<EvaluationAnswer>
  submit: (tx: Uint8Array) => SubmitAnswer | Promise<SubmitAnswer>
  /** Runs before each request is answered (after faults and the project id check); a failure answers 500. */
  refresh: (request: RecordedRequest) => Promise<void>
}

function defaultState(): PeerState {
  return {
    parameters: {},
    eras: [],
    genesis: {},
    latestBlock: {},
    blocks: [],
    addressTxs: new Map(),
    txCbor: new Map(),
    addressUtxos: new Map(),
    txUtxos: new Map(),
    txs: new Map(),
    mempool: new Map(),
    datums: new Map(),
    scripts: new Map(),
    evaluate: () => ({ status: 200, body: { jsonrpc: '2.0', method: 'evaluateTransaction', result: [], id: null } }),
    submit: (tx) => ({ status: 200, body: JSON.stringify(decodeTransaction(tx).id) }),
    refresh: () => Promise.resolve()
  }
}

export class BlockfrostPeer {
  readonly state: PeerState = defaultState()
  readonly faults: Fault[] = []
  readonly requests: RecordedRequest[] = []

  private constructor(
    private server: Server | undefined,
    /** The API root, as `baseUrl`. */
    readonly url: string,
    readonly projectId: string
  ) {}

  static async start(projectId = 'preprodTestProjectId0123456789abc'): Promise<BlockfrostPeer> {
    const holder: { peer?: BlockfrostPeer } = {}
    const server = createServer((req, res) => void holder.peer?.handle(req, res))
    holder.peer = new BlockfrostPeer(server, `${await listen(server)}/api/v0`, projectId)
    return holder.peer
  }

  /** Stops listening and drops every connection: clients are refused until `restart()`. */
  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (server !== undefined) await shut(server)
  }

  /** Listens again, on the same port (same `url`, same state). */
  async restart(): Promise<void> {
    if (this.server !== undefined) return
    const server = createServer((req, res) => void this.handle(req, res))
    const port = Number(new URL(this.url).port)
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    this.server = server
  }

  close(): Promise<void> {
    return this.stop()
  }

  /** Adds a block on top of the chain (its transactions listed at their addresses); it becomes the latest. */
  appendBlock(spec: BlockSpec = {}): PeerBlock {
    return appendBlock(this.state, spec)
  }

  /** A rollback: the blocks above `height` and their transactions are gone; blocks appended next replace them. */
  rollBackTo(height: bigint): void {
    rollBackTo(this.state, height)
  }

  /** Requests to paths matching `pattern` (`METHOD /path`). */
  requestsTo(pattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => pattern.test(`${r.method} ${r.path}`))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://peer')
    const path = url.pathname.replace(/^\/api\/v0/, '')
    const body = await readBody(req)
    const request = { method: req.method ?? '', path, query: url.searchParams, headers: req.headers, body }
    this.requests.push(request)
    const send = (status: number, text: string, headers: Record<string, string> = {}): void => {
      if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text)
    }
    const key = `${req.method} ${path}`
    const fault = this.faults.find((f) => f.match.test(key) && (f.times ?? 1) > 0)
    if (fault !== undefined) {
      fault.times = (fault.times ?? 1) - 1
      if (fault.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
      if (fault.hangUp === true) return void res.socket?.destroy()
      if (fault.status !== undefined) {
        return send(
          fault.status,
          fault.body ?? errorBody(fault.status),
          fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }
        )
      }
    }
    if (req.headers['project_id'] !== this.projectId) return send(403, errorBody(403))
    let answer: { status: number; text: string } | undefined
    try {
      await this.state.refresh(request)
      answer = await this.route(req.method ?? '', path, url.searchParams, req.headers['content-type'], body)
    } catch (e) {
      return send(500, errorBody(500, e instanceof Error ? e.message : String(e)))
    }
    if (answer === undefined) return send(404, errorBody(404))
    send(answer.status, answer.text)
  }

  private async route(
    method: string,
    path: string,
    query: URLSearchParams,
    contentType: string | undefined,
    body: Uint8Array
  ): Promise<{ status: number; text: string } | undefined> {
    const s = this.state
    const ok = (v: JsonValue): { status: number; text: string } => ({ status: 200, text: stringifyJson(v) })
    const found = (v: JsonValue | undefined): { status: number; text: string } | undefined =>
      v === undefined ? undefined : ok(v)
    const answered = (a: Answer): { status: number; text: string } | undefined =>
      a.status === 200 ? ok(a.body) : a.status === 404 ? undefined : { status: a.status, text: errorBody(a.status) }
    let m: RegExpExecArray | null
    if (method === 'GET') {
      if (path === '/epochs/latest/parameters') return ok(s.parameters)
      if (path === '/network/eras') return ok(s.eras)
      if (path === '/genesis') return ok(s.genesis)
      if (path === '/blocks/latest') return ok(s.latestBlock)
      if ((m = /^\/blocks\/([^/]+)$/.exec(path))) return answered(findBlock(s, decodeURIComponent(m[1]!)))
      if ((m = /^\/addresses\/([^/]+)\/transactions$/.exec(path))) {
        return answered(addressTransactions(s, decodeURIComponent(m[1]!), query))
      }
      if ((m = /^\/addresses\/([^/]+)\/utxos$/.exec(path))) {
        const utxos = s.addressUtxos.get(decodeURIComponent(m[1]!))
        if (utxos === undefined) return undefined
        const count = Math.min(100, Number(query.get('count') ?? '100'))
        const page = Number(query.get('page') ?? '1')
        return ok(utxos.slice((page - 1) * count, page * count))
      }
      if ((m = /^\/txs\/([0-9a-f]{64})\/utxos$/.exec(path))) return found(s.txUtxos.get(m[1]!))
      if ((m = /^\/txs\/([0-9a-f]{64})\/cbor$/.exec(path))) return answered(txCbor(s, m[1]!))
      if ((m = /^\/txs\/([0-9a-f]{64})$/.exec(path))) return found(s.txs.get(m[1]!))
      if ((m = /^\/mempool\/([0-9a-f]{64})$/.exec(path))) return found(s.mempool.get(m[1]!))
      if ((m = /^\/scripts\/datum\/([0-9a-f]{64})\/cbor$/.exec(path))) {
        const cbor = s.datums.get(m[1]!)
        return cbor === undefined ? undefined : ok({ cbor })
      }
      if ((m = /^\/scripts\/([0-9a-f]{56})(\/cbor|\/json)?$/.exec(path))) {
        const script = s.scripts.get(m[1]!)
        if (script === undefined) return undefined
        if (m[2] === '/cbor') return ok({ cbor: script.cbor })
        if (m[2] === '/json') return ok({ json: script.json ?? null })
        return ok({
          script_hash: m[1]!,
          type: script.type,
          serialised_size: script.cbor === null ? null : BigInt(script.cbor.length / 2)
        })
      }
      return undefined
    }
    if (method !== 'POST') return undefined
    if (path === '/tx/submit') {
      if (contentType !== 'application/cbor')
        return { status: 415, text: errorBody(400, 'Content-Type must be application/cbor') }
      const answer = await s.submit(body)
      return { status: answer.status, text: answer.body }
    }
    if (path === '/utils/txs/evaluate') {
      if (contentType !== 'application/cbor') return { status: 400, text: errorBody(400) }
      const answer = await s.evaluate({ path, tx: new TextDecoder().decode(body) })
      return { status: answer.status, text: stringifyJson(answer.body) }
    }
    if (path === '/utils/txs/evaluate/utxos') {
      if (contentType !== 'application/json') return { status: 400, text: errorBody(400) }
      const json = parseJson(new TextDecoder().decode(body))
      const tx = isJsonObject(json) ? json['cbor'] : undefined
      const answer = await s.evaluate({ path, tx: typeof tx === 'string' ? tx : '', json })
      return { status: answer.status, text: stringifyJson(answer.body) }
    }
    return undefined
  }
}

/** The bytes of a hex string (test data). */
export const bytes = hexToBytes
