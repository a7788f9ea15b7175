/**
 * The two ways the renderer reaches the engine, behind one `DeskTransport`: the preload's IPC bridge in the
 * desktop window, or HTTP against `marlowe-desk serve --ui` in a browser. Which one is decided once at start-up.
 */
import { DeskError, type DeskCall, type DeskTransport } from '../../../api/contract'

/** What the preload exposes as `window.marloweDesk`. */
interface DeskBridge {
  call(name: DeskCall, requestWire: string): Promise<string>
}

function isBridge(value: unknown): value is DeskBridge {
  return typeof value === 'object' && value !== null && typeof (value as { call?: unknown }).call === 'function'
}

function ipcTransport(bridge: DeskBridge): DeskTransport {
  return { call: (name, requestWire) => bridge.call(name, requestWire) }
}

const unreachable = (reason: string, details?: Record<string, string>): DeskError =>
  new DeskError('engine-unreachable', `Cannot reach the engine: ${reason}`, details)

const JSON_TYPE = { 'Content-Type': 'application/json' }
const SESSION_PATH = '/ui/session'
const SECRET_IN_HASH = /^#secret=([^&]+)/

/**
 * How the page's session with the engine began: `opened` with the secret its address carried, `refused` (that
 * secret was already used or is not this server's), or `none` (no secret: a reload or a second tab, which
 * use the session cookie this browser may already hold).
 */
export type SessionStart = 'opened' | 'refused' | 'none'

const SEE_PRINTED = 'Open the newest address that `marlowe-desk serve --ui` printed (each one opens a single browser).'

function refusal(start: SessionStart): string {
  switch (start) {
    case 'refused':
      return `The engine refused this page’s address: it was already used, or is not this server’s. ${SEE_PRINTED}`
    case 'opened':
      return `This page’s session with the engine has ended (unused too long, or the engine restarted). ${SEE_PRINTED}`
    case 'none':
      return `This page has no session with the engine. ${SEE_PRINTED}`
  }
}

/**
 * POST /api/<call> with the wire text, once the session has begun; the browser adds the session cookie (same
 * origin). A call's own error still answers 200 with a failed `DeskResult`.
 */
export function httpTransport(
  origin: string,
  fetchFn: typeof fetch,
  session: Promise<SessionStart> = Promise.resolve('none')
): DeskTransport {
  return {
    async call(name, requestWire) {
      const start = await session
      let response: Response
      try {
        response = await fetchFn(`${origin}/api/${name}`, {
          method: 'POST',
          headers: JSON_TYPE,
          credentials: 'same-origin',
          body: requestWire
        })
      } catch (e) {
        throw unreachable('the connection failed.', { cause: e instanceof Error ? e.message : String(e) })
      }
      if (response.status === 401 || response.status === 403) throw new DeskError('unauthorized', refusal(start))
      if (!response.ok) throw unreachable(`it answered HTTP ${response.status}.`, { url: response.url })
      return response.text()
    }
  }
}

/**
 * Takes `#secret=…` out of the address at once (so it is neither seen, bookmarked nor kept by a reload) and
 * exchanges it for the session cookie. The browser's history still saw the address, which is why the engine
 * lets each secret be used once.
 */
export function openSession(win: Window, fetchFn: typeof fetch): Promise<SessionStart> {
  const match = SECRET_IN_HASH.exec(win.location.hash)
  if (match?.[1] === undefined) return Promise.resolve('none')
  win.history.replaceState(null, '', win.location.pathname + win.location.search)
  return fetchFn(`${win.location.origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: JSON_TYPE,
    credentials: 'same-origin',
    body: JSON.stringify({ secret: match[1] })
  }).then(
    (response): SessionStart => (response.ok ? 'opened' : 'refused'),
    (): SessionStart => 'refused'
  )
}

/** IPC when the preload is there (the desktop window), else HTTP to the page's own origin. */
export function chooseTransport(win: Window): DeskTransport {
  const bridge: unknown = Reflect.get(win, 'marloweDesk')
  if (isBridge(bridge)) return ipcTransport(bridge)
  const fetchFn = win.fetch.bind(win)
  return httpTransport(win.location.origin, fetchFn, openSession(win, fetchFn))
}
