/**
 * The desk over HTTP, for the renderer in a browser (`marlowe-desk serve --ui`): `POST /api/<call>` with the
 * wire text of the request, answered 200 with the wire text of its `DeskResult` — a call's own failure included;
 * other statuses mean the request never reached the desk (guard, unknown call, transport). And the built
 * renderer under `/ui/`, with a strict Content-Security-Policy. The page reads the UI secret from the URL's
 * fragment (`/ui/#secret=…`), which browsers never send, and exchanges it at `POST /ui/session` for the session
 * cookie the desk API asks for (./ui-sessions). Each route names the access it needs; the guard in ./app
 * enforces it.
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { JsonValue } from '../core/json/lossless'
import { handleDeskCall, isDeskCall, type DeskHandlers } from '../engine/desk'
import { sendJson } from './app'
import { localPort } from './guard'
import { sessionCookie, type UiSessions } from './ui-sessions'

export interface DeskHttpOptions {
  readonly desk: DeskHandlers
  /** Who may call the desk: pages that exchanged the UI secret. */
  readonly sessions: UiSessions
  /** The built renderer (`out/renderer`); without it, no `/ui/`. */
  readonly uiDir?: string
}

/**
 * What a route asks of its caller beyond Host and Origin: nothing (`ui-file`), this server's own page
 * (`ui-session`, whose body carries the UI secret), or that page with a UI session (`desk`). Routes without
 * one take the Runtime API token.
 */
export type RouteAccess = 'ui-file' | 'ui-session' | 'desk'

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess
  }
}

export const UI_SESSION_PATH = '/ui/session'

export const UI_PATH = '/ui/'

/** The page may load only its own files and talk only to its own origin. */
export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

const UI_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-cache'
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8'
}

function secretIn(body: unknown): string {
  const secret = typeof body === 'object' && body !== null ? (body as { [key: string]: JsonValue }).secret : undefined
  return typeof secret === 'string' ? secret : ''
}

export function registerDeskRoutes(app: FastifyInstance, options: DeskHttpOptions): void {
  // Its own plugin scope: the wire text is read as it came, not through the API's lossless JSON parser.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(['text/plain', 'application/json'], { parseAs: 'string' }, (_request, body, done) =>
      done(null, body)
    )
    scope.post<{ Params: { call: string } }>('/api/:call', { config: { access: 'desk' } }, async (request, reply) => {
      const { call } = request.params
      if (!isDeskCall(call)) {
        return sendJson(reply, 404, { message: `No desk call named ${call}`, errorCode: 'UnknownCall', details: null })
      }
      const wire = await handleDeskCall(options.desk, call, typeof request.body === 'string' ? request.body : '', {
        logError: (name, error) => request.log.error({ err: error, call: name }, 'desk call failed')
      })
      return reply.code(200).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(wire)
    })
  })
  app.post(UI_SESSION_PATH, { config: { access: 'ui-session' } }, async (request, reply) => {
    const sessionId = options.sessions.exchange(secretIn(request.body))
    if (sessionId === undefined) {
      return sendJson(reply, 401, {
        message:
          'This address was already used or is not this server’s: open the newest one marlowe-desk serve --ui printed',
        errorCode: 'UiSecretRefused',
        details: null
      })
    }
    return reply
      .code(204)
      .header('set-cookie', sessionCookie(localPort(request), sessionId))
      .header('cache-control', 'no-store')
      .send()
  })
  if (options.uiDir !== undefined) registerUi(app, resolve(options.uiDir))
}

function registerUi(app: FastifyInstance, root: string): void {
  app.get('/ui', { config: { access: 'ui-file' } }, async (_request, reply) => reply.redirect(UI_PATH))
  app.get('/ui/*', { config: { access: 'ui-file' } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*']
    return sendUiFile(reply, root, rest === '' ? 'index.html' : rest)
  })
}

/** A file under `root`, never outside it (no `..`, no absolute paths, no hidden files). */
async function sendUiFile(reply: FastifyReply, root: string, relative: string): Promise<FastifyReply> {
  const path = resolve(root, relative)
  const inside = path.startsWith(root + sep) && !relative.split('/').some((part) => part.startsWith('.'))
  const type = CONTENT_TYPES[extname(path).toLowerCase()]
  const found = inside && type !== undefined && (await stat(path).catch(() => undefined))?.isFile() === true
  if (!found) return reply.code(404).type('text/plain; charset=utf-8').headers(UI_HEADERS).send('Not found')
  return reply
    .code(200)
    .type(type)
    .headers(UI_HEADERS)
    .send(await readFile(path))
}
