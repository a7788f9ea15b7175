/**
 * A local Kupo for tests: an HTTP server on 127.0.0.1 speaking Kupo's API (v2.12's description) over a chain of
 * blocks given by the test (the Ogmios peer's, so that both tell the same chain): `GET /matches/{pattern}` with
 * `created_after|created_before|spent_after|spent_before` (slots or points), `spent`, `unspent` and `order`;
 * `GET /checkpoints`, `GET /checkpoints/{slot}[?strict]`, `GET /patterns`, `GET /patterns/{pattern}`;
 * `X-Most-Recent-Checkpoint` and `ETag` headers; `400 { hint }` for what Kupo refuses.
 *
 * Matches are every output of the indexed blocks whose address the configured patterns include (address
 * patterns `*`, `*\/*` and `{credential}/*`), spent by the later transaction that consumes it. `lag` keeps Kupo
 * that many blocks behind the chain; faults make it slow, fail or drop connections; `stop()` refuses connections
 * until `restart()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { hexToBytes } from '../../../src/core/bytes'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { stringifyJson, type JsonObject, type JsonValue } from '../../../src/core/json/lossless'
import type { PeerBlock } from '../ogmios/peer'

export type KupoFault =
  | { readonly kind: 'status'; readonly status: number; readonly body?: string }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'drop' }

interface Match {
  readonly txIndex: number
  readonly txId: string
  readonly outputIndex: number
  readonly address: string
  readonly credential: string | undefined
  readonly coins: bigint
  readonly created: PeerBlock
  spent?: { readonly block: PeerBlock; readonly txId: string; readonly inputIndex: number }
}

type Bound = { readonly slot: bigint; readonly hash?: string }

class BadRequest extends Error {}

export class KupoPeer {
  /** Patterns Kupo was started with (`--match`). */
  patterns: string[] = ['*']
  /** Blocks at the chain's tip that Kupo has not indexed yet. */
  lag = 0
  /** Every request's path and query, in order. */
  readonly requests: string[] = []
  private readonly faults: { readonly path: RegExp; readonly fault: KupoFault }[] = []
  private readonly decoded = new Map<string, ReturnType<typeof decodeTransaction>>()
  /** The matches of the indexed chain as last computed, while its tip and length stay. */
  private cached: { readonly tip: string; readonly length: number; readonly matches: Match[] } | undefined
  private readonly sockets = new Set<Socket>()
  private server: Server | undefined
  private port = 0

  private constructor(private readonly chain: () => readonly PeerBlock[]) {}

  static async start(chain: () => readonly PeerBlock[]): Promise<KupoPeer> {
    const peer = new KupoPeer(chain)
    await peer.listen()
    return peer
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** The next `times` requests whose path matches `path` meet `fault`. */
  fault(path: RegExp, fault: KupoFault, times = 1): void {
    for (let i = 0; i < times; i += 1) this.faults.push({ path, fault })
  }

  requestsTo(path: RegExp): string[] {
    return this.requests.filter((r) => path.test(r))
  }

  /** Refuses connections (as a stopped Kupo) until `restart()`. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
    this.server = undefined
  }

  restart(): Promise<void> {
    return this.listen(this.port)
  }

  close(): Promise<void> {
    return this.stop()
  }

  private listen(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.serve(req, res))
    server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
    this.server = server
    return new Promise((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port
        resolve()
      })
    )
  }

  private indexed(): readonly PeerBlock[] {
    const chain = this.chain()
    return chain.slice(0, Math.max(0, chain.length - this.lag))
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://kupo')
    const where = decodeURIComponent(url.pathname) + url.search
    this.requests.push(where)
    const i = this.faults.findIndex((f) => f.path.test(where))
    if (i >= 0) {
      const { fault } = this.faults.splice(i, 1)[0]!
      if (fault.kind === 'drop') return void req.socket.destroy()
      if (fault.kind === 'status') return void res.writeHead(fault.status).end(fault.body ?? '')
      await new Promise((resolve) => setTimeout(resolve, fault.ms))
    }
    const blocks = this.indexed()
    const tip = blocks[blocks.length - 1]
    const headers: Record<string, string> = { 'content-type': 'application/json;charset=utf-8' }
    if (tip !== undefined) {
      headers['x-most-recent-checkpoint'] = tip.slot.toString()
      headers['etag'] = tip.id
    }
    try {
      const body = this.answer(url, blocks)
      if (body === undefined) return void res.writeHead(404, headers).end()
      res.writeHead(200, headers).end(stringifyJson(body))
    } catch (e) {
      if (!(e instanceof BadRequest)) throw e
      res.writeHead(400, headers).end(stringifyJson({ hint: e.message }))
    }
  }

  private answer(url: URL, blocks: readonly PeerBlock[]): JsonValue | undefined {
    const path = decodeURIComponent(url.pathname)
    const q = url.searchParams
    if (path === '/checkpoints') {
      // The most recent first, then a sparser sample, as Kupo does.
      const sample: JsonValue[] = []
      for (let back = 0; back < blocks.length; back = back === 0 ? 1 : back * 2) {
        sample.push(pointJson(blocks[blocks.length - 1 - back]!))
      }
      return sample
    }
    const checkpoint = /^\/checkpoints\/(\d+)$/.exec(path)
    if (checkpoint !== null) {
      const slot = BigInt(checkpoint[1]!)
      const found = atOrBefore(blocks, slot)
      return found === undefined || (q.has('strict') && found.slot !== slot) ? null : pointJson(found)
    }
    if (path === '/patterns') return [...this.patterns]
    const including = /^\/patterns\/(.+)$/.exec(path)
    if (including !== null) return this.patterns.filter((p) => includes(p, including[1]!))
    const matches = /^\/matches\/(.+)$/.exec(path)
    if (matches !== null) return this.matches(matches[1]!, q, blocks)
    return undefined
  }

  private matches(pattern: string, q: URLSearchParams, blocks: readonly PeerBlock[]): JsonValue {
    const credential = credentialOf(pattern)
    const lower = ['created_after', 'spent_after'].filter((k) => q.has(k))
    const upper = ['created_before', 'spent_before'].filter((k) => q.has(k))
    if (lower.length > 1 || upper.length > 1) throw new BadRequest('Invalid or incompatible filters.')
    const bound = (key: string): Bound | undefined => {
      const text = q.get(key)
      if (text === null) return undefined
      const m = /^(\d+)(?:\.([0-9a-f]{64}))?$/.exec(text)
      if (m === null) throw new BadRequest(`Invalid ${key}.`)
      const slot = BigInt(m[1]!)
      if (m[2] !== undefined && !blocks.some((b) => b.slot === slot && b.id === m[2])) {
        throw new BadRequest(`The point ${text} does not exist.`)
      }
      return { slot }
    }
    const createdAfter = bound('created_after')
    const createdBefore = bound('created_before')
    const spentAfter = bound('spent_after')
    const spentBefore = bound('spent_before')
    let all = this.allMatches(blocks).filter((m) => credential === '*' || m.credential === credential)
    if (q.has('spent') || spentAfter !== undefined || spentBefore !== undefined) all = all.filter((m) => m.spent)
    if (q.has('unspent')) all = all.filter((m) => m.spent === undefined)
    all = all.filter(
      (m) =>
        (createdAfter === undefined || m.created.slot >= createdAfter.slot) &&
        (createdBefore === undefined || m.created.slot <= createdBefore.slot) &&
        (spentAfter === undefined || (m.spent !== undefined && m.spent.block.slot >= spentAfter.slot)) &&
        (spentBefore === undefined || (m.spent !== undefined && m.spent.block.slot <= spentBefore.slot))
    )
    const ordered = q.get('order') === 'oldest_first' ? all : [...all].reverse()
    return ordered.map(matchJson)
  }

  /** Every output of the indexed blocks, in chain order, with what spent it. */
  private allMatches(blocks: readonly PeerBlock[]): Match[] {
    const tip = blocks[blocks.length - 1]?.id ?? ''
    if (this.cached?.tip === tip && this.cached.length === blocks.length) return this.cached.matches
    const all: Match[] = []
    const byRef = new Map<string, Match>()
    for (const block of blocks) {
      for (const [txIndex, tx] of (block.txs ?? []).entries()) {
        const decoded = this.decode(tx.id, tx.cbor)
        for (const [inputIndex, input] of decoded.body.inputs.entries()) {
          const spent = byRef.get(`${input.txId}#${input.index}`)
          if (spent !== undefined) spent.spent = { block, txId: tx.id, inputIndex }
        }
        for (const [outputIndex, output] of decoded.body.outputs.entries()) {
          const match: Match = {
            txIndex,
            txId: tx.id,
            outputIndex,
            address: output.address.text,
            credential: output.address.payment?.hash,
            coins: output.value.coin,
            created: block
          }
          all.push(match)
          byRef.set(`${tx.id}#${outputIndex}`, match)
        }
      }
    }
    this.cached = { tip, length: blocks.length, matches: all }
    return all
  }

  private decode(id: string, cbor: string): ReturnType<typeof decodeTransaction> {
    let decoded = this.decoded.get(id)
    if (decoded === undefined) {
      decoded = decodeTransaction(hexToBytes(cbor))
      this.decoded.set(id, decoded)
    }
    return decoded
  }
}

