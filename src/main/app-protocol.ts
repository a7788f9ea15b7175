/**
 * The app's own scheme (Electron security checklist, item 18): the packaged window loads `app://desk/index.html`
 * instead of a `file://` page, so the page has one fixed origin (which CSP `'self'` and the IPC sender check
 * name) and can reach no file but the built renderer's. The handler is plain fetch `Request` → `Response`, so
 * it runs and is tested in Node; main hands it to `protocol.handle`.
 */
import { readFile, realpath } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { UI_CSP } from '../server/desk-routes'
import { APP_HOST, APP_SCHEME } from './app-page'

/** The shape of Electron's `CustomScheme`, for `protocol.registerSchemesAsPrivileged` (before `ready`). */
export interface AppSchemeRegistration {
  readonly scheme: string
  readonly privileges: {
    readonly standard: boolean
    readonly secure: boolean
    readonly supportFetchAPI: boolean
    readonly codeCache: boolean
  }
}

/**
 * standard: an origin, relative URLs and storage, as http has; secure: a secure context, as `file://` was;
 * supportFetchAPI: the page's module scripts and any fetch of its own files; codeCache: V8's code cache, as
 * for http. Not corsEnabled, so no other origin may read these files; not bypassCSP.
 */
export const APP_SCHEME_REGISTRATION: AppSchemeRegistration = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true }
}

/** What the renderer build emits; any other file is not served (a module script needs its exact type). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8'
}

/** The page's own policy (the same as `serve --ui` sends), as a header too: it adds frame-ancestors. */
const HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
}

export type AppProtocolHandler = (request: Request) => Promise<Response>

function answer(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' } })
}

/**
 * The file a request names under `root`, or undefined: the app's host only, the path decoded once, and no
 * part empty, `.`, `..` or hidden (encoded slashes and backslashes split too, so `..%2F` cannot climb).
 */
function fileFor(root: string, request: Request): string | undefined {
  let url: URL
  let path: string
  try {
    url = new URL(request.url)
    path = decodeURIComponent(url.pathname)
  } catch {
    return undefined
  }
  // A fetch Request never carries credentials in its URL: the scheme and host are all there is to check.
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return undefined
  const parts = path.slice(1).split(/[\\/]/)
  if (!path.startsWith('/') || path.includes('\0') || parts.some((part) => part === '' || part.startsWith('.'))) {
    return undefined
  }
  const file = resolve(root, ...parts)
  return file.startsWith(root + sep) ? file : undefined
}

/** Answers `app://desk/<path>` with the file at `<path>` under `root` (the built renderer), else 404. */
export function appProtocolHandler(root: string): AppProtocolHandler {
  const base = resolve(root)
  let realBase: Promise<string> | undefined
  return async (request) => {
    if (request.method !== 'GET') return answer(405, 'Method not allowed')
    const file = fileFor(base, request)
    const type = file === undefined ? undefined : CONTENT_TYPES[extname(file).toLowerCase()]
    if (file === undefined || type === undefined) return answer(404, 'Not found')
    // A link is followed only to a file that is itself under the renderer directory. Electron's fs resolves and
    // reads inside app.asar; a directory or a missing file fails the read alike.
    realBase ??= realpath(base)
    const realRoot = await realBase.catch(() => base)
    const real = await realpath(file).catch(() => undefined)
    const body = real?.startsWith(realRoot + sep) === true ? await readFile(real).catch(() => undefined) : undefined
    if (body === undefined) return answer(404, 'Not found')
    return new Response(body, { status: 200, headers: { ...HEADERS, 'content-type': type } })
  }
}
