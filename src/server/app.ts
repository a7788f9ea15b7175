/**
 * The HTTP server: Fastify with Runtime's wire format. Bodies are parsed losslessly (amounts above 2^53 stay
 * exact) and validated by the request schemas in ./requests, which also generate /openapi.json; every answer
 * carries Runtime's status headers; every error is `{message, errorCode, details}`; the guard runs before
 * any routing.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { JsonSyntaxError, parseJson, stringifyJson, type JsonValue } from '../core/json/lossless'
import type { MarloweService } from '../engine/service'
import { ConnectionCap, serverTimeouts, type ConnectionLimits } from './connections'
import { errorResponse, HttpError } from './errors'
import { registerDeskRoutes, type DeskHttpOptions } from './desk-routes'
import {
  checkHost,
  checkOrigin,
  checkOwnOrigin,
  checkToken,
  localPort,
  ownOrigins,
  splitTokenPrefix,
  type GuardOptions
} from './guard'
import { registerRoutes } from './routes'
import { registerTransferRoutes } from './transfer-routes'
import { statusHeaders } from './status-headers'
import { sessionIdOf } from './ui-sessions'

export interface ServerOptions extends GuardOptions, ConnectionLimits {
  readonly service: MarloweService
  /** Request bodies larger than this get a 413; default 2 MiB (a Marlowe contract can be large). */
  readonly bodyLimit?: number
  /** pino level; default 'warn' (quiet). Lines are JSON. */
  readonly logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug'
  /**
   * The desktop app's API (`POST /api/<call>`, for UI sessions only) and, with `uiDir`, its page under `/ui/`
   * (`serve --ui`).
   */
  readonly desk?: DeskHttpOptions
}

const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024
const PREFIX_TOKEN = Symbol('prefixToken')

type TaggedRequest = IncomingMessage & { [PREFIX_TOKEN]?: string }

/** Sends lossless JSON (bigints as JSON numbers) with the given status. */
export function sendJson(reply: FastifyReply, status: number, body: JsonValue): FastifyReply {
  return sendJsonText(reply, status, stringifyJson(body))
}

/** Sends JSON already written as text. */
export function sendJsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('application/json;charset=utf-8').send(text)
}

