/**
 * A local Ogmios v6 peer for tests: a WebSocket server on 127.0.0.1 that speaks JSON-RPC 2.0 as Ogmios does
 * (answers carry `jsonrpc`, `method`, the request's `id`, and `result` or `error: { code, message, data }`),
 * with lossless numbers both ways.
 *
 * Scriptable: the ledger state (protocol parameters, era summaries, UTxOs, genesis), a chain that grows
 * (`addBlock`) and rolls back (`rollBack`) under each connection's chain-sync cursor, a mempool with Ogmios'
 * snapshot semantics, and faults per method (`fault`: hang, drop the connection, answer raw text or a given
 * answer, hold the answer until released or discarded). `stop()` refuses connections until `restart()`.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import {
  isJsonObject,
  parseJson,
  stringifyJson,
  type JsonObject,
  type JsonValue
} from '../../../src/core/json/lossless'
import { decodeTransaction } from '../../../src/core/cardano/tx'
import { bytesToHex } from '../../../src/core/bytes'
import {
  blockJson,
  ERA_SUMMARIES,
  genesis,
  MAINNET_START,
  PARAMS,
  utxoFixtures,
  type BlockTx,
  type PeerUtxo
} from './fixtures'

export interface RpcFault {
  readonly code: number
  readonly message: string
  readonly data?: JsonValue
}

export type Answer = { readonly result: JsonValue } | { readonly error: RpcFault }

/** What the peer does with a request instead of (or before) its normal answer. */
export type Fault =
  | { readonly kind: 'hang' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'raw'; readonly text: string | ((id: JsonValue) => string) }
  | { readonly kind: 'answer'; readonly answer: Answer }
  /** Kept unanswered until `release(method)`. */
  | { readonly kind: 'hold' }

export interface PeerBlock {
  readonly slot: bigint
  readonly height: bigint
  readonly id: string
  readonly ancestor: string
  readonly txIds: readonly string[]
  /** Real transactions, when the block was made of them (`addTxBlock`). */
  readonly txs?: readonly BlockTx[]
}

type Point = { readonly slot: bigint; readonly id: string } | 'origin'

interface Request {
  readonly method: string
  readonly params: JsonObject
  readonly id: JsonValue
}

/** One client connection: its chain-sync cursor and its mempool snapshot. */
class Session {
  /** Index in the chain of the last block delivered; -1 is origin; undefined before `findIntersection`. */
  cursor: number | undefined
  /** A rollback to announce with the next `nextBlock`. */
  rollBackTo: Point | undefined
  /** The id of a `nextBlock` waiting for a block. */
  parkedNext: JsonValue | undefined
  snapshot: ReadonlySet<string> | undefined
  /** The id of an `acquireMempool` waiting for the mempool to change. */
  parkedAcquire: JsonValue | undefined

  constructor(readonly socket: WebSocket) {}
}

const GENESIS_HASH = 'f0'.repeat(32)

function blockTx(cbor: Uint8Array): BlockTx {
  const decoded = decodeTransaction(cbor)
  return { id: decoded.id, cbor: bytesToHex(cbor), inputs: decoded.body.inputs }
}

export class OgmiosPeer {
  params: JsonValue = PARAMS
  eraSummaries: JsonValue = ERA_SUMMARIES
  startTime: JsonValue = MAINNET_START
  genesis: JsonValue = genesis(1n, 'testnet')
  utxos: PeerUtxo[] = utxoFixtures()
  evaluation: Answer = {
    result: [{ validator: { purpose: 'spend', index: 0n }, budget: { memory: 1700n, cpu: 476468n } }]
  }
  /** How a submission is answered; by default accepted, with a stand-in id (sha-256 of the bytes). */
  onSubmit: (cborHex: string) => Answer = (cborHex) => ({
    result: { transaction: { id: createHash('sha256').update(Buffer.from(cborHex, 'hex')).digest('hex') } }
  })
  readonly chain: PeerBlock[] = []
  /** Whether blocks carry their transactions' bytes (Ogmios' --include-transaction-cbor). */
  includeTransactionCbor = true
  readonly mempool = new Set<string>()
  /** Every request received, in order. */
  readonly requests: Request[] = []
  private readonly sessions = new Set<Session>()
  private readonly faults = new Map<string, Fault[]>()
  private readonly held: { readonly session: Session; readonly request: Request }[] = []
  private idleWaiters: { readonly followers: number; readonly resolve: () => void }[] = []
  private server: Server | undefined
  private wss: WebSocketServer | undefined
  private port = 0

