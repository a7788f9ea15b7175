/**
 * How long a connection may take and how many may be open, so that clients without the token cannot hold the
 * server (or the process's file descriptors) away from those with it. Node checks its header and request
 * deadlines only every `connectionsCheckingInterval` (30 s by default): a connection that sent half a request
 * then stayed until the next check, up to a minute, whatever the deadlines said.
 *
 * Past `maxConnections`, Node closes new connections at once. Before that cap is reached, the oldest
 * connection that has not yet carried an admitted request (token or UI session) makes room for the new one:
 * a flood of idle or slow connections then pushes out only its own, and a client with the token still gets in.
 */
import type { ServerOptions as HttpServerOptions, Server } from 'node:http'
import type { Socket } from 'node:net'

export interface ConnectionLimits {
  /** The request line and headers must arrive within this; default 10 s (a local client sends them at once). */
  readonly headersTimeoutMs?: number
  /**
   * A request (headers and body) must arrive within this, and a connection may idle this long before its first
   * request passes the guard; default 30 s. An admitted request's answer may take longer.
   */
  readonly requestTimeoutMs?: number
  /** An idle kept-alive connection is closed after this; default 5 s. */
  readonly keepAliveTimeoutMs?: number
  /** Connections open at once; default 256. */
  readonly maxConnections?: number
}

const DEFAULT_HEADERS_TIMEOUT_MS = 10_000
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000
const DEFAULT_MAX_CONNECTIONS = 256
/** How often Node looks for connections past their deadlines: at most this late. */
const MAX_CHECK_INTERVAL_MS = 1000

/** The Fastify options these limits set. */
export function serverTimeouts(limits: ConnectionLimits): {
  readonly http: HttpServerOptions
  readonly requestTimeout: number
  readonly connectionTimeout: number
  readonly keepAliveTimeout: number
} {
  const requestTimeout = limits.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  // Node refuses a header deadline later than the request's.
  const headersTimeout = Math.min(limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout)
  return {
    http: {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, headersTimeout)
    },
    requestTimeout,
    connectionTimeout: requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS
  }
}

/** The cap on `server`'s connections; `admit` marks the connection of a request that passed the guard. */
export class ConnectionCap {
  /** Open connections in the order they came, each with whether it carried an admitted request. */
  private readonly open = new Map<Socket, boolean>()

  constructor(server: Server, limits: ConnectionLimits) {
    const max = limits.maxConnections ?? DEFAULT_MAX_CONNECTIONS
    server.maxConnections = max
    server.on('connection', (socket: Socket) => {
      this.open.set(socket, false)
      socket.once('close', () => this.open.delete(socket))
      if (this.open.size >= max) this.evictOneBesides(socket)
    })
  }

  admit(socket: Socket): void {
    if (this.open.has(socket)) this.open.set(socket, true)
  }

  private evictOneBesides(newest: Socket): void {
    for (const [socket, admitted] of this.open) {
      if (admitted || socket === newest) continue
      // Removed now, not on 'close': the count must drop before the next connection is accepted.
      this.open.delete(socket)
      socket.destroy()
      return
    }
  }
}
