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

/** POST /api/<call> with the wire text; a call's own error still answers 200 with a failed `DeskResult`. */
export function httpTransport(origin: string, token: string | undefined, fetchFn: typeof fetch): DeskTransport {
  return {
    async call(name, requestWire) {
      let response: Response
      try {
        response = await fetchFn(`${origin}/api/${name}`, {
          method: 'POST',
          // Without a token (`serve --no-token`) the request goes without one, and the engine decides.
          headers: token === undefined ? JSON_TYPE : { ...JSON_TYPE, Authorization: `Bearer ${token}` },
          body: requestWire
        })
      } catch (e) {
        throw unreachable('the connection failed.', { cause: e instanceof Error ? e.message : String(e) })
      }
      if (response.status === 401 || response.status === 403) {
        throw new DeskError(
          'unauthorized',
          token === undefined
            ? 'The engine wants an access token. Open the link that `marlowe-desk serve --ui` printed (it ends in #token=…).'
            : 'The engine refused this page’s access token. Open the newest link that `marlowe-desk serve --ui` printed.'
        )
      }
      if (!response.ok) throw unreachable(`it answered HTTP ${response.status}.`, { url: response.url })
      return response.text()
    }
  }
}

const TOKEN_KEY = 'marlowe-desk.token'

/**
 * Reads `#token=…` from the address, keeps it for this tab only (so a reload still works) and removes it from
 * the address bar and history, where it would otherwise be seen and bookmarked.
 */
export function takeAccessToken(win: Window): string | undefined {
  const match = /^#token=([^&]+)/.exec(win.location.hash)
  if (match?.[1] !== undefined) {
    const token = decodeURIComponent(match[1])
    win.sessionStorage.setItem(TOKEN_KEY, token)
    win.history.replaceState(null, '', win.location.pathname + win.location.search)
    return token
  }
  return win.sessionStorage.getItem(TOKEN_KEY) ?? undefined
}

/** IPC when the preload is there (the desktop window), else HTTP to the page's own origin. */
export function chooseTransport(win: Window): DeskTransport {
  const bridge: unknown = Reflect.get(win, 'marloweDesk')
  if (isBridge(bridge)) return ipcTransport(bridge)
  return httpTransport(win.location.origin, takeAccessToken(win), win.fetch.bind(win))
}