  static async start(): Promise<OgmiosPeer> {
    const peer = new OgmiosPeer()
    for (let i = 0; i < 3; i += 1) peer.addBlock([])
    await peer.listen()
    return peer
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`
  }

  get connections(): number {
    return this.sessions.size
  }

  /** The next `times` requests of `method` meet `fault` instead of the normal answer. */
  fault(method: string, fault: Fault, times = 1): void {
    const queue = this.faults.get(method) ?? []
    for (let i = 0; i < times; i += 1) queue.push(fault)
    this.faults.set(method, queue)
  }

  /** Methods of the requests held by a `hold` fault, oldest first. */
  get holding(): string[] {
    return this.held.map((h) => h.request.method)
  }

  /** Answers the oldest held request of `method` normally. */
  release(method: string): void {
    const index = this.held.findIndex((h) => h.request.method === method)
    if (index < 0) throw new Error(`no ${method} request is held`)
    const [{ session, request }] = this.held.splice(index, 1) as [{ session: Session; request: Request }]
    this.handle(session, request)
  }

  /** Forgets the oldest held request of `method` without answering it, as a node that never got round to it. */
  discard(method: string): void {
    const index = this.held.findIndex((h) => h.request.method === method)
    if (index < 0) throw new Error(`no ${method} request is held`)
    this.held.splice(index, 1)
  }

  requestsOf(method: string): Request[] {
    return this.requests.filter((r) => r.method === method)
  }

  /** Adds a transaction to the mempool (as if submitted elsewhere). */
  addToMempool(txId: string): void {
    this.mempool.add(txId)
    this.mempoolChanged()
  }

  /** Appends a block holding these real transactions, `slots` after the last one. */
  addTxBlock(txs: readonly Uint8Array[], slots = 20n): PeerBlock {
    const held = txs.map(blockTx)
    return this.addBlock(
      held.map((tx) => tx.id),
      held,
      slots
    )
  }

  /** Appends a block with this slot, height and id (another chain's block) holding these transactions. */
  addBlockAt(
    at: { readonly slot: bigint; readonly height: bigint; readonly id: string },
    txs: readonly Uint8Array[]
  ): PeerBlock {
    const held = txs.map(blockTx)
    const block: PeerBlock = {
      ...at,
      ancestor: this.chain[this.chain.length - 1]?.id ?? GENESIS_HASH,
      txIds: held.map((tx) => tx.id),
      txs: held
    }
    this.chain.push(block)
    for (const session of this.sessions) this.serveNext(session)
    return block
  }

  /** Appends a block holding `txIds` (they leave the mempool) and serves it to waiting followers. */
  addBlock(txIds: readonly string[], txs?: readonly BlockTx[], slots = 20n): PeerBlock {
    const last = this.chain[this.chain.length - 1]
    const block: PeerBlock = {
      slot: last === undefined ? 1000n : last.slot + slots,
      height: last === undefined ? 1n : last.height + 1n,
      id: randomBytes(32).toString('hex'),
      ancestor: last?.id ?? GENESIS_HASH,
      txIds: [...txIds],
      ...(txs === undefined ? {} : { txs })
    }
    this.chain.push(block)
    const left = txIds.filter((id) => this.mempool.delete(id))
    if (left.length > 0) this.mempoolChanged()
    for (const session of this.sessions) this.serveNext(session)
    return block
  }

  /** Drops the last `blocks` blocks; followers past the new tip are told to roll back. */
  rollBack(blocks: number): void {
    this.chain.splice(this.chain.length - blocks)
    const keep = this.chain.length - 1
    for (const session of this.sessions) {
      if (session.cursor !== undefined && session.cursor > keep) {
        session.cursor = keep
        session.rollBackTo = this.pointAt(keep)
        this.serveNext(session)
      }
    }
  }

  /**
   * Resolves once at least `followers` chain-sync clients are connected and every one waits at the tip with
   * nothing left to hear: a client asks for the next block only after handling the previous answer.
   */
  followersIdle(followers = 1): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push({ followers, resolve })
      this.checkIdle()
    })
  }

  /** Stops reading from every client (no answers, no pongs), as a peer that hangs without closing. */
  freeze(): void {
    for (const session of this.sessions) session.socket.pause()
  }

  /** Closes every client connection abruptly (the server stays up). */
  dropConnections(): void {
    for (const session of this.sessions) session.socket.terminate()
    this.sessions.clear()
  }

  /** Stops listening and drops every connection: clients are refused until `restart()`. */
  async stop(): Promise<void> {
    this.dropConnections()
    const server = this.server
    this.server = undefined
    this.wss?.close()
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /** Listens again, on the same port. */
  async restart(): Promise<void> {
    await this.listen(this.port)
  }

  async close(): Promise<void> {
    await this.stop()
  }

  private async listen(port = 0): Promise<void> {
    const server = createServer()
    const wss = new WebSocketServer({ server })
    wss.on('connection', (socket) => this.accept(socket))
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
    this.port = (server.address() as AddressInfo).port
    this.server = server
    this.wss = wss
  }

  private accept(socket: WebSocket): void {
    const session = new Session(socket)
    this.sessions.add(session)
    socket.on('error', () => undefined)
    socket.on('close', () => {
      this.sessions.delete(session)
      this.checkIdle()
    })
    socket.on('message', (data) => this.receive(session, String(data)))
  }

  private receive(session: Session, text: string): void {
    let message: JsonValue
    try {
      message = parseJson(text)
    } catch {
      this.send(session, { jsonrpc: '2.0', error: { code: -32700n, message: 'Parse error' }, id: null })
      return
    }
    if (!isJsonObject(message) || typeof message['method'] !== 'string') {
      this.send(session, { jsonrpc: '2.0', error: { code: -32600n, message: 'Invalid request' }, id: null })
      return
    }
    const params = message['params']
    const request: Request = {
      method: message['method'],
      params: params !== undefined && isJsonObject(params) ? params : {},
      id: message['id'] ?? null
    }
    this.requests.push(request)
    const fault = this.faults.get(request.method)?.shift()
    if (fault === undefined) this.handle(session, request)
    else this.misbehave(session, request, fault)
  }

  private misbehave(session: Session, request: Request, fault: Fault): void {
    switch (fault.kind) {
      case 'hang':
        return
      case 'drop':
        session.socket.terminate()
        this.sessions.delete(session)
        return
      case 'raw':
        session.socket.send(typeof fault.text === 'string' ? fault.text : fault.text(request.id))
        return
      case 'answer':
        this.answer(session, request, fault.answer)
        return
      case 'hold':
        this.held.push({ session, request })
        return
    }
  }

  private handle(session: Session, request: Request): void {
    const answer = this.answerTo(session, request)
    if (answer !== undefined) this.answer(session, request, answer)
  }

  /** The normal answer, or undefined when the answer comes later (a parked request). */
  private answerTo(session: Session, request: Request): Answer | undefined {
    const p = request.params
    switch (request.method) {
      case 'queryLedgerState/protocolParameters':
        return { result: this.params }
      case 'queryLedgerState/eraSummaries':
        return { result: this.eraSummaries }
      case 'queryNetwork/startTime':
        return { result: this.startTime }
      case 'queryNetwork/genesisConfiguration':
        return p['era'] === 'shelley'
          ? { result: this.genesis }
          : { error: { code: -32602, message: 'Invalid genesis era' } }
      case 'queryNetwork/tip':
      case 'queryLedgerState/tip':
        return { result: pointJson(this.pointAt(this.chain.length - 1)) }
      case 'queryNetwork/blockHeight':
        return { result: this.chain[this.chain.length - 1]?.height ?? 'origin' }
      case 'queryLedgerState/utxo':
        return { result: this.utxoQuery(p) }
      case 'submitTransaction':
        return this.submit(p)
      case 'evaluateTransaction':
        return typeof txCbor(p) === 'string' ? this.evaluation : deserialisationFailure()
      case 'findIntersection':
        return this.findIntersection(session, p)
      case 'nextBlock':
        session.cursor ??= -1
        session.parkedNext = request.id
        this.serveNext(session)
        return undefined
      case 'acquireMempool':
        if (session.snapshot === undefined) return this.acquire(session)
        session.parkedAcquire = request.id
        return undefined
      case 'hasTransaction':
        if (session.snapshot === undefined) return mustAcquireFirst()
        return { result: typeof p['id'] === 'string' && session.snapshot.has(p['id']) }
      case 'releaseMempool':
        if (session.snapshot === undefined) return mustAcquireFirst()
        session.snapshot = undefined
        return { result: { released: 'mempool' } }
      default:
        return { error: { code: -32601, message: 'Method not found' } }
    }
  }

  private utxoQuery(p: JsonObject): JsonValue {
    const addresses = p['addresses']
    const refs = p['outputReferences']
    if (Array.isArray(addresses)) return this.utxos.filter((u) => addresses.includes(u['address'] as JsonValue))
    if (Array.isArray(refs)) {
      const wanted = new Set(refs.map((r) => refKey(r)))
      return this.utxos.filter((u) => wanted.has(refKey(u)))
    }
    return this.utxos
  }

  private submit(p: JsonObject): Answer {
    const cbor = txCbor(p)
    if (cbor === undefined) return deserialisationFailure()
    const answer = this.onSubmit(cbor)
    if ('result' in answer && isJsonObject(answer.result)) {
      const tx = answer.result['transaction']
      if (tx !== undefined && isJsonObject(tx) && typeof tx['id'] === 'string') this.addToMempool(tx['id'])
    }
    return answer
  }

  private findIntersection(session: Session, p: JsonObject): Answer {
    const points = Array.isArray(p['points']) ? p['points'] : []
    for (const point of points) {
      const index = point === 'origin' ? -1 : this.indexOf(point)
      if (index === undefined) continue
      session.cursor = index
      session.rollBackTo = this.pointAt(index)
      session.parkedNext = undefined
      return { result: { intersection: pointJson(this.pointAt(index)), tip: this.tipJson() } }
    }
    return { error: { code: 1000, message: 'No intersection found.', data: { tip: this.tipJson() } } }
  }

  /** Answers a parked `nextBlock` if there is something to tell: a rollback, else the next block. */
  private serveNext(session: Session): void {
    const id = session.parkedNext
    if (id === undefined || session.cursor === undefined) return
    let result: JsonValue
    if (session.rollBackTo !== undefined) {
      result = { direction: 'backward', point: pointJson(session.rollBackTo), tip: this.tipJson() }
      session.rollBackTo = undefined
    } else {
      const block = this.chain[session.cursor + 1]
      if (block === undefined) {
        this.checkIdle()
        return
      }
      session.cursor += 1
      result = { direction: 'forward', block: blockJson(block, this.includeTransactionCbor), tip: this.tipJson() }
    }
    session.parkedNext = undefined
    this.send(session, { jsonrpc: '2.0', method: 'nextBlock', result, id })
  }

  private acquire(session: Session): Answer {
    session.snapshot = new Set(this.mempool)
    return { result: { acquired: 'mempool', slot: this.chain[this.chain.length - 1]?.slot ?? 0n } }
  }

  private mempoolChanged(): void {
    for (const session of this.sessions) {
      const id = session.parkedAcquire
      if (id === undefined) continue
      session.parkedAcquire = undefined
      this.answer(session, { method: 'acquireMempool', params: {}, id }, this.acquire(session))
    }
  }

  private checkIdle(): void {
    const followers = [...this.sessions].filter((s) => s.cursor !== undefined)
    const idle = followers.every(
      (s) => s.parkedNext !== undefined && s.rollBackTo === undefined && s.cursor === this.chain.length - 1
    )
    if (!idle) return
    const ready = this.idleWaiters.filter((w) => followers.length >= w.followers)
    this.idleWaiters = this.idleWaiters.filter((w) => followers.length < w.followers)
    for (const waiter of ready) waiter.resolve()
  }

  private indexOf(point: JsonValue): number | undefined {
    if (!isJsonObject(point)) return undefined
    const index = this.chain.findIndex((b) => b.slot === point['slot'] && b.id === point['id'])
    return index < 0 ? undefined : index
  }

  private pointAt(index: number): Point {
    const block = this.chain[index]
    return block === undefined ? 'origin' : { slot: block.slot, id: block.id }
  }

  private tipJson(): JsonValue {
    const block = this.chain[this.chain.length - 1]
    return block === undefined ? 'origin' : { slot: block.slot, id: block.id, height: block.height }
  }

  private answer(session: Session, request: Request, answer: Answer): void {
    const outcome: JsonObject =
      'result' in answer
        ? { result: answer.result }
        : { error: { ...answer.error, code: BigInt(answer.error.code) } as JsonObject }
    this.send(session, { jsonrpc: '2.0', method: request.method, ...outcome, id: request.id })
  }

  private send(session: Session, message: JsonObject): void {
    if (session.socket.readyState === session.socket.OPEN) session.socket.send(stringifyJson(message))
  }
}

function pointJson(point: Point): JsonValue {
  return point === 'origin' ? 'origin' : { slot: point.slot, id: point.id }
}

function refKey(ref: JsonValue): string {
  if (!isJsonObject(ref)) return ''
  const tx = ref['transaction']
  return `${tx !== undefined && isJsonObject(tx) ? String(tx['id']) : ''}#${String(ref['index'])}`
}

function txCbor(p: JsonObject): string | undefined {
  const tx = p['transaction']
  const cbor = tx !== undefined && isJsonObject(tx) ? tx['cbor'] : undefined
  return typeof cbor === 'string' && /^([0-9a-f]{2})+$/.test(cbor) ? cbor : undefined
}

function mustAcquireFirst(): Answer {
  return { error: { code: 4000, message: "The mempool hasn't been acquired; you must acquire it first." } }
}

/** Ogmios' answer to bytes that decode as no era's transaction (-32602, a reason per era). */
export function deserialisationFailure(): Answer {
  const reason = 'DeserialiseFailure 0 "expected list len or indef"'
  return {
    error: {
      code: -32602,
      message:
        "Invalid transaction; It looks like the given transaction wasn't well-formed. Note that I try to decode the transaction in every possible era and it was malformed in ALL eras. Yet, I can't pinpoint the exact issue for I do not know in which era / format you intended the transaction to be. The 'data' field, therefore, contains errors for each era.",
      data: { shelley: reason, allegra: reason, mary: reason, alonzo: reason, babbage: reason, conway: reason }
    }
  }
}
