/**
 * A JSON-RPC 2.0 client over one WebSocket to Ogmios, that reconnects by itself.
 *
 * - Every request has a deadline that also covers waiting for a connection; a request made while disconnected
 *   starts a connection attempt at once (skipping the back-off) and fails with `Unavailable` if that attempt
 *   fails, so a dead server is reported fast and a restarted one is picked up by the next call.
 * - When the socket drops, every pending request fails with `Unavailable` and reconnection starts, with
 *   exponential back-off, until `close()`.
 * - Frames are parsed losslessly. A frame that is not JSON-RPC at all fails every pending request with
 *   `BadResponse` and drops the connection: after garbage we cannot trust which answer belongs to whom.
 * - A heartbeat (WebSocket ping) detects a peer that vanished without closing the TCP connection.
 * - Answers are matched by id, never by order: Ogmios runs its mini-protocols concurrently.
 */
import type { Ogmios } from '@cardano-ogmios/schema'
import WebSocket from 'ws'
import { isJsonObject, parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../core/json/lossless'
import { ChainError } from '../provider'

/** Method names of Ogmios v6, from the schema. */
export type MethodName =
  NonNullable<Ogmios[keyof Ogmios]> extends infer M ? (M extends { method: infer N } ? N : never) : never

export interface RpcClientOptions {
  /** `ws://host:1337` or `wss://…`. */
  readonly url: string
  readonly requestTimeoutMs: number
  readonly connectTimeoutMs: number
  /** First reconnection delay; it doubles after each failed attempt up to `maxReconnectDelayMs`. */
  readonly reconnectDelayMs: number
  readonly maxReconnectDelayMs: number
  /** Ping interval; a peer that has not answered the previous ping by the next one is disconnected. */
  readonly heartbeatMs: number | false
  /** Largest frame accepted (UTxO answers for busy addresses are large). */
  readonly maxMessageBytes: number
}

/** A JSON-RPC error answer; the caller maps it to a `ChainError` knowing which method it was. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: JsonValue | undefined
  ) {
    super(`${method} failed with ${code}: ${rpcMessage}`)
    this.name = 'RpcError'
  }
}

interface Pending {
  readonly method: string
  readonly resolve: (result: JsonValue) => void
  readonly reject: (error: Error) => void
}

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'connecting'; readonly attempt: Promise<WebSocket> }
  | { readonly kind: 'open'; readonly socket: WebSocket }
  | { readonly kind: 'waiting'; readonly timer: ReturnType<typeof setTimeout> }
  | { readonly kind: 'closed' }

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

export class RpcClient {
  private state: State = { kind: 'idle' }
  private readonly pending = new Map<string, Pending>()
  private nextId = 0
  private failedAttempts = 0
  private everOpened = false
  private heartbeat: ReturnType<typeof setInterval> | undefined
  /** Whether the peer showed life (a frame or a pong) since the last ping. */
  private alive = true
  private readonly openListeners = new Set<() => void>()
  private readonly closeListeners = new Set<() => void>()

  constructor(readonly options: RpcClientOptions) {}

  get isOpen(): boolean {
    return this.state.kind === 'open'
  }

  /** The first connection; rejects with `Unavailable` if it cannot be made. Later drops reconnect by themselves. */
  async connect(): Promise<void> {
    await this.ready()
  }

  /** Calls `listener` after each (re)connection; returns the unsubscribe function. */
  onOpen(listener: () => void): () => void {
    this.openListeners.add(listener)
    return () => this.openListeners.delete(listener)
  }

  /** Calls `listener` after each disconnection; returns the unsubscribe function. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener)
    return () => this.closeListeners.delete(listener)
  }

  /**
   * Sends one request and resolves with its `result`; rejects with `RpcError` for an `error` answer, or with
   * `ChainError` (`Unavailable`: no connection, dropped, deadline passed; `BadResponse`: malformed answer).
   */
  request(method: MethodName, params?: JsonValue, options: { readonly timeoutMs?: number } = {}): Promise<JsonValue> {
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs
    const id = `${method}:${++this.nextId}`
    return new Promise<JsonValue>((resolve, reject) => {
      let done = false
      const settle = (action: () => void): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        this.pending.delete(id)
        action()
      }
      const timer = setTimeout(
        () => settle(() => reject(this.unavailable(`no answer to ${method} within ${timeoutMs} ms`, { method }))),
        timeoutMs
      )
      this.ready().then(
        (socket) => {
          if (done) return
          if (this.state.kind === 'closed') {
            settle(() => reject(this.unavailable('the Ogmios client was closed', { method })))
            return
          }
          this.pending.set(id, {
            method,
            resolve: (result) => settle(() => resolve(result)),
            reject: (error) => settle(() => reject(error))
          })
          const envelope: JsonObject = { jsonrpc: '2.0', method, id }
          if (params !== undefined) envelope['params'] = params
          this.send(socket, stringifyJson(envelope), method, id)
        },
        (error: unknown) => settle(() => reject(error))
      )
    })
  }

  /** Drops the current connection (the session state is unknown after a timeout); reconnection follows. */
  reset(): void {
    if (this.state.kind !== 'open') return
    const socket = this.state.socket
    this.disconnected(socket, 'the connection to Ogmios was reset')
    socket.terminate()
  }

  /** Closes for good: pending and later requests fail with `Unavailable`. */
  async close(): Promise<void> {
    const previous = this.state
    this.state = { kind: 'closed' }
    this.stopHeartbeat()
    this.failAll(() => this.unavailable('the Ogmios client was closed'))
    if (previous.kind === 'waiting') clearTimeout(previous.timer)
    const socket =
      previous.kind === 'open'
        ? previous.socket
        : previous.kind === 'connecting'
          ? await previous.attempt.catch(() => undefined)
          : undefined
    if (socket !== undefined && socket.readyState !== WebSocket.CLOSED) {
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
      socket.terminate()
      await closed
    }
  }

  private send(socket: WebSocket, text: string, method: string, id: string): void {
    const fail = (e: unknown): void =>
      this.pending.get(id)?.reject(this.unavailable(`could not send ${method}: ${errorText(e)}`, { method }))
    try {
      socket.send(text, (e) => {
        if (e !== undefined && e !== null) fail(e)
      })
    } catch (e) {
      fail(e)
    }
  }

  /** The open socket, connecting first if needed. */
  private ready(): Promise<WebSocket> {
    const state = this.state
    switch (state.kind) {
      case 'open':
        if (state.socket.readyState === WebSocket.OPEN) return Promise.resolve(state.socket)
        // Already closing (the peer began it; the 'close' event is still to come): reconnect rather than send.
        this.disconnected(state.socket, 'the connection to Ogmios is closing')
        return this.ready()
      case 'connecting':
        return state.attempt
      case 'closed':
        return Promise.reject(this.unavailable('the Ogmios client was closed'))
      case 'waiting':
        clearTimeout(state.timer)
        return this.attempt()
      case 'idle':
        return this.attempt()
    }
  }

  private attempt(): Promise<WebSocket> {
    const attempt = this.open()
    this.state = { kind: 'connecting', attempt }
    attempt.then(
      (socket) => this.opened(socket),
      () => this.attemptFailed()
    )
    return attempt
  }

  private open(): Promise<WebSocket> {
    return new Promise<WebSocket>((resolve, reject) => {
      let socket: WebSocket
      try {
        socket = new WebSocket(this.options.url, {
          handshakeTimeout: this.options.connectTimeoutMs,
          maxPayload: this.options.maxMessageBytes,
          perMessageDeflate: false
        })
      } catch (e) {
        reject(this.unavailable(`cannot connect to ${this.options.url}: ${errorText(e)}`))
        return
      }
      let failure = 'the connection closed during the handshake'
      const timer = setTimeout(() => {
        failure = `no connection within ${this.options.connectTimeoutMs} ms`
        socket.terminate()
      }, this.options.connectTimeoutMs)
      // ws reports connection failures as 'error' (then 'close'); without a listener they would crash the process.
      socket.on('error', (e) => {
        failure = errorText(e)
      })
      socket.once('open', () => {
        clearTimeout(timer)
        resolve(socket)
      })
      socket.once('close', () => {
        clearTimeout(timer)
        reject(this.unavailable(`cannot connect to ${this.options.url}: ${failure}`))
      })
    })
  }

  private opened(socket: WebSocket): void {
    if (this.state.kind === 'closed') return // close() terminates it
    this.state = { kind: 'open', socket }
    this.failedAttempts = 0
    this.everOpened = true
    socket.on('message', (data, isBinary) => {
      this.alive = true
      if (isBinary) this.protocolViolation('a binary frame')
      else this.receive(rawText(data))
    })
    socket.on('pong', () => {
      this.alive = true
    })
    socket.once('close', (code, reason) => {
      const text = reason.toString('utf8')
      this.disconnected(socket, `the connection to Ogmios closed (${code}${text === '' ? '' : ` ${text}`})`)
    })
    this.startHeartbeat(socket)
    for (const listener of this.openListeners) this.notify(listener)
  }

  private attemptFailed(): void {
    if (this.state.kind === 'closed') return
    this.failedAttempts += 1
    // Before the first success, the caller of `connect()` decides; afterwards we keep trying.
    if (this.everOpened) this.scheduleReconnect()
    else this.state = { kind: 'idle' }
  }

  /** The end of a connection, whoever ended it (once per socket): pending requests fail, reconnection starts. */
  private disconnected(socket: WebSocket, why: string): void {
    if (this.state.kind !== 'open' || this.state.socket !== socket) return
    this.stopHeartbeat()
    this.scheduleReconnect()
    this.failAll((method) => this.unavailable(why, { method }))
    for (const listener of this.closeListeners) this.notify(listener)
  }

  private scheduleReconnect(): void {
    const { reconnectDelayMs, maxReconnectDelayMs } = this.options
    const delay = Math.min(maxReconnectDelayMs, reconnectDelayMs * 2 ** Math.min(this.failedAttempts, 20))
    const timer = setTimeout(() => {
      if (this.state.kind === 'waiting' && this.state.timer === timer) this.attempt().catch(() => undefined)
    }, delay)
    timer.unref()
    this.state = { kind: 'waiting', timer }
  }

  private startHeartbeat(socket: WebSocket): void {
    this.stopHeartbeat()
    if (this.options.heartbeatMs === false) return
    this.alive = true
    this.heartbeat = setInterval(() => {
      if (!this.alive) {
        socket.terminate()
        return
      }
      this.alive = false
      socket.ping()
    }, this.options.heartbeatMs)
    this.heartbeat.unref()
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat)
    this.heartbeat = undefined
  }

  private receive(text: string): void {
    let message: JsonValue
    try {
      message = parseJson(text, { maxLength: this.options.maxMessageBytes })
    } catch (e) {
      this.protocolViolation(`text that is not JSON (${errorText(e)})`)
      return
    }
    if (!isJsonObject(message)) {
      this.protocolViolation('JSON that is not a JSON-RPC object')
      return
    }
    const id = message['id']
    // Answers without one of our ids (late answers after a timeout, id-less faults) have nobody waiting.
    const pending = typeof id === 'string' ? this.pending.get(id) : undefined
    if (pending === undefined) return
    if (message['jsonrpc'] !== '2.0') {
      pending.reject(this.badResponse(pending.method, 'an answer without "jsonrpc": "2.0"'))
    } else if (Object.hasOwn(message, 'error')) {
      pending.reject(this.rpcError(pending.method, message['error'] as JsonValue))
    } else if (Object.hasOwn(message, 'result')) {
      pending.resolve(message['result'] as JsonValue)
    } else {
      pending.reject(this.badResponse(pending.method, 'an answer with neither "result" nor "error"'))
    }
  }

  private rpcError(method: string, error: JsonValue): Error {
    if (!isJsonObject(error)) return this.badResponse(method, 'an "error" that is not an object')
    const code = error['code']
    const message = error['message']
    if (typeof code !== 'bigint' || code > BigInt(Number.MAX_SAFE_INTEGER) || code < BigInt(Number.MIN_SAFE_INTEGER)) {
      return this.badResponse(method, 'an "error" without an integer "code"')
    }
    return new RpcError(method, Number(code), typeof message === 'string' ? message : '', error['data'])
  }

  private protocolViolation(what: string): void {
    this.failAll((method) => this.badResponse(method, what))
    this.reset()
  }

  private failAll(error: (method: string) => Error): void {
    for (const pending of [...this.pending.values()]) pending.reject(error(pending.method))
  }

  private notify(listener: () => void): void {
    // A listener's failure must not break the client (or surface as an unhandled rejection).
    try {
      listener()
    } catch {
      /* listeners are internal and handle their own errors */
    }
  }

  private unavailable(reason: string, details: Record<string, unknown> = {}): ChainError {
    return new ChainError('Unavailable', reason, { url: this.options.url, ...details })
  }

  private badResponse(method: string, what: string): ChainError {
    return new ChainError('BadResponse', `Ogmios answered ${method} with ${what}`, { url: this.options.url, method })
  }
}