export function createServer(options: ServerOptions): FastifyInstance {
  /** Requests that passed the guard (Host, Origin, and the token or a UI session). */
  const admitted = new WeakSet<IncomingMessage>()
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    ...serverTimeouts(options),
    logger: { level: options.logLevel ?? 'warn' },
    return503OnClosing: true,
    // A URL Fastify cannot route (bad percent-encoding, an over-long id) gets the API's error shape too.
    frameworkErrors(error, _request, reply) {
      const status = error.statusCode === 414 ? 414 : 400
      void sendJson(reply, status, {
        message: error.message,
        errorCode: status === 414 ? 'URITooLong' : 'BadRequest',
        details: error.code
      })
    },
    // Malformed requests Node refuses before Fastify sees them (over-long headers, bad syntax, timeouts).
    clientErrorHandler(err: Error & { code?: string }, socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return
      const [status, reason, message] =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request did not arrive in time']
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? [431, 'Request Header Fields Too Large', 'The request line and headers are too large']
            : [400, 'Bad Request', 'The request is not valid HTTP']
      const body = stringifyJson({
        message,
        errorCode: status === 400 ? 'BadRequest' : reason.replace(/ /g, ''),
        details: err.code ?? null
      })
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json;charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
        )
      }
      socket.destroy(err)
    },
    rewriteUrl(req) {
      const { url, token } = splitTokenPrefix(req.url ?? '/')
      if (token !== undefined) (req as TaggedRequest)[PREFIX_TOKEN] = token
      return url
    }
  })

  const connections = new ConnectionCap(app.server, options)

  app.removeAllContentTypeParsers()
  app.addContentTypeParser(['application/json', 'text/json'], { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJson(body as string))
    } catch (e) {
      if (e instanceof JsonSyntaxError) {
        done(new HttpError(400, 'RequestBodyParseError', `Error in $: ${e.message}`, 'JSON'), undefined)
      } else done(e as Error, undefined)
    }
  })
  app.addContentTypeParser('*', (_req, _payload, done) => {
    done(new HttpError(415, 'UnsupportedMediaType', 'Send the body as application/json'), undefined)
  })

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const port = localPort(request)
    checkHost(request.headers.host, port)
    // The desk's own page calls the API from this server's origin.
    checkOrigin(request.headers.origin, options.desk === undefined ? options : withOwnOrigins(options, port))
    const origin = request.headers.origin
    if (origin !== undefined) {
      // Set before the token check, so that a page of an allowed origin can read a 401 too.
      reply.header('Access-Control-Allow-Origin', origin)
      reply.header('Vary', 'Origin')
      reply.header('Access-Control-Expose-Headers', '*')
    }
    // A browser sends a CORS preflight without the Authorization header it is asking permission for: the
    // preflight itself reveals and changes nothing, and the request that follows carries the token.
    const preflight =
      request.method === 'OPTIONS' &&
      origin !== undefined &&
      request.headers['access-control-request-method'] !== undefined
    if (preflight) return
    // Decided by the route matched, not by the URL's text, which has more than one spelling.
    switch (request.routeOptions.config.access) {
      case 'ui-file':
        // Public: the page gets its secret from its URL's fragment, which is never sent.
        return
      case 'ui-session':
        checkOwnOrigin(origin, port)
        return
      case 'desk':
        checkOwnOrigin(origin, port)
        checkUiSession(options.desk, request.headers.cookie, port)
        break
      case undefined:
        checkToken(options, request.headers.authorization, (request.raw as TaggedRequest)[PREFIX_TOKEN])
    }
    admitted.add(request.raw)
    connections.admit(request.raw.socket)
    // Node's requestTimeout still bounds the request's arrival; the answer (a build waiting its turn under load) may
    // take longer than the socket's idle deadline, which would cut it off unanswered. Node re-arms keepAliveTimeout
    // once the answer is sent, as it already does for every request after a connection's first.
    request.raw.socket.setTimeout(0)
  })

  app.addHook('onSend', async (request, reply, payload) => {
    // Only callers that passed the guard learn the node's tip and network.
    if (admitted.has(request.raw) && (reply.statusCode < 500 || reply.statusCode === 503)) {
      try {
        for (const [name, value] of Object.entries(await statusHeaders(options.service))) reply.header(name, value)
      } catch {
        // The node is unreachable: the answer goes out without tips rather than not at all.
      }
    }
    return payload
  })

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const fastifyStatus = error.statusCode
    if (!(error instanceof HttpError) && fastifyStatus !== undefined && fastifyStatus < 500) {
      const code = error.code
      const errorCode =
        fastifyStatus === 413 ? 'PayloadTooLarge' : fastifyStatus === 415 ? 'UnsupportedMediaType' : 'BadRequest'
      return sendJson(reply, fastifyStatus, { message: error.message, errorCode, details: code ?? null })
    }
    const { status, body } = errorResponse(error)
    if (status >= 500 && status !== 503) request.log.error({ err: error }, 'request failed')
    // A full or failing disk is the operator's to fix: say so in the log too.
    if (body.errorCode === 'StorageUnavailable') request.log.warn({ err: error }, 'the store refused a write')
    return sendJson(reply, status, body)
  })

  app.setNotFoundHandler((request, reply) =>
    sendJson(reply, 404, {
      message: `No route for ${request.method} ${request.url}`,
      errorCode: 'NotFound',
      details: null
    })
  )

  app.options('*', (request, reply) => {
    if (request.headers.origin === undefined)
      return sendJson(reply, 404, { message: 'No route', errorCode: 'NotFound', details: null })
    return reply
      .code(204)
      .header('Access-Control-Allow-Methods', 'GET, POST, PUT, OPTIONS')
      .header(
        'Access-Control-Allow-Headers',
        'Content-Type, Range, Accept, Authorization, X-Change-Address, X-Address, X-Collateral-UTxO, X-Stake-Address'
      )
      .send()
  })

  registerRoutes(app, options.service)
  registerTransferRoutes(app, options.service)
  if (options.desk !== undefined) registerDeskRoutes(app, options.desk)
  return app
}

function withOwnOrigins(options: GuardOptions, port: number): GuardOptions {
  return { ...options, corsOrigins: [...(options.corsOrigins ?? []), ...ownOrigins(port)] }
}

/** The Runtime API token is no answer here: only a session a page opened with the UI secret is. */
function checkUiSession(desk: DeskHttpOptions | undefined, cookie: string | undefined, port: number): void {
  if (desk?.sessions.admits(sessionIdOf(cookie, port)) === true) return
  throw new HttpError(
    401,
    'Unauthorized',
    'The desk API takes only the session of a page opened from the address marlowe-desk serve --ui printed'
  )
}

/** Listens on loopback only; resolves with the port. */
export async function listen(app: FastifyInstance, port: number): Promise<number> {
  await app.listen({ host: '127.0.0.1', port })
  const address = app.server.address()
  if (typeof address !== 'object' || address === null) throw new Error('the server has no address')
  return address.port
}
