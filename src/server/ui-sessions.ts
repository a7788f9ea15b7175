/**
 * Who may use the desk API (`/api/<call>`, which signs with the user's wallets): only a browser session that a
 * page opened with the UI secret. The secret is separate from the Runtime API token, lives only in this
 * process's memory and in the address `serve --ui` prints, and works once: browsers record a visited address in
 * their history whatever its form (fragment included), so the copy left there must be spent. Each exchange
 * makes a fresh secret for the next browser (`onSecretRenewed` prints its address); other tabs of the same
 * browser share the session through its cookie.
 */
import { randomBytes } from 'node:crypto'
import { sameSecret } from './guard'

export interface UiSessionOptions {
  /** A session unused for this long is forgotten; default 12 hours. */
  readonly idleMs?: number
  readonly now?: () => number
  /** Told the next secret whenever the current one is spent. */
  readonly onSecretRenewed?: (secret: string) => void
}

const DEFAULT_IDLE_MS = 12 * 60 * 60_000
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

const randomSecret = (): string => randomBytes(32).toString('base64url')

/**
 * The session cookie's name carries the port: browsers send cookies to every port of a host, so two servers on
 * 127.0.0.1 would otherwise overwrite each other's session.
 */
export function sessionCookieName(port: number): string {
  return `marlowe-desk-session-${port}`
}

/**
 * `HttpOnly` keeps it from the page's scripts, `SameSite=Strict` from requests other sites start. No `Secure`:
 * the page is plain http on loopback, where some browsers drop Secure cookies, and loopback traffic never
 * crosses a network that Secure would protect it from. No expiry: it ends with the browser or the session.
 */
export function sessionCookie(port: number, sessionId: string): string {
  return `${sessionCookieName(port)}=${sessionId}; HttpOnly; SameSite=Strict; Path=/`
}

/** The session id the `Cookie` header carries for this port's server, if any. */
export function sessionIdOf(cookieHeader: string | undefined, port: number): string | undefined {
  const name = sessionCookieName(port)
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim()
      if (SESSION_ID.test(value)) return value
    }
  }
  return undefined
}

export class UiSessions {
  private current = randomSecret()
  /** Session id → when it was last used. */
  private readonly sessions = new Map<string, number>()
  private readonly idleMs: number
  private readonly now: () => number

  constructor(private readonly options: UiSessionOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS
    this.now = options.now ?? Date.now
  }

  /** The secret the next page may exchange. */
  get secret(): string {
    return this.current
  }

  /** A new session for the current secret (which is then spent), or undefined for any other text. */
  exchange(given: string): string | undefined {
    if (!sameSecret(given, this.current)) return undefined
    this.current = randomSecret()
    const sessionId = randomSecret()
    this.sessions.set(sessionId, this.now())
    this.options.onSecretRenewed?.(this.current)
    return sessionId
  }

  /** Whether `sessionId` is a live session; using it keeps it alive. */
  admits(sessionId: string | undefined): boolean {
    const now = this.now()
    for (const [id, lastUsed] of this.sessions) if (now - lastUsed >= this.idleMs) this.sessions.delete(id)
    if (sessionId === undefined || !this.sessions.has(sessionId)) return false
    this.sessions.set(sessionId, now)
    return true
  }
}
