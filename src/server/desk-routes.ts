/**
 * The desk over HTTP, for the renderer in a browser (`marlowe-desk serve --ui`): `POST /api/<call>` with the
 * wire text of the request, answered 200 with the wire text of its `DeskResult` — a call's own failure included;
 * other statuses mean the request never reached the desk (guard, unknown call, transport). And the built
 * renderer under `/ui/`, with a strict Content-Security-Policy; the page reads its API token from the URL's
 * fragment (`/ui/#token=…`), which browsers never send, and calls the API with it as a Bearer token.
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { handleDeskCall, isDeskCall, type DeskHandlers } from '../engine/desk'
import { sendJson } from './app'

export interface DeskHttpOptions {
  readonly desk: DeskHandlers
  /** The built renderer (`out/renderer`); without it, no `/ui/`. */
  readonly uiDir?: string
}

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

/** GET/HEAD of the UI's files: public (the token is in the page's fragment), so the guard skips the token. */
export function isUiAssetRequest(method: string, url: string): boolean {
  const path = url.split('?')[0] ?? ''
  return (method === 'GET' || method === 'HEAD') && (path === '/ui' || path.startsWith(UI_PATH))
}

export function registerDeskRoutes(app: FastifyInstance, options: DeskHttpOptions): void {
  // Its own plugin scope: the wire text is read as it came, not through the API's lossless JSON parser.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(['text/plain', 'application/json'], { parseAs: 'string' }, (_request, body, done) =>
      done(null, body)
    )
    scope.post<{ Params: { call: string } }>('/api/:call', async (request, reply) => {
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
  if (options.uiDir !== undefined) registerUi(app, resolve(options.uiDir))
}

function registerUi(app: FastifyInstance, root: string): void {
  app.get('/ui', async (_request, reply) => reply.redirect(UI_PATH))
  app.get('/ui/*', async (request, reply) => {
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