/** The last block at or before `slot` (blocks are in slot order). */
function atOrBefore(blocks: readonly PeerBlock[], slot: bigint): PeerBlock | undefined {
  let low = 0
  let high = blocks.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (blocks[mid]!.slot <= slot) low = mid + 1
    else high = mid
  }
  return blocks[low - 1]
}

/** The payment credential an address pattern names, or '*' for any address. */
function credentialOf(pattern: string): string {
  if (pattern === '*' || pattern === '*/*') return '*'
  const m = /^([0-9a-f]{56})\/\*$/.exec(pattern)
  if (m === null) throw new BadRequest('Invalid pattern: this peer knows `*`, `*/*` and `{credential}/*`.')
  return m[1]!
}

/** Whether every result of `pattern` is a result of `configured`. */
function includes(configured: string, pattern: string): boolean {
  if (configured === '*' || configured === '*/*') return true
  return configured === pattern
}

function pointJson(block: PeerBlock): JsonObject {
  return { slot_no: block.slot, header_hash: block.id }
}

function matchJson(m: Match): JsonValue {
  return {
    transaction_index: BigInt(m.txIndex),
    transaction_id: m.txId,
    output_index: BigInt(m.outputIndex),
    address: m.address,
    value: { coins: m.coins, assets: {} },
    datum_hash: null,
    script_hash: null,
    created_at: pointJson(m.created),
    spent_at:
      m.spent === undefined
        ? null
        : {
            ...pointJson(m.spent.block),
            transaction_id: m.spent.txId,
            input_index: BigInt(m.spent.inputIndex),
            redeemer: null
          }
  }
}
