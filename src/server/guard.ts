/**
 * Who may talk to the local server. It listens on loopback only, but a web page in the user's browser can
 * still reach loopback: the Host check stops DNS rebinding (a page on evil.example resolving to 127.0.0.1),
 * the Origin check stops cross-site requests from pages, and the token stops other local programs and users.
 * The token travels as `Authorization: Bearer <token>`, or as a path prefix `/t/<token>` for Runtime clients
 * that can only be given a base URL. It opens the Runtime routes only: the desk API, which signs, takes the
 * page's own origin and a UI session instead (./ui-sessions).
 */
import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { HttpError } from './errors'

export interface GuardOptions {
  /** Required on every request when set. */
  readonly token?: string
  /** Origins allowed to call the API from a browser (CORS); none by default. */
  readonly corsOrigins?: readonly string[]
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])
const TOKEN_PREFIX = /^\/t\/([^/?]+)([/?].*)?$/

/** Compares in constant time, so that answers do not leak how much of a guess was right. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The URL with a `/t/<token>` prefix removed, and the token it carried. Runs before routing, outside any
 * error handling: it must not throw. A token that is not valid URL encoding is kept as sent (and so fails).
 */
export function splitTokenPrefix(url: string): { url: string; token?: string } {
  const m = TOKEN_PREFIX.exec(url)
  if (m === null) return { url }
  const rest = m[2] ?? '/'
  let token = m[1]!
  try {
    token = decodeURIComponent(token)
  } catch {
    // Not URL encoding: compared as it came, it matches no token a client was given.
  }
  return { url: rest.startsWith('?') ? `/${rest}` : rest, token }
}

export function checkHost(host: string | undefined, port: number): void {
  if (host === undefined) throw new HttpError(400, 'BadRequest', 'A Host header is required')
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase())
  if (m === null || !LOOPBACK_HOSTS.has(m[1]!) || (m[2] !== undefined && Number(m[2]) !== port)) {
    throw new HttpError(403, 'ForbiddenHost', `Host ${JSON.stringify(host)} is not this server: use 127.0.0.1:${port}`)
  }
}

/** The port this request came in on. */
export function localPort(request: FastifyRequest): number {
  const address = request.server.server.address()
  return typeof address === 'object' && address !== null ? address.port : 0
}

/** The origins of a page this server serves itself. */
export function ownOrigins(port: number): string[] {
  return [...LOOPBACK_HOSTS].map((host) => `http://${host}:${port}`)
}

/**
 * For the desk: the caller must be this server's own page. Browsers send Origin with every POST, and a page of
 * another local port is same-site (its requests carry the session cookie), so neither CORS origins nor a
 * missing Origin pass.
 */
export function checkOwnOrigin(origin: string | undefined, port: number): void {
  if (origin !== undefined && ownOrigins(port).includes(origin)) return
  throw new HttpError(
    403,
    'ForbiddenOrigin',
    `Only this server's own page may call the desk (Origin ${JSON.stringify(origin ?? null)})`
  )
}

export function checkOrigin(origin: string | undefined, options: GuardOptions): void {
  if (origin === undefined || (options.corsOrigins ?? []).includes(origin)) return
  throw new HttpError(403, 'ForbiddenOrigin', `Requests from ${JSON.stringify(origin)} are not allowed`)
}

export function checkToken(
  options: GuardOptions,
  authorization: string | undefined,
  prefixToken: string | undefined
): void {
  if (options.token === undefined) return
  const bearer = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1]
  const given = prefixToken ?? bearer
  if (given === undefined || !sameSecret(given, options.token)) {
    throw new HttpError(401, 'Unauthorized', 'A valid API token is required (Authorization: Bearer <token>)')
  }
}
